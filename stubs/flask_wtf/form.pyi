from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup
from wtforms import Field, Form
from wtforms.meta import DefaultMeta

class FlaskForm(Form):
    class Meta(DefaultMeta): ...

    # formdata defaults to the request's form and files, where the request is a submission
    def __init__(self, formdata: Any = ..., **kwargs: Any) -> None: ...
    def is_submitted(self) -> bool: ...
    def validate_on_submit(
        self, extra_validators: Mapping[str, Sequence[Any]] | None = None
    ) -> bool: ...
    def hidden_tag(self, *fields: str | Field) -> Markup: ...
