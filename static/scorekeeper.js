// Comfort only: every page works without this file, and it never holds the game's data.
"use strict";

// A row's own message, and the list of what is wrong at the top of the form.
function setRowError(row, message) {
  row.classList.toggle("invalid", Boolean(message));
  const box = row.querySelector(".row-errors");
  if (!box) return;
  box.replaceChildren();
  if (message) {
    const line = document.createElement("p");
    line.className = "error";
    line.textContent = message;
    box.appendChild(line);
  }
}

function showSummary(form, problems) {
  let summary = form.querySelector(".error-summary");
  if (!problems.length) {
    if (summary) summary.remove();
    return;
  }
  if (!summary) {
    summary = document.createElement("div");
    summary.className = "error-summary";
    summary.setAttribute("role", "alert");
    const heading = form.querySelector("h2");
    if (heading) heading.after(summary);
    else form.prepend(summary);
  }
  const list = document.createElement("ul");
  problems.forEach(({ row, message }) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${row.id}`;
    link.textContent = message;
    item.appendChild(link);
    list.appendChild(item);
  });
  summary.replaceChildren(list);
}

// Before sending: every row has its number, and none is refused; else the page says which
// rows and why (never the browser's own bubble), and shows the first of them.
function checkBeforeSending(form, rows, rowProblem) {
  form.addEventListener("submit", (event) => {
    const problems = rows
      .map((row) => ({ row, message: rowProblem(row) }))
      .filter(({ message }) => message);
    rows.forEach((row) => setRowError(row, (problems.find((p) => p.row === row) || {}).message));
    showSummary(form, problems);
    if (problems.length) {
      event.preventDefault();
      problems[0].row.scrollIntoView({ block: "center" });
    }
  });
}

const chosenNumber = (row) => {
  const input = row.querySelector("input:checked");
  return input ? Number(input.value) : null;
};
// What the page says of a row left without a number: drawn with the row, naming its player.
const missingText = (row) => row.dataset.missingText;

// Bids: highlight who bids next; once the others have bid, grey out the dealer's forbidden bid.
// A bid the dealer tapped early that has since become the forbidden one stays, marked, with
// the reason, until the dealer chooses another.
function enhanceBids(form) {
  const cards = Number(form.dataset.cards);
  const hook = form.dataset.hook === "true";
  const rows = Array.from(form.querySelectorAll("fieldset.numbers"));
  const dealerRow = rows.find((row) => row.hasAttribute("data-dealer"));
  const note = dealerRow && dealerRow.querySelector(".forbidden");
  // Until the others' bids say which number: the rule, in a line where the keypad shows.
  const rule = !note ? "" : form.querySelector("[data-keypad]")
    ? form.dataset.forbiddenRuleText : note.textContent;
  const trickRows = rows.filter((row) => row.hasAttribute("data-tricks"));
  const bidRows = rows.filter((row) => !row.hasAttribute("data-tricks"));
  let forbidden = null;

  const forbiddenChosen = () =>
    dealerRow && forbidden !== null && chosenNumber(dealerRow) === forbidden;

  function refresh(event) {
    const next = bidRows.find((row) => chosenNumber(row) === null);
    bidRows.forEach((row) => row.classList.toggle("next", row === next));
    const tapped = event && event.target.closest("fieldset.numbers");
    if (tapped && chosenNumber(tapped) !== null && tapped !== dealerRow) setRowError(tapped, "");
    form.querySelectorAll("[data-bid-of]").forEach((tag) => {
      const row = bidRows.find((bidRow) => bidRow.dataset.seat === tag.dataset.bidOf);
      const bid = row ? chosenNumber(row) : null;
      tag.textContent = tag.dataset.text.replace("{bid}", bid === null ? "–" : bid);
    });
    if (!hook || !dealerRow) return;
    const earlier = bidRows.filter((row) => row !== dealerRow).map(chosenNumber);
    const known = earlier.every((bid) => bid !== null);
    const rest = known ? cards - earlier.reduce((sum, bid) => sum + bid, 0) : -1;
    forbidden = rest >= 0 ? rest : null;
    dealerRow.querySelectorAll("input").forEach((input) => {
      input.disabled = forbidden !== null && Number(input.value) === forbidden && !input.checked;
    });
    if (note) {
      note.textContent = forbidden !== null
        ? form.dataset.forbiddenText.replace("{bid}", forbidden)
        : rule;
      note.hidden = forbiddenChosen(); // the dealer's row says it, with the reason
    }
    if (forbiddenChosen()) {
      setRowError(dealerRow, form.dataset.forbiddenChosenText.replace("{bid}", forbidden));
    } else if (chosenNumber(dealerRow) !== null) {
      setRowError(dealerRow, "");
    }
  }

  form.addEventListener("change", refresh);
  refresh();
  checkBeforeSending(form, rows, (row) => {
    if (chosenNumber(row) === null) {
      return missingText(row);
    }
    if (row === dealerRow && forbiddenChosen()) {
      return form.dataset.forbiddenChosenText.replace("{bid}", forbidden);
    }
    return "";
  });
  if (trickRows.length) enhanceTricks(form, trickRows, false);
}

// Tricks: count them as they are entered, and fill in what follows from the others: the last
// player's count, or zero for everyone left once all the tricks (or more) are accounted for. A
// wrong total is said at once, in the count's place, and not sent.
function enhanceTricks(form, rows, checks = true) {
  const cards = Number(form.dataset.cards);
  const counter = form.querySelector(".count");
  let filled = []; // rows filled in here, not by a tap

  const sum = () => rows.reduce((total, row) => total + (chosenNumber(row) || 0), 0);
  const all = () => rows.every((row) => chosenNumber(row) !== null);
  const wrong = () => sum() > cards || (sum() < cards && all());
  const fill = (row, value) => {
    row.querySelector(`input[value="${value}"]`).checked = true;
    filled.push(row);
  };

  function refresh(event) {
    const tapped = event && event.target.closest("fieldset.numbers");
    if (checks && tapped) setRowError(tapped, "");
    filled.filter((row) => row !== tapped).forEach((row) => {
      row.querySelectorAll("input").forEach((input) => { input.checked = false; });
    });
    filled = [];
    const open = rows.filter((row) => chosenNumber(row) === null);
    const rest = cards - sum();
    if (rest <= 0) open.forEach((row) => fill(row, 0));
    else if (open.length === 1) fill(open[0], rest);
    const next = rows.find((row) => chosenNumber(row) === null);
    rows.forEach((row) => row.classList.toggle("next", row === next));
    if (counter && form.dataset.countText) {
      const text = wrong() ? form.dataset.totalText : form.dataset.countText;
      counter.textContent = text.replace("{entered}", sum());
      counter.classList.toggle("error", wrong());
    }
  }

  form.addEventListener("change", refresh);
  refresh();
  if (checks) {
    checkBeforeSending(form, rows, (row) => (chosenNumber(row) === null ? missingText(row) : ""));
    form.addEventListener("submit", (event) => {
      if (wrong()) event.preventDefault();
    });
  }
}

// One keypad for the round (the keypad macro of templates/ascenseur/play.html): a tap sets the
// number of the player whose line is lit, in that player's own row of the form, and lights the
// next player without one, else the first refused, else stays; a tap on a line goes back to
// that player. Only a refused number is struck out. The bids are sent with the last of them:
// their button shows only on bids given back whole (by an undo), which wait for it; the
// tricks, whose last count fills itself in, wait for theirs.
function enhanceKeypad(form, rows, sendWhenFull) {
  const panel = form.querySelector("[data-keypad]");
  if (!panel) return;
  const lines = Array.from(panel.querySelectorAll(".seat-line"));
  const keys = Array.from(panel.querySelectorAll(".keypad button"));
  const rowOf = (line) => rows.find((row) => row.dataset.seat === line.dataset.seat);
  const inputOf = (line, value) => rowOf(line).querySelector(`input[value="${value}"]`);
  const refused = (line) => rowOf(line).classList.contains("invalid");
  let current; // the lit line: always one

  form.classList.add("keyed");
  panel.hidden = false;
  const said = document.createElement("p"); // the rows' own messages, their rows being hidden
  said.className = "error keypad-errors";
  said.setAttribute("aria-live", "polite");
  panel.after(said);
  const note = form.querySelector(".forbidden");
  if (note) panel.after(note);

  const firstOpen = (from) => {
    const start = lines.indexOf(from);
    const order = [...lines.slice(start + 1), ...lines.slice(0, start + 1)];
    return order.find((line) => chosenNumber(rowOf(line)) === null) || null;
  };
  function show() {
    lines.forEach((line) => {
      const value = chosenNumber(rowOf(line));
      line.querySelector(".value").textContent = value === null ? "–" : value;
      line.classList.toggle("current", line === current);
      if (line === current) line.setAttribute("aria-current", "true");
      else line.removeAttribute("aria-current");
      line.classList.toggle("invalid", refused(line));
    });
    keys.forEach((key) => {
      const input = inputOf(current, key.dataset.value);
      key.disabled = input.disabled || (input.checked && refused(current));
      key.classList.toggle("chosen", input.checked && !key.disabled);
    });
    const pad = panel.querySelector(".keypad");
    const whose = current.querySelector(".who").textContent.trim();
    pad.setAttribute("aria-label", `${pad.dataset.label}: ${whose}`);
    said.textContent = rows
      .filter((row) => row.classList.contains("invalid"))
      .map((row) => row.querySelector(".row-errors").textContent.trim())
      .filter(Boolean)
      .join(" ");
    said.hidden = !said.textContent;
  }
  lines.forEach((line) => line.addEventListener("click", () => { current = line; show(); }));
  const full = () => rows.every((row) => chosenNumber(row) !== null);
  const refusedLine = () => lines.find(refused);
  // A number changed on a form ready to send (given back by an undo) waits for the button.
  const ready = () => full() && !form.querySelector("fieldset.invalid");
  if (sendWhenFull) form.querySelector(".confirm-bar").hidden = !ready();
  keys.forEach((key) => key.addEventListener("click", () => {
    const input = inputOf(current, key.dataset.value);
    const wasReady = ready();
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    current = firstOpen(current) || refusedLine() || current;
    show();
    current.scrollIntoView({ block: "nearest" }); // far down a long table (the keypad follows)
    if (sendWhenFull && !wasReady && ready()) {
      if (form.requestSubmit) form.requestSubmit();
      else form.querySelector("button[type=submit]").click();
    }
  }));
  form.addEventListener("change", show); // a count filled in, a forbidden number worked out
  form.addEventListener("submit", () => { // what is missing, marked by the check before sending
    current = refusedLine() || current;
    show();
  });
  // The first player without a number; on a form given back whole (an undo's refill, a page
  // refused by the server), the first whose number is refused, or the first.
  current = firstOpen(lines[lines.length - 1]) || refusedLine() || lines[0];
  show();
}

// A bridge deal: only the results the level allows are offered; a result tapped before the
// contract is complete says, in the page, what is missing.
function enhanceDeal(form) {
  const chosen = (name) => form.querySelector(`input[name="${name}"]:checked`);
  const buttons = Array.from(form.querySelectorAll("button[data-result]"));
  function refresh() {
    const level = chosen("level") ? Number(chosen("level").value) : null;
    buttons.forEach((button) => {
      const result = Number(button.dataset.result);
      button.hidden = level !== null && (result > 7 - level || -result > 6 + level);
    });
  }
  form.addEventListener("change", refresh);
  refresh();
  const needs = [["level", form.dataset.needLevel], ["strain", form.dataset.needStrain],
    ["declarer", form.dataset.needDeclarer]];
  if (form.dataset.needLead) needs.push(["lead", form.dataset.needLead]);
  form.addEventListener("submit", (event) => {
    if (!event.submitter || event.submitter.value === "passed") return;
    const problems = needs
      .filter(([name]) => !chosen(name))
      .map(([name, message]) => ({ row: form.querySelector(`#row-${name}`), message }));
    form.querySelectorAll("fieldset.buttons").forEach((row) => {
      setRowError(row, (problems.find((p) => p.row === row) || {}).message || "");
    });
    showSummary(form, problems);
    if (problems.length) {
      event.preventDefault();
      problems[0].row.scrollIntoView({ block: "center" });
    }
  });
}

