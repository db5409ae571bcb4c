/* A seat at the table (`arena play GAME human BOT... --browser`): the page asks its server for
 * the seat's view (state?after=V, a long poll: answered when the match changes), draws it with the
 * replay viewer (replay.js) and the game's drawer, lists the match as text, and when it is the
 * seat's turn offers the legal actions (POST action): the pieces of the seat's hand on the
 * board that a legal action names are played by clicking them, and every action is a button
 * too (the only way to those that name no piece: bids, pass, roll, stop). The view holds only
 * what the seat may know (arena/browser.py). Everything from bots is written with textContent.
 *
 * A piece is an element of the seat's box on the board ([data-seat=S]) with a data-piece, the
 * text an action names it by (arena/games/pieces/pieces.js draws them); an action names the pieces among its words ("3-4:L" names 3-4,
 * "discard 1-4 5-5" names both, "play KH marriage" names KH). A click picks a piece; when the
 * pieces picked name exactly one action, it is played; when they name several ("3-4:L" and
 * "3-4:R"), their buttons are picked out to choose from.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;
  var version = -1, viewer = null, asked = null, clock = null, seat = null;
  var named = {};   // action -> the pieces of the seat's hand it names (asked.legal's)
  var picked = [];  // the pieces clicked so far for this decision
  var PIECE = "[data-piece]";

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
    seat = view.seat;
    var record = view.record;
    if (!viewer) {
      var root = document.getElementById("replay");
      root.hidden = false;
      viewer = Arena.viewer = new Arena.Viewer(root, record, { live: true });
      viewer.go(viewer.frames.length - 1);
    } else {
      viewer.update(record);
    }
    if (view.asking && (!asked || asked.decision !== view.asking.decision)) {
      viewer.stop();
      viewer.go(viewer.frames.length - 1);  // a new question: the board as it is now
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
    if (!asking) {
      asked = null; named = {}; picked = [];
      box.hidden = true; box.removeAttribute("data-decision"); mark();
      return;
    }
    if (asked && asked.decision === asking.decision) return;  // already offered
    asked = asking;
    box.hidden = false;
    box.setAttribute("data-decision", String(asking.decision));
    q(".table-problem").hidden = true;
    q(".table-seen").textContent = asking.observation.join("\n");
    named = {};
    picked = [];
    var hand = handPieces();
    asking.legal.forEach(function (action) {
      named[action] = action.split(/[\s:]+/).filter(function (word) { return hand.indexOf(word) >= 0; });
    });
    // the moves that name no piece: big buttons; those that do: a row of small ones (the
    // pieces on the board are the way to them), in the order of the legal actions
    var buttons = asking.legal.map(function (action, i) {
      var button = h("button", { type: "button", class: "table-action", "data-action": action,
                                 "data-pieces": named[action].join(" "), title: "play " + action },
                     [h("span", { class: "muted", text: (i + 1) + ". " }), action]);
      button.addEventListener("click", function () { choose(asking.decision, action); });
      return h("li", {}, [button]);
    });
    [[".table-actions-main", false], [".table-actions-pieces", true]].forEach(function (which) {
      var list = q(which[0]);
      var mine = buttons.filter(function (li, i) { return !!named[asking.legal[i]].length === which[1]; });
      list.replaceChildren.apply(list, mine);
      list.hidden = !mine.length;
      list.classList.toggle("is-many", mine.length > 8);
    });
    mark();
    reveal();
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

  /* keepalive: a move or a resignation still reaches arena when the page is left or closed
     right after the click. */
  function post(path, body) {
    return fetch(path, { method: "POST", cache: "no-store", keepalive: true,
                         headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json(); });
  }

  /* The pieces of the seat's hand as the board draws them now (face up: not "?"). */
  function handPieces() {
    return ownPieces().map(pieceOf).filter(function (p) { return p && p !== Arena.draw.HIDDEN; });
  }

  /* The piece elements in the seat's boxes on the board (a drawer may give a seat several). */
  function ownPieces() {
    if (seat === null) return [];
    var found = [];
    Array.prototype.forEach.call(document.querySelectorAll('.replay-board [data-seat="' + seat + '"]'), function (box) {
      Array.prototype.push.apply(found, box.querySelectorAll(PIECE));
    });
    return found;
  }

  function pieceOf(el) { return el.getAttribute("data-piece"); }

  /* The actions that name every piece of ``pieces``. */
  function naming(pieces) {
    return asked ? asked.legal.filter(function (action) {
      return named[action].length && pieces.every(function (p) { return named[action].indexOf(p) >= 0; });
    }) : [];
  }

  /* The board's pieces and the buttons as the decision stands: the pieces a legal action names
   * are playable (at the board's last step only: an earlier step shows an earlier hand), the
   * pieces picked stand out, and once a piece is picked the buttons of the actions it may still
   * make are picked out. Called whenever the board is drawn again. */
  function mark() {
    var atEnd = viewer && viewer.pos === viewer.frames.length - 1;
    var open = asked ? naming([]) : [];
    var playable = {};
    open.forEach(function (action) { named[action].forEach(function (p) { playable[p] = true; }); });
    ownPieces().forEach(function (el) {
      var piece = pieceOf(el), can = !!(asked && atEnd && playable[piece]);
      el.classList.add("is-own");
      el.classList.toggle("is-playable", can);
      el.classList.toggle("is-idle", open.length > 0 && atEnd && !can && piece !== Arena.draw.HIDDEN);
      el.classList.toggle("is-picked", can && picked.indexOf(piece) >= 0);
      if (can) {
        el.setAttribute("role", "button");
        el.setAttribute("tabindex", "0");
        el.setAttribute("aria-label", "your " + piece);
      } else if (el.getAttribute("tabindex") === "0") {
        el.removeAttribute("tabindex");
        el.setAttribute("role", "img");
        el.removeAttribute("aria-label");
      }
    });
    var left = picked.length ? naming(picked) : [];
    Array.prototype.forEach.call(document.querySelectorAll(".table-action"), function (b) {
      var action = b.getAttribute("data-action");
      b.classList.toggle("is-candidate", left.indexOf(action) >= 0);
      b.classList.toggle("is-out", picked.length > 0 && left.indexOf(action) < 0);
    });
    var hint = q(".table-hint");
    if (!asked) { hint.hidden = true; return; }
    hint.hidden = false;
    if (!atEnd) hint.textContent = "The board shows an earlier step: go to the end (End) to play from it.";
    else if (picked.length) hint.textContent = "Picked " + picked.join(" ") + ": " + (left.length > 1
      ? "choose one of the moves picked out below." : "pick the rest.");
    else if (open.length) hint.textContent = "Click an outlined piece of your hand to play it, or choose a move below.";
    else hint.textContent = "Choose your move below.";
  }

  /* On a phone the move stays at the bottom of the screen (report.css): scroll the seat's
   * pieces up above it when it would cover them. */
  function reveal() {
    var box = q(".table-move"), els = ownPieces();
    if (!els.length || window.getComputedStyle(box).position !== "sticky") return;
    var bottom = Math.max.apply(null, els.map(function (el) { return el.getBoundingClientRect().bottom; }));
    var top = Math.min(box.getBoundingClientRect().top, window.innerHeight - box.offsetHeight);
    if (bottom > top - 8) window.scrollBy(0, bottom - top + 8);
  }

  /* A click on a piece of the board. */
  function pick(piece) {
    if (!asked || viewer.pos !== viewer.frames.length - 1) return;
    var next = picked.indexOf(piece) >= 0 ? picked.filter(function (p) { return p !== piece; })
                                          : picked.concat([piece]);
    var left = naming(next);
    if (!left.length) { next = [piece]; left = naming(next); }
    if (!left.length) return;
    picked = next;
    var whole = left.filter(function (action) { return named[action].length === picked.length; });
    if (left.length === 1 && whole.length === 1) { choose(asked.decision, whole[0]); return; }
    mark();
    var first = document.querySelector(".table-action.is-candidate");
    if (first && first.scrollIntoView) first.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function choose(decision, action) {
    picked = [];
    mark();
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
    var board = q(".replay-board");
    // the moves go right under the board, before the replay's controls
    board.parentNode.insertBefore(q(".table-move"), board.nextSibling);
    new MutationObserver(mark).observe(board, { childList: true, subtree: true });
    board.addEventListener("click", function (e) {
      var el = e.target.closest ? e.target.closest(PIECE) : null;
      if (el && el.classList.contains("is-playable")) pick(pieceOf(el));
    });
    board.addEventListener("keydown", function (e) {
      var el = e.target.closest ? e.target.closest(PIECE) : null;
      if (!el || !el.classList.contains("is-playable") || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      e.stopPropagation();  // not the replay's Space (play)
      pick(pieceOf(el));
    });
    var sure = q(".table-resign-sure");
    q(".table-resign").addEventListener("click", function () { sure.hidden = false; sure.focus(); });
    sure.addEventListener("click", function () { sure.hidden = true; post("resign"); });
    poll();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
