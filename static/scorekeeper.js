// Comfort only: every page works without this file, and it never holds the game's data.
"use strict";

// Bids: highlight who bids next; once the others have bid, grey out the dealer's forbidden bid.
function enhanceBids(form) {
  const cards = Number(form.dataset.cards);
  const hook = form.dataset.hook === "true";
  const rows = Array.from(form.querySelectorAll("fieldset.numbers"));
  const dealerRow = rows.find((row) => row.hasAttribute("data-dealer"));
  const note = dealerRow && dealerRow.querySelector(".forbidden");
  const trickRows = rows.filter((row) => row.hasAttribute("data-tricks"));
  const bidRows = rows.filter((row) => !row.hasAttribute("data-tricks"));

  const chosen = (row) => {
    const input = row.querySelector("input:checked");
    return input ? Number(input.value) : null;
  };

  function refresh() {
    const next = bidRows.find((row) => chosen(row) === null);
    bidRows.forEach((row) => row.classList.toggle("next", row === next));
    if (!hook || !dealerRow) return;
    const earlier = bidRows.filter((row) => row !== dealerRow).map(chosen);
    const known = earlier.every((bid) => bid !== null);
    const forbidden = known ? cards - earlier.reduce((sum, bid) => sum + bid, 0) : null;
    dealerRow.querySelectorAll("input").forEach((input) => {
      input.disabled = forbidden !== null && forbidden >= 0 && Number(input.value) === forbidden;
      if (input.disabled && input.checked) input.checked = false;
    });
    if (note && forbidden !== null) {
      note.textContent = forbidden >= 0
        ? form.dataset.forbiddenText.replace("{bid}", forbidden)
        : "";
    }
  }

  form.addEventListener("change", refresh);
  refresh();
  if (trickRows.length) enhanceTricks(form, trickRows);
}

// Tricks: count them as they are entered, and fill in the last player's, which follows.
function enhanceTricks(form, rows) {
  const cards = Number(form.dataset.cards);
  const counter = form.querySelector(".count");
  let filled = null; // the row filled in here, not by a tap

  const chosen = (row) => {
    const input = row.querySelector("input:checked");
    return input ? Number(input.value) : null;
  };

  function refresh(event) {
    const tapped = event && event.target.closest("fieldset.numbers");
    if (tapped && tapped === filled) filled = null;
    if (filled) filled.querySelectorAll("input").forEach((input) => { input.checked = false; });
    const open = rows.filter((row) => chosen(row) === null);
    if (open.length === 1) {
      const rest = cards - rows.reduce((sum, row) => sum + (chosen(row) || 0), 0);
      const input = open[0].querySelector(`input[value="${rest}"]`);
      if (rest >= 0 && input) {
        input.checked = true;
        filled = open[0];
      }
    } else {
      filled = null;
    }
    rows.forEach((row) => row.classList.toggle("next", row === rows.find((r) => chosen(r) === null)));
    if (counter && form.dataset.countText) {
      const entered = rows.reduce((sum, row) => sum + (chosen(row) || 0), 0);
      counter.textContent = form.dataset.countText.replace("{entered}", entered);
      counter.classList.toggle("error", entered > cards);
    }
  }

  form.addEventListener("change", refresh);
  refresh();
}

// New game: name the first-dealer choices as names are typed; redraw the preview as the form
// changes.
function enhanceSetup(form) {
  let timer = null;
  form.querySelectorAll(".player-row input[type=text]").forEach((input, seat) => {
    input.addEventListener("input", () => {
      const choice = form.querySelector(`input[name="first_dealer"][value="${seat}"]`);
      const label = choice && choice.closest("label").querySelector("span");
      if (label) label.textContent = input.value.trim() || input.placeholder;
    });
  });
  async function refresh() {
    const data = new FormData(form);
    data.delete("csrf_token");
    const query = new URLSearchParams(data).toString();
    const response = await fetch(`${form.dataset.preview}?${query}`, { headers: { Accept: "text/html" } });
    if (response.ok) document.getElementById("preview").outerHTML = await response.text();
  }
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => { refresh().catch(() => {}); }, 250);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.entry.bids").forEach(enhanceBids);
  document.querySelectorAll("form.entry.tricks").forEach((form) => {
    enhanceTricks(form, Array.from(form.querySelectorAll("fieldset.numbers")));
  });
  document.querySelectorAll("form.setup[data-preview]").forEach(enhanceSetup);
});
