// French Tarot, comfort only: the points tapped, the points the bouts need, and by how much the
// deal is made or down, said before Done is tapped (the page's own form works without it).
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.tarot-deal").forEach((form) => {
    const line = form.querySelector(".points-line");
    const chosen = (name) => form.querySelector(`input[name="${name}"]:checked`);
    const number = (value) => value.toLocaleString(document.documentElement.lang);
    function refresh() {
      const [tens, units, bouts] = ["tens", "units", "bouts"].map(chosen);
      if (!tens || !units) {
        line.textContent = "";
        return;
      }
      const points = 10 * Number(tens.value) + Number(units.value) + (chosen("half") ? 0.5 : 0);
      if (!bouts) {
        line.textContent = form.dataset.pointsText.replace("{points}", number(points));
        return;
      }
      const needed = Number(bouts.closest("label").dataset.needed);
      // The half point goes to the side that wins the deal (RULES.md §5).
      const made = points >= needed;
      const by = Math.abs((made ? Math.ceil(points) : Math.floor(points)) - needed);
      line.textContent = form.dataset[made ? "madeText" : "downText"]
        .replace("{points}", number(points)).replace("{needed}", needed).replace("{by}", by);
    }
    form.addEventListener("change", refresh);
    refresh();
  });
});
