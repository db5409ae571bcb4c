/* The index page: the rating chart's legend picks a bot's line out of many (16 lines and more
 * are hard to tell apart by colour). Pointing at a legend entry (or focusing it) shows that bot's
 * line and band alone in full colour; a click or tap pins it (click again to unpin). */
(function () {
  "use strict";
  function boot() {
    var chart = document.querySelector("#history svg.chart");
    var picks = document.querySelectorAll("#history .legend-pick");
    if (!chart || !picks.length) return;
    var pinned = null;
    function show(id) {
      chart.classList.toggle("has-focus", id !== null);
      Array.prototype.forEach.call(chart.querySelectorAll("[data-entrant]"), function (el) {
        el.classList.toggle("is-focus", el.getAttribute("data-entrant") === id);
      });
      Array.prototype.forEach.call(picks, function (b) {
        var on = b.getAttribute("data-entrant") === id;
        b.classList.toggle("is-focus", on);
        b.setAttribute("aria-pressed", on && id === pinned ? "true" : "false");
      });
      // the picked line is drawn last, above the others
      if (id !== null) {
        var line = chart.querySelector(".chart-line[data-entrant=\"" + id + "\"]");
        var end = chart.querySelector(".chart-end[data-entrant=\"" + id + "\"]");
        var frame = chart.querySelector(".chart-frame");
        if (line) chart.insertBefore(line, frame);
        if (end) chart.insertBefore(end, frame);
      }
    }
    Array.prototype.forEach.call(picks, function (b) {
      var id = b.getAttribute("data-entrant");
      b.addEventListener("mouseenter", function () { show(id); });
      b.addEventListener("focus", function () { show(id); });
      b.addEventListener("mouseleave", function () { show(pinned); });
      b.addEventListener("blur", function () { show(pinned); });
      b.addEventListener("click", function () { pinned = pinned === id ? null : id; show(pinned); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
