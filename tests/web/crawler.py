"""The forms a page offers, read as a crawler reads them: where each is sent, and the values
each of its fields offers (a hidden field's value, a radio button's choices, a submit button's
name and value), so that a test can send them filled in as offered, or not."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class PageForm:
    action: str
    method: str
    fields: dict[str, list[str]] = field(default_factory=dict)
    """Each field's offered values (a text field offers what it holds)."""
    buttons: list[tuple[str, str]] = field(default_factory=list)
    """The submit buttons' (name, value); a button without a name sends nothing."""
    kinds: dict[str, str] = field(default_factory=dict)
    """Each field's kind: its input's type ("text", "hidden", "radio" ...), or "textarea",
    "select"."""


class FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[PageForm] = []
        self.current: PageForm | None = None
        self.textarea: str | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.current = PageForm(found.get("action", ""), found.get("method", "get").lower())
            self.forms.append(self.current)
            return
        form = self.current
        if form is None:
            return
        name = found.get("name")
        kind = found.get("type", "submit" if tag == "button" else "text")
        if tag in ("input", "button") and kind == "submit":
            form.buttons.append((name or "", found.get("value", "")))
        elif tag == "input" and name:
            form.fields.setdefault(name, []).append(found.get("value", ""))
            form.kinds[name] = kind
        elif tag == "textarea" and name:
            self.textarea = name
            form.fields.setdefault(name, [])
            form.kinds[name] = tag
        elif tag == "select" and name:
            self.select = name
            form.fields.setdefault(name, [])
            form.kinds[name] = tag
        elif tag == "option" and self.select:
            form.fields[self.select].append(found.get("value", ""))

    def handle_data(self, data: str) -> None:
        if self.current is not None and self.textarea:
            self.current.fields[self.textarea].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "select":
            self.select = None


def forms_of(page: str) -> list[PageForm]:
    """The forms of ``page`` sent by POST."""
    return [form for form in every_form_of(page) if form.method == "post"]


def every_form_of(page: str) -> list[PageForm]:
    """The forms of ``page``, those sent in the address (GET) too."""
    reader = FormReader()
    reader.feed(page)
    return reader.forms


def form_to(page: str, part: str) -> PageForm:
    """The one form of ``page`` sent to an address containing ``part``."""
    (form,) = [form for form in forms_of(page) if part in form.action]
    return form


def as_drawn(form: PageForm) -> dict[str, str]:
    """A form's fields as the page drew them (the first value each offers)."""
    return {name: values[0] for name, values in form.fields.items() if values}