// The back button brings a page back drawn anew (no page is kept), showing the game as it is
// now, where the scorer may take it for the page as it was. After an entry the script sent
// from a page that the server then sends the phone to again, the step back stays on that
// document, which shows the game as it is: the form is marked drawn from what it was then. A form marked data-first-version is
// sent with the version its history entry was first drawn from: the deal entered from it
// before, sent again, is then asked about rather than entered twice.
function sendFirstVersion(form) {
  const version = form.querySelector('input[name="drawn_from"]');
  const navigation = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  const state = history.state || {};
  if (navigation && navigation.type === "back_forward" && state.firstVersion) {
    version.value = state.firstVersion;
  } else {
    history.replaceState({ ...state, firstVersion: version.value }, "");
  }
  // The step back to the page an entry was sent from, where it was the page this one is now
  // (see goOnTo): the same page, drawn from what it was drawn from then.
  window.addEventListener("popstate", (event) => {
    if (event.state && event.state.firstVersion) version.value = event.state.firstVersion;
  });
}

// New game: name the first-dealer choices as names are typed; redraw the preview as the form
// changes.
function enhanceSetup(form) {
  let timer = null;
  form.querySelectorAll(".player-row input[type=text]").forEach((input, seat) => {
    const choice = form.querySelector(`input[name="first_dealer"][value="${seat}"]`);
    const label = choice && choice.closest("label").querySelector("span");
    const unnamed = label && label.textContent;
    input.addEventListener("input", () => {
      if (label) label.textContent = input.value.trim() || unnamed;
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

// Forms kept on the phone. A form that changes a game is sent from here rather than by the
// browser, so that an entry sent while the server does not answer (the network down, the server
// restarting) is not lost on the browser's error page: it is kept in the phone's storage, the
// page says so, and it is sent again by itself, in the order entered, once the server answers.
// Its one-time token (sent_as) makes the server apply it once however often it arrives. An
// entry leaves the phone only once the server has answered it: the database stays the truth.
const KEPT = "scorekeeper.kept";
const KEPT_PAUSED = "scorekeeper.kept.paused"; // an answer is on show: the rest wait for it
const KEPT_LEASE = "scorekeeper.kept.lease"; // the tab sending them (one at a time, in order)
const KEPT_REFUSED = "scorekeeper.kept.refused"; // an entry refused, until its page is read
const LEASE_FOR = 6000; // ms: renewed while sending, so that a tab closed mid-send soon lets go
const LEASE_RENEWED_EVERY = 2000; // ms
const ANSWER_WITHIN = 20000; // ms a send waits for an answer before it is tried again
const TRY_AGAIN_AFTER = [1000, 2000, 5000, 10000, 15000]; // ms, then the last again and again
// An entry the server keeps failing on (its error, not the network's) is held after this many
// tries, for whoever holds the phone to send again later or forget: the rest wait behind it.
const HELD_AFTER_FAILURES = 5; // about 20 s of its errors
const held = (entry) => (entry.failures || 0) >= HELD_AFTER_FAILURES;
const SAY_SENDING_AFTER = 800; // ms: a quick answer shows no "sending" at all

const kept = {
  texts: {},
  memory: null, // the entries, when the phone's storage refuses them: this page keeps them
  tab: newToken(),
  sending: null, // the token being sent
  tries: 0,
  timer: null,
  arrived: [],
  refused: null, // { entry, location } where the phone's storage refuses it (keptRefused)
  touchedAt: 0, // when this page's fields were last changed
};

// Nothing was written, and the same form sent again a moment later may be: the proxy's word
// that the app did not answer (502–504), the app failing or busy (another phone writing the
// same game at that moment: Retry-After).
const notAnswered = (response) => response.status >= 500 || response.status === 429
  || response.headers.has("Retry-After");

// A connection that hangs (a phone changing networks) is given up after a while: older
// browsers have no AbortSignal.timeout.
function giveUpAfter(ms) {
  if (AbortSignal.timeout) return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller.signal;
}

function newToken() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes); // crypto.randomUUID is for HTTPS only: phones use plain http
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function keptEntries() {
  if (kept.memory) return kept.memory;
  try {
    return JSON.parse(localStorage.getItem(KEPT) || "[]");
  } catch (error) {
    return [];
  }
}

function keepEntries(entries) {
  if (!kept.memory) {
    try {
      if (entries.length) localStorage.setItem(KEPT, JSON.stringify(entries));
      else localStorage.removeItem(KEPT);
      return;
    } catch (error) {
      // Private browsing, or the storage full: the page keeps them while it stays open.
    }
  }
  kept.memory = entries;
}

// One kept entry written again as it now stands (sent once, failing), in its place.
function keepEntry(entry) {
  keepEntries(keptEntries().map((other) => (other.token === entry.token ? entry : other)));
}

function storedFlag(name, on) {
  try {
    if (on === undefined) return localStorage.getItem(name);
    if (on) localStorage.setItem(name, on);
    else localStorage.removeItem(name);
  } catch (error) {
    return null;
  }
  return on;
}
const paused = () => Boolean(storedFlag(KEPT_PAUSED));

// An entry the server refused, and the page that says why, not read yet: kept on the phone
// (a reload, the browser closed) until that page is shown or another entry is made.
function keptRefused() {
  try {
    return JSON.parse(storedFlag(KEPT_REFUSED) || "null") || kept.refused;
  } catch (error) {
    return kept.refused;
  }
}

function keepRefused(refusal) {
  const stored = storedFlag(KEPT_REFUSED, refusal ? JSON.stringify(refusal) : "");
  kept.refused = refusal && stored === null ? refusal : null; // the storage refused it
}
const pause = (on) => storedFlag(KEPT_PAUSED, on ? "1" : "");

function takeLease() {
  let lease = null;
  try {
    lease = JSON.parse(storedFlag(KEPT_LEASE) || "null");
  } catch (error) {
    lease = null;
  }
  if (lease && lease.tab !== kept.tab && lease.until > Date.now()) return false;
  storedFlag(KEPT_LEASE, JSON.stringify({ tab: kept.tab, until: Date.now() + LEASE_FOR }));
  return true;
}

function releaseLease() {
  try {
    const lease = JSON.parse(storedFlag(KEPT_LEASE) || "null");
    if (lease && lease.tab === kept.tab) storedFlag(KEPT_LEASE, "");
  } catch (error) {
    storedFlag(KEPT_LEASE, "");
  }
}

// What the page calls the entry: its own name where the form gives one ("Round 5's tricks"),
// else its heading, its button, the page's title.
function entryLabel(form, submitter) {
  const heading = form.querySelector("h2, h3, legend");
  const named = form.dataset.entryLabel || (heading && heading.textContent)
    || (submitter && submitter.textContent) || document.title.split(" · ")[0];
  return (named || kept.texts.entry || "").trim().replace(/\s+/g, " ");
}

const said = (text, entries) => (text || "").replace("{entries}",
  entries.map((entry) => entry.label).join(kept.texts.and || ", "));

function showKept({ sending = false } = {}) {
  const entries = keptEntries();
  let note = document.getElementById("kept-note");
  const refused = keptRefused();
  if (!entries.length && !kept.arrived.length && !refused) {
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = document.createElement("div");
    note.id = "kept-note";
    note.className = "kept-note";
    note.setAttribute("role", "status");
    note.setAttribute("aria-live", "polite");
    const main = document.querySelector("main") || document.body;
    main.prepend(note);
  }
  const lines = [];
  const line = (text, className) => {
    const p = document.createElement("p");
    p.textContent = text;
    if (className) p.className = className;
    lines.push(p);
    return p;
  };
  if (kept.arrived.length) line(said(kept.texts.arrived, kept.arrived), "arrived");
  if (refused) {
    // Refused while this phone was on another page, or typing: the page that says why is one
    // tap away, and the server keeps its message for it.
    const refusal = line(said(kept.texts.refused, [refused.entry]) + " ", "error");
    const why = document.createElement("a");
    why.href = refused.location;
    why.textContent = kept.texts.why;
    refusal.append(why);
  }
  // Forget: the entries the page names as held (no answer said it was entered, the server
  // failing on it), or every one kept where none is held.
  const buttons = ({ send, forgetting = [] }) => {
    const row = line("", "buttons");
    if (send) {
      const again = document.createElement("button");
      again.type = "button";
      again.className = "primary";
      again.textContent = kept.texts.sendNow;
      again.addEventListener("click", () => {
        keepEntries(keptEntries().map(({ resubmitted, failures, ...entry }) => entry));
        kept.tries = 0;
        pause(false);
        flushKept();
      });
      row.append(again, " ");
    }
    const forget = document.createElement("button");
    forget.type = "button";
    const tokens = new Set(forgetting.map((entry) => entry.token));
    forget.textContent = forgetting.length ? kept.texts.forgetHeld : kept.texts.forget;
    forget.addEventListener("click", () => {
      if (forget.dataset.sure) {
        const rest = forgetting.length
          ? keptEntries().filter((entry) => !tokens.has(entry.token)) : [];
        keepEntries(rest);
        pause(false);
        if (rest.length) flushKept();
        else showKept();
        return;
      }
      forget.dataset.sure = "1";
      forget.textContent = forgetting.length ? kept.texts.forgetHeldSure : kept.texts.forgetSure;
    });
    row.append(forget);
  };
  if (entries.length && paused()) {
    const unanswered = entries.filter((entry) => entry.resubmitted);
    if (unanswered.length) line(said(kept.texts.unanswered, unanswered), "error");
    const failed = entries.filter((entry) => held(entry) && !entry.resubmitted);
    if (failed.length) line(said(kept.texts.held, failed), "error");
    const waiting = entries.filter((entry) => !entry.resubmitted && !held(entry));
    if (waiting.length) line(said(kept.texts.waiting, waiting));
    buttons({ send: true, forgetting: [...unanswered, ...failed] });
  } else if (entries.length) {
    const failing = entries.filter((entry) => entry.failing);
    if (sending) line(said(kept.texts.sending, entries));
    else if (failing.length) line(said(kept.texts.failing, entries), "error");
    else line(said(kept.texts.kept, entries));
    if (kept.memory && !sending) line(kept.texts.cannotKeep, "error");
    if (!sending) buttons({ send: false });
  }
  note.replaceChildren(...lines);
}

// One entry sent, and what came back: { applied, location } where the server took it (now or
// when it first arrived) and sends the phone on; { location } alone where it refused it in its
// own way and sends the phone to the page that says why (the session closed, the game moved
// on); { page: true } for a page of its own (a refusal in the form, another phone's entry);
// { failing: true } or null where nothing was written (the server failing or busy; no answer).
async function deliver(entry) {
  const body = new URLSearchParams();
  entry.fields.forEach(([name, value]) => body.append(name, value));
  body.append("sent_as", entry.token);
  body.append("kept_for", String(Math.max(0, Date.now() - entry.keptAt)));
  let response;
  try {
    response = await fetch(entry.action, {
      method: "POST",
      body,
      headers: { "Scorekeeper-Sent": "1" },
      credentials: "same-origin",
      signal: giveUpAfter(ANSWER_WITHIN),
    });
  } catch (error) {
    return null;
  }
  if (notAnswered(response)) {
    if ([502, 503, 504].includes(response.status)) return null;
    // Busy (429, or Retry-After): tried again later, and not counted as the entry failing.
    if (response.status === 429 || response.headers.has("Retry-After")) {
      const seconds = Number.parseInt(response.headers.get("Retry-After") || "", 10);
      return { busy: true, after: seconds >= 0 ? Math.min(seconds, 60) * 1000 : null };
    }
    return { failing: true };
  }
  if (response.status === 204) {
    return {
      applied: response.headers.get("Scorekeeper-Applied") === "1",
      location: response.headers.get("Scorekeeper-Location") || "/",
    };
  }
  // A page: the app's own answer, or a page from on the way (a proxy's, an address moved):
  // neither says the entry was taken.
  return { page: true };
}

// The server answered an entry with a page of its own: the browser sends it once more to show
// that page as it would have (nothing was changed by it: the server writes an entry only where
// it sends the phone on); the page drawn says which entry it answers (data-answered).
function sendAsTheBrowserWould(entry) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = entry.action;
  form.hidden = true;
  const add = (name, value) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.appendChild(input);
  };
  entry.fields.forEach(([name, value]) => add(name, value));
  add("sent_as", entry.token);
  add("kept_for", String(Math.max(0, Date.now() - entry.keptAt)));
  document.body.appendChild(form);
  HTMLFormElement.prototype.submit.call(form);
}

// Where the server sends the phone after an entry, as the browser would have gone there: a
// step of its own in the history, even to the page it is on (the back button then brings
// back the page the entry was made from, drawn anew: see sendFirstVersion). Never off this
// site: an address elsewhere is not the app's.
function goOnTo(address) {
  const target = new URL(address, window.location.href);
  const here = new URL(window.location.href);
  if (target.origin !== here.origin) return false;
  target.hash = "";
  here.hash = "";
  if (target.href !== here.href) {
    window.location.assign(target.href);
    return true;
  }
  history.pushState(null, "", target.href);
  window.location.reload();
  return true;
}

// With the network down, on to the page the entry leads to, where the phone keeps it (a
// table's next board): the first the form names (data-offline-next: "page|entry page|entry")
// whose entry is not kept already and that the service worker has, drawn as last given.
async function goOnOffline() {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  const made = keptEntries().filter((entry) => entry.from === window.location.href);
  const stored = made[made.length - 1]; // the last made on this page
  if (!worker || !stored || !stored.then || stored.wentOn) return;
  const sent = new Set(keptEntries().map((other) => other.action));
  for (const next of stored.then.split(" ")) {
    const [page, action] = next.split("|");
    const address = new URL(page, window.location.href).href;
    if (action && sent.has(new URL(action, window.location.href).href)) continue;
    try {
      if (!(await caches.match(address))) continue;
    } catch (error) {
      return;
    }
    stored.wentOn = true;
    keepEntry(stored);
    window.location.assign(address);
    return;
  }
}

function laterKept(after = null) {
  clearTimeout(kept.timer);
  // A busy server's Retry-After as it says, but never sooner than the first wait: "0" is no
  // licence to spin.
  const backoff = TRY_AGAIN_AFTER[Math.min(kept.tries, TRY_AGAIN_AFTER.length - 1)];
  const wait = after === null ? backoff : Math.max(after, TRY_AGAIN_AFTER[0]);
  kept.timer = setTimeout(flushKept, wait);
}

// Send what is kept, first entered first; on to the next once each is answered.
async function flushKept() {
  clearTimeout(kept.timer);
  if (kept.sending || !keptEntries().length) return showKept();
  if (paused()) return showKept();
  // A tab out of sight begins no send: its timers slow down until its lease would lapse
  // mid-send, and another tab would send beside it. It sends once shown again.
  if (document.hidden) return showKept();
  if (!takeLease()) return laterKept(); // another tab of this phone is sending them
  let last = null;
  let saying = null;
  const renewing = setInterval(takeLease, LEASE_RENEWED_EVERY);
  try {
    for (let entry = keptEntries()[0]; entry; entry = keptEntries()[0]) {
      if (entry.resubmitted || held(entry)) {
        // Sent once as the browser sends it, and the page that came back did not say it was
        // taken (a proxy's page, a page of another site), or failing again and again on the
        // server: the phone's holder decides.
        pause(true);
        break;
      }
      kept.sending = entry.token;
      document.body.dataset.sending = "1";
      clearTimeout(saying);
      saying = setTimeout(() => showKept({ sending: true }), SAY_SENDING_AFTER);
      const answer = await deliver(entry);
      takeLease();
      if (answer === null || answer.failing || answer.busy) {
        kept.tries += 1;
        if (answer && answer.failing) entry.failures = (entry.failures || 0) + 1;
        entry.failing = Boolean(answer && answer.failing);
        keepEntry(entry);
        if (held(entry)) {
          pause(true);
          break;
        }
        laterKept(answer && answer.busy ? answer.after : null);
        if (answer === null) goOnOffline();
        break;
      }
      kept.tries = 0;
      if (answer.page) {
        entry.resubmitted = true;
        keepEntry(entry);
        pause(keptEntries().length > 1);
        sendAsTheBrowserWould(entry);
        return;
      }
      keepEntries(keptEntries().filter((other) => other.token !== entry.token));
      if (!answer.applied) {
        // Refused in the server's own way: its page says why, and what is kept after it
        // waits until that is read. The phone goes there from the page the entry was made
        // on, nothing typed there since; elsewhere the page says so, with the way there.
        pause(keptEntries().length > 0);
        if (madeHereUntouched(entry) && goOnTo(answer.location)) return;
        keepRefused({ entry: { label: entry.label }, location: answer.location });
        showKept();
        return;
      }
      last = { entry, location: answer.location };
      kept.arrived.push(entry);
    }
  } finally {
    clearInterval(renewing);
    clearTimeout(saying);
    kept.sending = null;
    delete document.body.dataset.sending;
    releaseLease();
  }
  if (last && !keptEntries().length) {
    // On the page the entry was made on, and nothing typed on it since, the phone goes where
    // the server sends it; elsewhere the page says it arrived.
    if (madeHereUntouched(last.entry) && goOnTo(last.location)) return;
  }
  showKept();
}

function samePage(address, other) {
  const one = new URL(address, window.location.href);
  const two = new URL(other, window.location.href);
  one.hash = "";
  two.hash = "";
  return one.href === two.href;
}

// Whether the phone is on the page an entry was made on, nothing typed there since.
function madeHereUntouched(entry) {
  return samePage(entry.from, window.location.href) && kept.touchedAt <= entry.keptAt;
}

function sendFromHere(form) {
  form.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return; // the page's own checks stopped it
    event.preventDefault();
    const entries = keptEntries();
    const submitter = event.submitter;
    const data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    const entry = {
      token: newToken(),
      // Read as written: a field named "action" would stand for form.action.
      action: new URL(form.getAttribute("action") || "", window.location.href).href,
      fields: Array.from(data.entries()).filter(([, value]) => typeof value === "string"),
      label: entryLabel(form, submitter),
      keptAt: Date.now(),
      from: window.location.href,
      then: form.dataset.offlineNext || null,
    };
    const before = entries.findIndex((other) => other.token === form.dataset.keptToken);
    const same = before >= 0
      && JSON.stringify(entries[before].fields) === JSON.stringify(entry.fields);
    if (same && kept.sending === entries[before].token) return; // a double tap
    if (same) {
      // Sent again unchanged while the first waits: the first, with its token (it may have
      // arrived already, its answer lost), tried again now.
      const { resubmitted, failing, failures, ...first } = entries[before];
      entries[before] = first;
    } else if (before >= 0 && kept.sending !== entries[before].token) {
      entries[before] = entry; // changed while the first waits: in its place
    } else if (paused()) {
      entries.unshift(entry); // the page settled: this first, then the rest
    } else {
      entries.push(entry);
    }
    pause(false);
    keepRefused(null);
    keepEntries(entries);
    form.dataset.keptToken = same ? entries[before].token : entry.token;
    flushKept();
  });
}

