/* The replay viewer: steps through a match record, decision by decision.
 *
 * Generic part only. It reads the record embedded in the page
 * (<script type="application/json" id="match-record">), folds its events into frames with the
 * drawer registered for record.game, and wires the buttons, the slider and the keyboard
 * (Left/Right, Home/End, PageUp/PageDown for deals, Space to play).
 *
 * A game plugs in with Arena.registerGame(name, drawer), where drawer has:
 *   initial(record)            -> state before the first event
 *   apply(state, event, rec)   -> the state after the event (a new object: frames are kept)
 *   stop(event)                -> true if the event gets a frame of its own (every "action" has one)
 *   draw(state, frame, ctx)    -> a DOM node: the board
 *   scores(state)              -> running scores per seat (optional)
 *   caption(event, ctx)        -> one line of text for the event (optional)
 *   section(state)             -> label of the part of the match (e.g. "Deal 3") (optional)
 * Everything that comes from bots is written with textContent, never as HTML.
 */
(function () {
  "use strict";

  var Arena = (window.Arena = window.Arena || {});
  var drawers = (Arena.drawers = Arena.drawers || {});

  Arena.registerGame = function (name, drawer) {
    drawers[name] = drawer;
  };

  /* h("div", {class: "x"}, [children]) — a tiny DOM builder; strings become text nodes. */
  function h(tag, attrs, children) {
    var svg = tag.indexOf("svg:") === 0;
    var el = svg
      ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
      : document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k === "text") el.textContent = String(v);
        else el.setAttribute(k, String(v));
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return el;
  }
  Arena.h = h;

  /* A drawer for games that have none yet: shows each event as text. */
  var plainDrawer = {
    initial: function () { return { last: null }; },
    apply: function (state, ev) { return { last: ev }; },
    stop: function () { return true; },
    draw: function (state) {
      return h("pre", { class: "replay-plain", text: state.last ? JSON.stringify(state.last, null, 1) : "" });
    },
  };

  function buildFrames(record, drawer, ctx) {
    var frames = [];
    var state = drawer.initial(record, ctx);
    var decision = 0;
    frames.push({ state: state, event: null, decision: null, index: 0 });
    (record.events || []).forEach(function (ev) {
      state = drawer.apply(state, ev, record, ctx);
      var isAction = ev.type === "action";
      if (isAction || drawer.stop(ev)) {
        frames.push({
          state: state,
          event: ev,
          decision: isAction ? decision : null,
          index: frames.length,
        });
      }
      if (isAction) decision += 1;
    });
    // The state before the first event has nothing to show when the match starts with a deal.
    if (frames.length > 1 && frames[1].decision === null) frames.shift();
    frames.forEach(function (f, i) { f.index = i; });
    return frames;
  }

  function seatName(ctx, seat) {
    var s = ctx.record.seats[seat];
    return s ? s.name : "seat " + seat;
  }

  function ordinal(n) {
    var s = ["th", "st", "nd", "rd"], v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  function Viewer(root, record) {
    this.root = root;
    this.record = record;
    this.drawer = drawers[record.game] || plainDrawer;
    this.ctx = {
      record: record,
      h: h,
      seatName: seatName.bind(null, { record: record }),
      numSeats: record.seats.length,
    };
    this.frames = buildFrames(record, this.drawer, this.ctx);
    this.pos = 0;
    this.timer = null;
    this.q = function (sel) { return root.querySelector(sel); };
    this.wire();
  }

  Viewer.prototype.wire = function () {
    var self = this;
    var last = this.frames.length - 1;
    var slider = this.q(".replay-slider");
    slider.min = 0;
    slider.max = last;
    slider.value = 0;
    slider.addEventListener("input", function () { self.go(parseInt(slider.value, 10)); });
    var actions = {
      first: function () { self.go(0); },
      "prev-section": function () { self.go(self.sectionStart(-1)); },
      prev: function () { self.go(self.pos - 1); },
      play: function () { self.toggle(); },
      next: function () { self.go(self.pos + 1); },
      "next-section": function () { self.go(self.sectionStart(1)); },
      last: function () { self.go(last); },
    };
    Array.prototype.forEach.call(this.root.querySelectorAll("[data-step]"), function (btn) {
      btn.addEventListener("click", function () {
        var name = btn.getAttribute("data-step");
        if (name !== "play") self.stop();
        actions[name]();
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
      var map = {
        ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last",
        PageDown: "next-section", PageUp: "prev-section", " ": "play",
      };
      var name = map[e.key];
      if (!name) return;
      if (t && /^(BUTTON|SUMMARY|A)$/.test(t.tagName) && e.key === " ") return; // its own action
      e.preventDefault();
      if (name !== "play") self.stop();
      actions[name]();
    });
    this.root.classList.add("replay-ready");
    window.addEventListener("hashchange", function () { self.go(self.fromHash(self.pos)); });
    this.go(this.fromHash(0));
  };

  /* "#step=N" (1-based, as shown) or "#end" in the address opens the replay there. */
  Viewer.prototype.fromHash = function (fallback) {
    var hash = window.location.hash || "";
    var m = /^#step=(\d+)$/.exec(hash);
    if (m) return Math.max(0, parseInt(m[1], 10) - 1);
    if (hash === "#end") return this.frames.length - 1;
    return fallback;
  };

  /* The first frame of the next (dir=1) or current/previous (dir=-1) section, e.g. a deal. */
  Viewer.prototype.sectionStart = function (dir) {
    var d = this.drawer, f = this.frames;
    if (!d.section) return dir > 0 ? f.length - 1 : 0;
    var key = function (i) { return d.section(f[i].state); };
    var i = this.pos;
    if (dir > 0) {
      while (i < f.length - 1 && key(i + 1) === key(this.pos)) i++;
      return Math.min(i + 1, f.length - 1);
    }
    while (i > 0 && key(i - 1) === key(this.pos)) i--;
    if (i === this.pos && i > 0) {
      i -= 1;
      while (i > 0 && key(i - 1) === key(i)) i--;
    }
    return i;
  };

  Viewer.prototype.toggle = function () {
    var self = this;
    if (this.timer) { this.stop(); return; }
    if (this.pos >= this.frames.length - 1) this.go(0);
    this.timer = window.setInterval(function () {
      if (self.pos >= self.frames.length - 1) self.stop();
      else self.go(self.pos + 1);
    }, 700);
    this.q('[data-step="play"]').textContent = "❚❚ Pause";
  };

  Viewer.prototype.stop = function () {
    if (!this.timer) return;
    window.clearInterval(this.timer);
    this.timer = null;
    this.q('[data-step="play"]').textContent = "▶ Play";
  };

  Viewer.prototype.go = function (pos) {
    var last = this.frames.length - 1;
    this.pos = Math.max(0, Math.min(last, pos));
    var frame = this.frames[this.pos];
    var rec = this.record;
    this.q(".replay-slider").value = this.pos;
    var decisions = rec.decisions || [];
    var pos = "Step " + (this.pos + 1) + " of " + this.frames.length;
    if (frame.decision !== null) pos += " · decision " + (frame.decision + 1) + " of " + decisions.length;
    if (this.drawer.section) pos = this.drawer.section(frame.state) + " · " + pos;
    this.q(".replay-position").textContent = pos;
    this.root.setAttribute("data-frame", String(this.pos));
    this.root.setAttribute("data-at-end", this.pos === last ? "true" : "false");
    Array.prototype.forEach.call(this.root.querySelectorAll("[data-step]"), function (b) {
      var name = b.getAttribute("data-step");
      var back = name === "first" || name === "prev" || name === "prev-section";
      var fwd = name === "last" || name === "next" || name === "next-section";
      b.disabled = (back && this.pos === 0) || (fwd && this.pos === last);
    }, this);
    this.drawScores(frame);
    this.drawCaption(frame);
    this.drawDecision(frame);
    var board = this.q(".replay-board");
    board.replaceChildren(this.drawer.draw(frame.state, frame, this.ctx));
    this.drawOutcome(frame);
  };

  Viewer.prototype.drawScores = function (frame) {
    var box = this.q(".replay-scores");
    if (!this.drawer.scores) { box.replaceChildren(); return; }
    var scores = this.drawer.scores(frame.state);
    var ctx = this.ctx;
    var mover = frame.event && frame.event.seat !== undefined ? frame.event.seat : null;
    box.replaceChildren.apply(box, scores.map(function (s, seat) {
      return h("div", { class: "replay-score seat-" + seat + (seat === mover ? " is-mover" : ""),
                        "data-seat": seat, "data-score": s }, [
        h("span", { class: "seat-dot seat-" + seat }),
        h("span", { class: "replay-score-name", text: ctx.seatName(seat) }),
        h("strong", { class: "replay-score-value", text: s }),
      ]);
    }));
  };

  Viewer.prototype.drawCaption = function (frame) {
    var text;
    var ev = frame.event;
    if (!ev) text = "Before the first move.";
    else if (this.drawer.caption) text = this.drawer.caption(ev, this.ctx, frame.state);
    if (!text && ev) text = ev.type + (ev.seat !== undefined ? " by " + this.ctx.seatName(ev.seat) : "");
    this.q(".replay-caption").textContent = text || "";
  };

  Viewer.prototype.drawDecision = function (frame) {
    var box = this.q(".replay-decision");
    if (frame.decision === null) { box.replaceChildren(); box.hidden = true; return; }
    box.hidden = false;
    var d = (this.record.decisions || [])[frame.decision];
    if (!d) { box.replaceChildren(); box.hidden = true; return; }
    var chips = d.legal.map(function (a) {
      var chosen = a === d.action;
      return h("li", { class: "chip" + (chosen ? " chip-chosen" : ""), title: chosen ? "played" : "legal, not played" },
               [chosen ? "✔ " : "", a]);
    });
    var ms = typeof d.ms === "number" ? d.ms.toFixed(d.ms < 10 ? 2 : 0) + " ms" : "";
    box.replaceChildren(
      h("div", { class: "replay-decision-head" }, [
        h("span", { class: "seat-dot seat-" + d.seat }),
        h("strong", { text: this.ctx.seatName(d.seat) }),
        " chose ",
        h("code", { class: "replay-action", text: d.action }),
        " from " + d.legal.length + " legal action" + (d.legal.length === 1 ? "" : "s"),
        ms ? h("span", { class: "muted", text: " · thought " + ms }) : null,
      ]),
      h("ul", { class: "chips", "aria-label": "legal actions" }, chips)
    );
  };

  /* On the last frame: the stored result, and why a seat failed if one did. */
  Viewer.prototype.drawOutcome = function (frame) {
    var box = this.q(".replay-outcome");
    var rec = this.record, ctx = this.ctx;
    if (frame.index !== this.frames.length - 1) { box.replaceChildren(); box.hidden = true; return; }
    box.hidden = false;
    var order = rec.seats.map(function (_, i) { return i; });
    order.sort(function (a, b) { return (rec.ranks[a] - rec.ranks[b]) || (a - b); });
    var items = order.map(function (seat) {
      var st = (rec.statuses || [])[seat] || {};
      return h("li", {}, [
        h("span", { class: "seat-dot seat-" + seat }),
        h("strong", { text: ordinal(rec.ranks[seat]) + " " }),
        h("span", { text: ctx.seatName(seat) }),
        " — " + rec.scores[seat] + " points",
        st.status && st.status !== "ok" ? h("span", { class: "status-bad", text: " · " + st.status + (st.reason ? ": " + st.reason : "") }) : null,
      ]);
    });
    box.replaceChildren(h("h3", { text: "Match result" }), h("ol", { class: "replay-result" }, items));
  };

  function boot() {
    var data = document.getElementById("match-record");
    var root = document.getElementById("replay");
    if (!data || !root) return;
    var record = JSON.parse(data.textContent);
    Arena.viewer = new Viewer(root, record);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
