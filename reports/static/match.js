/* The replay page (replay.html?match=<id>#step=N): loads records/<id>.js, shows the match's
 * result, its bots' logs and its log as text, and starts the viewer (replay.js) on it.
 * site.js says which matches were played and which page each bot has. The one-match page of
 * `arena view` has no site: its record is in the page (#match-record, the compact form).
 * Everything that comes from bots is written with textContent, never as HTML.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;
  var site = Arena.site || { played: [], bots: {}, perPage: 500 };

  function q(sel) { return document.querySelector(sel); }

  function matchId() {
    var m = /[?&]match=(\d+)/.exec(window.location.search);
    return m ? parseInt(m[1], 10) : null;
  }

  function isPlayed(id) {
    return site.played.some(function (r) { return r[0] <= id && id <= r[1]; });
  }

  /* How many played matches come before `id`: the match lists hold the played ones. */
  function position(id) {
    var n = 0;
    site.played.forEach(function (r) {
      if (id > r[1]) n += r[1] - r[0] + 1;
      else if (id >= r[0]) n += id - r[0];
    });
    return n;
  }

  function playedCount() {
    return site.played.reduce(function (n, r) { return n + r[1] - r[0] + 1; }, 0);
  }

  function neighbour(id, dir) {
    var best = null;
    site.played.forEach(function (r) {
      if (dir < 0 && r[0] < id) { var c = Math.min(r[1], id - 1); if (best === null || c > best) best = c; }
      if (dir > 0 && r[1] > id) { var d = Math.max(r[0], id + 1); if (best === null || d < best) best = d; }
    });
    return best;
  }

  function ordinal(n) {
    var s = ["th", "st", "nd", "rd"], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  function msText(ms) {
    return ms < 10000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s";
  }

  function botLink(name) {
    var b = site.bots[name];
    var kids = [h("span", { class: "swatch", style: b ? "background:" + b.colour : null }),
                h("span", { class: "bot-name", text: name })];
    return b ? h("a", { class: "bot", href: b.href }, kids) : h("span", { class: "bot" }, kids);
  }

  /* A seat's thinking time; for one that timed out without answering, the wait for the answer
   * that never came is added (time_ms counts the decisions it answered) and said. */
  function thinking(rec, st, seat) {
    var time = st.time_ms || 0;
    if (st.status !== "timeout" || !st.failure || (st.failure.answer !== null && st.failure.answer !== undefined)) {
      return [msText(time)];
    }
    var waited = Arena.waitedMs(rec, seat);
    return [msText(time + (waited || 0)),
            h("span", { class: "thinking-note", text: "no answer: " + Arena.timedOutText(rec, seat) })];
  }

  function fact(label, value) {
    return h("div", {}, [h("dt", { text: label }), h("dd", { text: value })]);
  }

  /* A number that must not break (a 19-digit seed would read as two numbers): a box twice as
   * wide when it is long. */
  function numberFact(label, value) {
    return h("div", { class: value.length > 10 ? "is-wide" : null },
             [h("dt", { text: label }), h("dd", { class: "is-number", text: value })]);
  }

  /* `id`: the match's number in its tournament, or null on a page of its own (`title` then). */
  function show(id, rec, title) {
    document.title = id === null ? title : "Match " + id + " · " + (site.name || "");
    q(".match-title").replaceChildren(id === null ? title + ": " : "Match " + id + ": ",
                                      h("span", { class: "outcome", text: Arena.outcome(rec) }));
    var status = q(".match-status");
    status.textContent = "";
    status.hidden = true;
    var facts = [
      id === null ? fact("Game", rec.game) : fact("Match", String(id)),
      numberFact("Seed", String(rec.seed)),
      fact("Duration", msText(rec.duration_ms || 0)),
      fact("Decisions", String((rec.decisions || []).length))
    ];
    // A match's number is its id, not a count (a new version's matches take ids after every
    // stored one): where it stands among the played matches, counted against their count.
    if (id !== null && isPlayed(id)) facts.splice(1, 0, fact("Played", ordinal(position(id) + 1) + " of " + playedCount()));
    q(".match-facts").replaceChildren.apply(q(".match-facts"), facts);
    var colours = [];
    var rows = rec.seats.map(function (s, seat) {
      var st = (rec.statuses || [])[seat] || { status: "ok" };
      var b = site.bots[s.name];
      if (b) colours.push("--seat-" + seat + ":" + b.colour);
      var ok = st.status === "ok";
      return h("tr", { class: rec.ranks[seat] === 1 ? "is-winner" : null }, [
        h("td", { class: "num" }, [h("span", { class: "seat-dot seat-" + seat }), String(seat)]),
        h("td", {}, [botLink(s.name)]),
        h("td", { class: "num strong", "data-seat": seat, text: rec.scores[seat] }),
        h("td", { class: "num", text: rec.ranks[seat] }),
        h("td", {}, ok ? [h("span", { class: "badge badge-ok", text: "ok" })]
                       : [h("span", { class: "badge badge-bad", text: st.status }), " ", h("span", { class: "reason", text: st.reason || "" })]),
        h("td", { class: "num hide-narrow" }, thinking(rec, st, seat)),
      ]);
    });
    document.body.setAttribute("style", colours.join(";"));
    q(".match-result tbody").replaceChildren.apply(q(".match-result tbody"), rows);
    q(".match-result").hidden = false;

    var logs = q(".match-logs");
    var items = [];
    (rec.statuses || []).forEach(function (st, seat) {
      if (!st.stderr_tail) return;
      items.push(h("details", { open: st.status !== "ok" ? "open" : null }, [
        h("summary", {}, [botLink(rec.seats[seat].name), " (seat " + seat + "): stderr, last lines"]),
        h("pre", { class: "log", text: st.stderr_tail }),
      ]));
    });
    if (items.length) {
      logs.replaceChildren.apply(logs, [h("h2", { text: "Bot logs" })].concat(items));
      logs.hidden = false;
    }

    var root = document.getElementById("replay");
    root.hidden = false;
    var viewer = (Arena.viewer = new Arena.Viewer(root, rec));

    // The match as text, a line per step, each a link to its step (built when opened).
    var details = q(".match-log");
    var list = q(".log-steps");
    var build = function () {
      if (list.childNodes.length) return;
      list.replaceChildren.apply(list, viewer.frames.map(function (f, i) {
        return h("li", {}, [h("a", { href: "#step=" + i, text: "step " + i }), " " + viewer.captionText(f)]);
      }));
    };
    details.addEventListener("toggle", build);
    if (details.open) build();
  }

  function boot() {
    var id = matchId();
    var status = q(".match-status");
    if (!status) return;
    var embedded = document.getElementById("match-record");
    if (embedded) {
      show(null, Arena.expandRecord(JSON.parse(embedded.textContent)), embedded.getAttribute("data-title"));
      return;
    }
    if (id === null) { status.textContent = "No match given: open a match from a match list."; return; }
    q(".match-title").textContent = "Match " + id;
    var perPage = site.perPage || 500;
    q(".match-list").setAttribute("href", "matches/list-" + (Math.floor(position(id) / perPage) + 1) + ".html");
    [["prev", -1], ["next", 1]].forEach(function (p) {
      var other = neighbour(id, p[1]);
      var a = q(".match-" + p[0]);
      if (other !== null) { a.setAttribute("href", "replay.html?match=" + other); a.hidden = false; }
    });
    if (!isPlayed(id)) {
      status.textContent = "Match " + id + " has not been played yet" + (site.last && id > site.last ? " (no match of this tournament has this number: the last is match " + site.last + ")" : "") + ".";
      return;
    }
    Arena.requestRecord("", id).then(function (rec) { show(id, rec); }, function (err) {
      status.textContent = err && err.message !== "missing"
        ? "The record of match " + id + " could not be read: " + err.message
        : "The record of match " + id + " is missing from this site (records/" + id + ".js).";
      status.classList.add("bad");
      document.documentElement.setAttribute("data-replay-error", "true");
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