// A step drawn ahead for the network's outages (a round's tricks): the bids the server does not
// know yet are those this phone keeps for that round.
function showKeptBids(form) {
  const action = new URL(form.dataset.bidsFrom, window.location.href).href;
  const entry = keptEntries().filter((other) => other.action === action).pop();
  if (!entry) return;
  const bids = new Map(entry.fields);
  form.querySelectorAll("[data-bid-of]").forEach((tag) => {
    const bid = bids.get(`bid_${tag.dataset.bidOf}`);
    if (bid !== undefined) tag.textContent = tag.dataset.text.replace("{bid}", bid);
  });
}

// Over HTTPS, the service worker keeps the pages this phone is given and those its page says
// it will need next (static/service-worker.js).
function keepPages(body) {
  if (!body.dataset.serviceWorker || !("serviceWorker" in navigator)) return;
  const named = document.querySelector("[data-keep-pages]"); // the body, or the scorer's part
  navigator.serviceWorker.register(body.dataset.serviceWorker)
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      const wanted = ((named && named.dataset.keepPages) || "").split(" ").filter(Boolean);
      if (wanted.length && registration.active) registration.active.postMessage({ keep: wanted });
    })
    .catch(() => {}); // no worker: the pages are as they are without one
}

function keepForms(body) {
  try {
    kept.texts = JSON.parse(body.dataset.kept || "{}");
  } catch (error) {
    kept.texts = {};
  }
  const refused = keptRefused();
  if (refused && samePage(refused.location, window.location.href)) keepRefused(null); // read
  if (body.dataset.answered) {
    const rest = keptEntries().filter((entry) => entry.token !== body.dataset.answered);
    keepEntries(rest);
    if (!rest.length) pause(false);
  }
  document.querySelectorAll("form").forEach((form) => {
    const changes = form.querySelector('input[name="drawn_from"]');
    const posted = (form.getAttribute("method") || "").toLowerCase() === "post";
    if (posted && changes && !form.querySelector('input[type="file"]')) {
      sendFromHere(form);
    }
  });
  const touched = () => { kept.touchedAt = Date.now(); };
  document.addEventListener("input", touched);
  document.addEventListener("change", touched);
  window.addEventListener("online", flushKept);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) flushKept(); });
  window.addEventListener("storage", (event) => {
    if ([KEPT, KEPT_PAUSED, KEPT_REFUSED].includes(event.key)) showKept();
  });
  window.addEventListener("pageshow", (event) => { if (event.persisted) flushKept(); });
  window.addEventListener("pagehide", releaseLease);
  flushKept();
}

