"""Every control of every family's pages is thumb-sized on a 360 × 740 phone: 44 px tall at
least, whatever its kind (a text, number or date field, a list, a button, a radio's label)."""

from __future__ import annotations

from flask import Flask
from playwright.sync_api import Page

from scorekeeper.club.models import ClubSession
from scorekeeper.extensions import db
from tests.web.families import every_familys_pages

SMALL_CONTROLS = """() => {
  // A control folded away in a <details> is measured too: the reader opens it with a tap.
  document.querySelectorAll("details").forEach((details) => { details.open = true; });
  const small = [];
  for (const control of document.querySelectorAll(
      "input, select, textarea, button, .button, summary")) {
    if (control.type === "hidden") continue;
    // A radio or a check box is tapped through its label, which the stylesheet sizes.
    const tapped = ["radio", "checkbox"].includes(control.type)
      ? control.closest("label") || document.querySelector(`label[for="${control.id}"]`)
      : control;
    const box = tapped.getBoundingClientRect();
    if (box.width === 0 || getComputedStyle(tapped).visibility === "hidden") continue;
    if (box.height < 44) {
      small.push(`${tapped.outerHTML.slice(0, 120)}: ${box.height.toFixed(1)} px`);
    }
  }
  return small;
}"""


def test_every_control_of_every_familys_pages_is_44_px_tall(
    page: Page, served_app: Flask, live_server: str
) -> None:
    served_app.config["PRIVATE_SERVER"] = True  # this phone scores the games the client began
    urls = every_familys_pages(served_app.test_client())
    with served_app.app_context():  # a club session's director: by the director's link alone
        for club in db.session.execute(db.select(ClubSession)).scalars():
            response = page.goto(f"{live_server}/club/{club.id}/score/{club.scorer_token}")
            assert response is not None and response.ok
    found = []
    for url in urls:
        response = page.goto(live_server + url)
        assert response is not None and response.ok, url
        found += [f"{url}: {control}" for control in page.evaluate(SMALL_CONTROLS)]
    assert not found, "\n".join(found)
