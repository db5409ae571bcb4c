/* A seat at the table (`arena play GAME human BOT... --browser`): the page asks its server for
 * the seat's view (state?after=V, a long poll: answered when the match changes), draws it with the
 * replay viewer (replay.js) and the game's drawer, lists the match as text, and when it is the
 * seat's turn offers the legal actions as buttons (POST action). The view holds only what the
 * seat may know (arena/browser.py). Everything from bots is written with textContent.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;
  var version = -1, viewer = null, asked = null, clock = null;

  function q(sel) { return document.querySelector(sel); }

  function say(text, bad) {
    var status = q(".table-status");
    status.textContent = text;
    status.classList.toggle("bad", !!bad);
  }

  function poll() {
    fetch("state?after=" + version, { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (view) {
        show(view);
        if (!view.over) poll();
      }, function () {
        say("The table's server cannot be reached: the match has ended, or arena was stopped.", true);
        document.body.setAttribute("data-table", "gone");
        offer(null);
      });
  }

  function show(view) {
    version = view.version;
    var record = view.record;
    if (!viewer) {
      var root = document.getElementById("replay");
      root.hidden = false;
      viewer = Arena.viewer = new Arena.Viewer(root, record, { live: true });
      viewer.go(viewer.frames.length - 1);
    } else {
      viewer.update(record);
    }
    var log = q(".table-log");
    log.replaceChildren.apply(log, view.log.map(function (line) { return h("li", { text: line }); }));
    log.scrollTop = log.scrollHeight;
    var name = record.seats[view.seat].name;
    if (view.over) {
      say(view.stopped ? "The match was stopped: " + view.stopped + "." : "The match is over.", !!view.stopped);
      document.body.setAttribute("data-table", "over");
      q(".table-leave").hidden = true;
      offer(null);
    } else if (view.asking) {
      say("Your move, " + name + " (seat " + view.seat + ").");
      document.body.setAttribute("data-table", "asking");
      offer(view.asking);
    } else {
      say("Waiting for the other seats…");
      document.body.setAttribute("data-table", "waiting");
      offer(null);
    }
  }

  /* The seat's decision (or none): what it knows, and a button per legal action. */
  function offer(asking) {
    var box = q(".table-move");
    if (clock) { window.clearInterval(clock); clock = null; }
    if (!asking) { asked = null; box.hidden = true; box.removeAttribute("data-decision"); return; }
    if (asked && asked.decision === asking.decision) return;  // already offered
    asked = asking;
    box.hidden = false;
    box.setAttribute("data-decision", String(asking.decision));
    q(".table-problem").hidden = true;
    q(".table-seen").textContent = asking.observation.join("\n");
    var list = q(".table-actions");
    list.replaceChildren.apply(list, asking.legal.map(function (action, i) {
      var button = h("button", { type: "button", class: "table-action", "data-action": action,
                                 title: "play " + action }, [h("span", { class: "muted", text: (i + 1) + ". " }), action]);
      button.addEventListener("click", function () { choose(asking.decision, action); });
      return h("li", {}, [button]);
    }));
    var timer = q(".table-clock");
    timer.hidden = asking.ms_left === undefined;
    if (asking.ms_left !== undefined) {
      var until = Date.now() + asking.ms_left;
      var tick = function () {
        timer.textContent = "Your clock: " + Math.max(0, (until - Date.now()) / 1000).toFixed(1) + " s left.";
      };
      tick();
      clock = window.setInterval(tick, 200);
    }
  }

  function post(path, body) {
    return fetch(path, { method: "POST", cache: "no-store", headers: { "Content-Type": "application/json" },
                         body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json(); });
  }

  function choose(decision, action) {
    Array.prototype.forEach.call(document.querySelectorAll(".table-action"), function (b) { b.disabled = true; });
    post("action", { decision: decision, action: action }).then(function (answer) {
      if (answer.ok) return;
      var problem = q(".table-problem");
      problem.textContent = "Not taken: " + answer.problem + ".";
      problem.hidden = false;
      Array.prototype.forEach.call(document.querySelectorAll(".table-action"), function (b) { b.disabled = false; });
    }, function () { say("The table's server cannot be reached.", true); });
  }

  function boot() {
    var sure = q(".table-resign-sure");
    q(".table-resign").addEventListener("click", function () { sure.hidden = false; sure.focus(); });
    sure.addEventListener("click", function () { sure.hidden = true; post("resign"); });
    poll();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