const LEAVING_FOR = 5000; // ms: a page still here this long after it was left has stayed

// Live: poll the game's version (answered 304 while nothing changed) and show a change made on
// another phone: reload at once, unless this phone is halfway through a form. The page gives
// the pace: often just after a change, less once the game has been quiet a while (the table
// is playing its cards), never while the page is hidden, and at once when it is shown again.
function followGame(body) {
  const [movingEvery, quietEvery, quietAfter] = body.dataset.livePace.split(" ").map(Number);
  const drawnAt = Date.now();
  let touched = false;
  let timer = null;
  let asking = false;
  let done = false; // the game changed: the page reloads or says so, and asks no more
  document.addEventListener("input", () => { touched = true; });
  document.addEventListener("change", () => { touched = true; });
  // A page this phone is going to (a link tapped, a form sent) is not cut short by a reload of
  // this one; should the phone stay here after all (a file downloaded), the page says that the
  // game changed rather than reloading over a navigation that may still be on its way.
  let leaving = false;
  let reloading = false;
  let stayed = null;
  window.addEventListener("beforeunload", () => {
    if (reloading) return;
    leaving = true;
    clearTimeout(stayed);
    stayed = setTimeout(() => {
      leaving = false;
      if (done) changed({ reload: false });
    }, LEAVING_FOR);
  });
  function later() {
    clearTimeout(timer);
    timer = null;
    if (done || document.hidden) return;
    timer = setTimeout(poll, Date.now() - drawnAt < quietAfter ? movingEvery : quietEvery);
  }
  async function poll() {
    clearTimeout(timer);
    timer = null;
    if (asking || done) return;
    asking = true;
    try {
      const response = await fetch(body.dataset.live, {
        cache: "no-cache",
        signal: giveUpAfter(10000),
      });
      if (response.ok) {
        const state = await response.json();
        if (String(state.version) !== body.dataset.version) {
          done = true;
          // A copy the phone kept, shown while the server was slow to answer: the page says
          // the game changed rather than asking again for a page that may be as slow.
          return changed({ reload: !("keptCopy" in body.dataset) });
        }
      }
    } catch (error) {
      // The server is out of reach for a moment (a laptop asleep): try again later.
    } finally {
      asking = false;
    }
    later();
  }
  function changed({ reload = true } = {}) {
    if (leaving) return;
    if (body.dataset.sending) { // an entry of this phone's on its way, and its page with it
      setTimeout(() => changed({ reload }), 1000);
      return;
    }
    const note = document.getElementById("live-note");
    if (!touched && (reload || !note)) {
      reloading = true;
      window.location.reload();
      return;
    }
    if (note) note.hidden = false;
  }
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) later();
    else poll();
  });
  // Back from the browser's back-forward cache: ask at once.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    leaving = false;
    reloading = false;
    if (done) changed();
    else poll();
  });
  later();
}

// Keep the screen on during a game. The Wake Lock API works only over HTTPS or on localhost; on
// a laptop serving phones over plain http, a muted looping video keeps most phones awake once
// the page has been tapped. When neither works, the page says so.
function keepAwake(body) {
  const note = document.getElementById("awake-note");
  const cannot = () => { if (note) note.hidden = false; };
  if ("wakeLock" in navigator && window.isSecureContext) {
    const request = () => navigator.wakeLock.request("screen").catch(cannot);
    request();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") request();
    });
    return;
  }
  const video = document.createElement("video");
  video.muted = true;
  video.loop = true;
  video.setAttribute("muted", "");
  video.setAttribute("playsinline", "");
  video.setAttribute("aria-hidden", "true");
  video.className = "visually-hidden";
  for (const [type, url] of [["webm", body.dataset.awakeWebm], ["mp4", body.dataset.awakeMp4]]) {
    const source = document.createElement("source");
    source.src = url;
    source.type = `video/${type}`;
    video.appendChild(source);
  }
  document.body.appendChild(video);
  const start = () => { video.play().catch(cannot); };
  document.addEventListener("click", start, { once: true });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && video.paused) video.play().catch(() => {});
  });
}

document.addEventListener("DOMContentLoaded", () => {
  if (document.body.dataset.live) followGame(document.body);
  if (document.body.dataset.awakeMp4) keepAwake(document.body);
  document.querySelectorAll("form.entry.bids").forEach((form) => {
    enhanceBids(form);
    enhanceKeypad(form, Array.from(form.querySelectorAll("fieldset.numbers")), true);
  });
  document.querySelectorAll("form.entry.tricks").forEach((form) => {
    const rows = Array.from(form.querySelectorAll("fieldset.numbers"));
    enhanceTricks(form, rows);
    enhanceKeypad(form, rows, false);
  });
  document.querySelectorAll("form.setup[data-preview]").forEach(enhanceSetup);
  document.querySelectorAll("form.deal-entry").forEach(enhanceDeal);
  document.querySelectorAll("form[data-first-version]").forEach(sendFirstVersion);
  // Last: a form the page's own checks stop is not sent, nor kept.
  keepForms(document.body);
  document.querySelectorAll("form[data-bids-from]").forEach(showKeptBids);
  keepPages(document.body);
});
