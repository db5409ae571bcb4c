/* The replay viewer: steps through a match record, decision by decision.
 *
 * Generic part only. new Arena.Viewer(root, record) folds the record's events into frames with
 * the drawer registered for record.game, and wires the buttons, the slider, the speed and the
 * keyboard (Left/Right, Home/End, PageUp/PageDown for deals, Space to play). The record comes
 * from records/<id>.js (Arena.loadRecord: the packed form, see arena/record.py and
 * docs/match-record.md), loaded by match.js, or from the page itself (the one-match page of
 * `arena view`: <script type="application/json" id="match-record">, read by match.js too).
 *
 * Numbering (docs/reports.md): steps count from 0 (step 0 is the start) and the address follows
 * them (#step=N); decisions count from 0 as the protocol's `decision` field does, and as failure
 * reasons say. A seat that failed at a decision gets a last step of its own: the decision offered,
 * what the bot answered (or that it timed out or crashed), and its stderr tail.
 *
 * A game plugs in with Arena.registerGame(name, drawer) (or a family of games named "family:NAME",
 * with Arena.registerGame("family:", drawer)), where drawer has:
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

  /* ----- the packed record (arena/record.py: pack_dict, expand) ----- */

  /* A record script's string as bytes: base64 (ASCII, read alike in every encoding), or one
   * character per byte, read as x-user-defined. A web server that declares the script's encoding
   * overrides that: windows-1252 and latin-1 can be undone; UTF-8 loses bytes, and is said
   * plainly, with the way out. */
  function bytesOfBase64(text) {
    var binary = atob(text), out = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  }
  var CP1252 = { 0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86,
    0x2021: 0x87, 0x02C6: 0x88, 0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E,
    0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93, 0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97,
    0x02DC: 0x98, 0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B, 0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F };
  function bytesOf(text) {
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i);
      if (c < 0x100) out[i] = c;
      else if (c >= 0xF780 && c <= 0xF7FF) out[i] = c & 0xff;
      else if (CP1252[c] !== undefined) out[i] = CP1252[c];
      else throw new Error("the record script was read as text in another encoding (a web server " +
        "that sends .js files as UTF-8, such as GitHub Pages?): render the site with " +
        "'arena report --records base64' to publish it there, or open it from disk");
    }
    return out;
  }

  /* The full record from its compact form (the inverse of arena.record.compact). */
  Arena.expandRecord = function (data) {
    if (!data.compact) return data;
    var out = {};
    Object.keys(data).forEach(function (k) {
      if (k !== "compact" && k !== "strings" && k !== "decisions" && k !== "events" &&
          k !== "notes" && k !== "notes_dropped") out[k] = data[k];
    });
    var strings = data.strings, d = data.decisions, decisions = [];
    for (var i = 0; i < d.seat.length; i++) {
      var legal = d.legal[i].map(function (j) { return strings[j]; });
      decisions.push({ seat: d.seat[i], legal: legal, action: legal[d.pick[i]], ms: d.ms[i] });
    }
    // optional columns: a bot's note with its decision, or why it was dropped (null where none)
    [["notes", "note"], ["notes_dropped", "note_dropped"]].forEach(function (p) {
      (data[p[0]] || []).forEach(function (v, j) { if (v !== null && decisions[j]) decisions[j][p[1]] = v; });
    });
    var k = 0;
    out.events = data.events.map(function (e) {
      if (e && typeof e === "object" && e.type !== undefined) return e;
      var dec = decisions[k++];
      var ev = { type: "action", seat: dec.seat, action: dec.action };
      if (e) Object.keys(e).forEach(function (key) { ev[key] = e[key]; });
      return ev;
    });
    out.decisions = decisions;
    return out;
  };

  /* Inflate a packed record (zlib) and expand it: a Promise of the full record. */
  Arena.unpackRecord = function (text, encoding) {
    if (typeof DecompressionStream === "undefined") {
      return Promise.reject(new Error("this browser cannot inflate the record (no DecompressionStream); use a current Chrome, Edge, Firefox or Safari"));
    }
    var bytes;
    try { bytes = encoding === "base64" ? bytesOfBase64(text) : bytesOf(text); } catch (e) { return Promise.reject(e); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Response(stream).text().then(function (json) { return Arena.expandRecord(JSON.parse(json)); });
  };

  /* Called by records/<id>.js. */
  var waiting = {};
  Arena.loadRecord = function (id, text, encoding) {
    var cb = waiting[id];
    if (cb) { delete waiting[id]; cb(text, encoding); }
  };
  /* Load records/<id>.js (a script: browsers refuse fetch from file://) relative to `base`. */
  Arena.requestRecord = function (base, id) {
    return new Promise(function (resolve, reject) {
      waiting[id] = function (text, encoding) { Arena.unpackRecord(text, encoding).then(resolve, reject); };
      var s = document.createElement("script");
      s.charset = "x-user-defined";
      s.src = base + "records/" + id + ".js";
      s.onerror = function () { delete waiting[id]; reject(new Error("missing")); };
      document.head.appendChild(s);
    });
  };

  /* `live`: the match is still being played, and the events after the last step (a prikup taken,
   * a new deal's score) get a step of their own, so that the last step shows the match now. */
  function buildFrames(record, drawer, ctx, live) {
    var frames = [];
    var state = drawer.initial(record, ctx);
    var decision = 0;
    var last = null;
    frames.push({ state: state, event: null, decision: null, index: 0 });
    (record.events || []).forEach(function (ev) {
      state = drawer.apply(state, ev, record, ctx);
      last = ev;
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
    if (live && frames[frames.length - 1].state !== state) {
      frames.push({ state: state, event: last, decision: null, index: frames.length });
    }
    // The state before the first event has nothing to show when the match starts with a deal.
    if (frames.length > 1 && frames[1].decision === null) frames.shift();
    // A seat that failed at a decision: that decision as a step of its own (the record's
    // statuses[].failure), numbered as the decisions before it are.
    (record.statuses || []).forEach(function (st, seat) {
      var f = st && st.failure;
      if (!f) return;
      var ev = { type: "failure", seat: seat, status: st.status, decision: f.decision };
      frames.push({ state: state, event: ev, decision: f.decision, failure: f, status: st, index: frames.length });
    });
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

  /* opts.live: a match still being played (update() brings its new events). */
  function Viewer(root, record, opts) {
    this.root = root;
    this.record = record;
    this.live = !!(opts && opts.live);
    // a drawer registered for a family ("openspiel:") draws each of its games ("openspiel:hex")
    var family = record.game.indexOf(":") > 0 ? record.game.slice(0, record.game.indexOf(":") + 1) : null;
    this.drawer = drawers[record.game] || (family && drawers[family]) || plainDrawer;
    this.ctx = {
      record: record,
      h: h,
      seatName: seatName.bind(null, { record: record }),
      numSeats: record.seats.length,
    };
    this.frames = buildFrames(record, this.drawer, this.ctx, this.live && !record.ranks);
    this.pos = 0;
    this.timer = null;
    this.speed = 1;
    this.q = function (sel) { return root.querySelector(sel); };
    this.wire();
  }

  Viewer.prototype.wire = function () {
    var self = this;
    var slider = this.q(".replay-slider");
    slider.min = 0;
    slider.max = this.frames.length - 1;
    slider.value = 0;
    slider.addEventListener("input", function () { self.go(parseInt(slider.value, 10)); });
    var speed = this.q(".replay-speed");
    if (speed) speed.addEventListener("change", function () {
      self.speed = parseFloat(speed.value) || 1;
      if (self.timer) { self.stop(); self.toggle(); }
    });
    var actions = {
      first: function () { self.go(0); },
      "prev-section": function () { self.go(self.sectionStart(-1)); },
      prev: function () { self.go(self.pos - 1); },
      play: function () { self.toggle(); },
      next: function () { self.go(self.pos + 1); },
      "next-section": function () { self.go(self.sectionStart(1)); },
      last: function () { self.go(self.frames.length - 1); },
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

  /* The match went on (a seat's view while it is played, `arena play --browser`): its record
   * now, with more events. A viewer that showed the last step moves on to the new last one. */
  Viewer.prototype.update = function (record) {
    var atEnd = this.pos >= this.frames.length - 1;
    this.record = record;
    this.ctx.record = record;
    this.frames = buildFrames(record, this.drawer, this.ctx, this.live && !record.ranks);
    this.q(".replay-slider").max = this.frames.length - 1;
    this.go(atEnd ? this.frames.length - 1 : this.pos);
  };

  /* "#step=N" (from 0, as shown) or "#end" in the address opens the replay there. */
  Viewer.prototype.fromHash = function (fallback) {
    var hash = window.location.hash || "";
    var m = /^#step=(\d+)$/.exec(hash);
    if (m) return Math.max(0, Math.min(this.frames.length - 1, parseInt(m[1], 10)));
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
    }, 700 / this.speed);
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
    var pos = "Step " + this.pos + " of 0–" + last;
    if (frame.failure) pos += " · decision " + frame.decision + ": failed";
    else if (frame.decision !== null) pos += " · decision " + frame.decision + " of 0–" + (decisions.length - 1);
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
    // the address follows the step, so that a link points at this moment
    var hash = "#step=" + this.pos;
    if (window.location.hash !== hash) {
      try { window.history.replaceState(null, "", hash); } catch (e) { /* some file:// pages */ }
    }
    this.drawScores(frame);
    this.drawCaption(frame);
    this.drawDecision(frame);
    this.drawFailure(frame);
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

  /* One line of text for a frame: the drawer's caption, or the event's type and seat. */
  Viewer.prototype.captionText = function (frame) {
    var text;
    var ev = frame.event;
    if (!ev) text = "Before the first move.";
    else if (frame.failure) text = failureText(frame, this.ctx);
    else if (this.drawer.caption) text = this.drawer.caption(ev, this.ctx, frame.state);
    if (!text && ev) text = ev.type + (ev.seat !== undefined ? " by " + this.ctx.seatName(ev.seat) : "");
    return text || "";
  };

  Viewer.prototype.drawCaption = function (frame) {
    this.q(".replay-caption").textContent = this.captionText(frame);
  };

  /* How long the referee waited for `seat`'s answer at its failing decision: the move time plus
   * what was left in its bank, which every earlier decision that took longer than the move time
   * drew from (arena/referee.py, protocol/SPEC.md §5); null for a record without a time control. */
  function waitedMs(rec, seat) {
    var tc = rec.time_control;
    if (!tc || typeof tc.move_ms !== "number") return null;
    var bank = tc.bank_ms || 0;
    (rec.decisions || []).forEach(function (d) {
      if (d.seat === seat && typeof d.ms === "number") bank -= Math.max(0, d.ms - tc.move_ms);
    });
    return tc.move_ms + Math.max(0, bank);
  }

  function secondsText(ms) {
    return ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s";
  }

  /* "timed out after 2.2 s" (or "timed out" when the record does not say how long it waited). */
  function timedOutText(rec, seat) {
    var waited = waitedMs(rec, seat);
    return "timed out" + (waited === null ? "" : " after " + secondsText(waited));
  }

  function failureText(frame, ctx) {
    var f = frame.failure, who = ctx.seatName(frame.event.seat);
    var noAnswer = f.answer === null || f.answer === undefined;
    var said = {
      timeout: noAnswer ? who + " gave no answer (" + timedOutText(ctx.record, frame.event.seat) + ")"
                        : who + " answered too late",
      crash: who + " crashed without answering",
      illegal_action: who + " answered an action that is not legal",
      protocol_error: who + " answered with a message that breaks the protocol",
      resigned: who + " resigned",
    }[f.kind] || who + " failed (" + f.kind + ")";
    return "Decision " + f.decision + ": " + said + ", and loses the match.";
  }

  /* The failing decision: what was offered, what the bot answered, its reason and stderr. */
  Viewer.prototype.drawFailure = function (frame) {
    var box = this.q(".replay-failure");
    if (!box) return;
    if (!frame.failure) { box.replaceChildren(); box.hidden = true; return; }
    box.hidden = false;
    var f = frame.failure, st = frame.status, seat = frame.event.seat;
    var legal = f.legal || [];
    var offered = " was offered " + legal.length + " legal action" + (legal.length === 1 ? "" : "s") + " at decision " + f.decision + " and ";
    var allowed = waitedMs(this.record, seat);
    var late = f.kind !== "timeout" ? "" : " too late" + (allowed === null ? "" : ": its " + secondsText(allowed) + " had run out");
    // what really happened: an answer (maybe too late), or none: timed out after the wait, or a crash
    var answer = f.answer === null || f.answer === undefined
      ? [h("span", { class: "replay-no-answer", text: f.kind === "timeout" ? "gave no answer: it " + timedOutText(this.record, seat)
                                                  : f.kind === "crash" ? "crashed without answering"
                                                  : f.kind === "resigned" ? "resigned" : "gave no answer" }), " "]
      : ["answered ", h("code", { class: "replay-answer", text: f.answer }), late + " "];
    box.replaceChildren(
      h("div", { class: "replay-decision-head" }, [
        h("span", { class: "seat-dot seat-" + seat }),
        h("strong", { text: this.ctx.seatName(seat) }),
        offered,
      ].concat(answer, [
        h("span", { class: "badge badge-bad", text: st.status }),
      ])),
      h("ul", { class: "chips", "aria-label": "legal actions offered" }, legal.map(function (a) {
        return h("li", { class: "chip", text: a });
      })),
      st.reason ? h("p", { class: "replay-failure-reason", text: st.reason }) : null,
      st.stderr_tail
        ? h("details", { open: "open" }, [h("summary", { text: "stderr, last lines" }), h("pre", { class: "log", text: st.stderr_tail })])
        : h("p", { class: "muted small", text: st.stderr_withheld
            ? "stderr is left out of this report; the bot's author reads it on their own page."
            : "No stderr output." })
    );
  };

  Viewer.prototype.drawDecision = function (frame) {
    var box = this.q(".replay-decision");
    if (frame.decision === null || frame.failure) { box.replaceChildren(); box.hidden = true; return; }
    box.hidden = false;
    var d = (this.record.decisions || [])[frame.decision];
    if (!d) { box.replaceChildren(); box.hidden = true; return; }
    var chips = d.legal.map(function (a) {
      var chosen = a === d.action;
      return h("li", { class: "chip" + (chosen ? " chip-chosen" : ""), title: chosen ? "played" : "legal, not played" },
               [chosen ? "✔ " : "", a]);
    });
    var ms = typeof d.ms === "number" ? d.ms.toFixed(d.ms < 10 ? 1 : 0) + " ms" : "";
    var parts = [
      h("div", { class: "replay-decision-head" }, [
        h("span", { class: "muted", text: "Decision " + frame.decision + ": " }),
        h("span", { class: "seat-dot seat-" + d.seat }),
        h("strong", { text: this.ctx.seatName(d.seat) }),
        " chose ",
        h("code", { class: "replay-action", text: d.action }),
        " from " + d.legal.length + " legal action" + (d.legal.length === 1 ? "" : "s"),
        ms ? h("span", { class: "muted", text: " · thought " + ms }) : null,
      ]),
      h("ul", { class: "chips", "aria-label": "legal actions" }, chips)
    ];
    // the bot's reason for this decision (protocol/SPEC.md §3), or why it was not kept
    if (d.note !== undefined) {
      parts.push(h("p", { class: "replay-note" }, [
        h("span", { class: "muted", text: "Its note: " }), h("q", { class: "replay-note-text", text: d.note })]));
    } else if (d.note_dropped !== undefined) {
      parts.push(h("p", { class: "replay-note muted small", text: "Its note was dropped: " + d.note_dropped + "." }));
    }
    box.replaceChildren.apply(box, parts);
  };

  /* On the last frame: the stored result, and why a seat failed if one did. */
  Viewer.prototype.drawOutcome = function (frame) {
    var box = this.q(".replay-outcome");
    var rec = this.record, ctx = this.ctx;
    // (no ranks: a match still being played)
    if (frame.index !== this.frames.length - 1 || !rec.ranks) { box.replaceChildren(); box.hidden = true; return; }
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
    box.replaceChildren(h("h3", { text: "Match result: " + outcome(rec) }), h("ol", { class: "replay-result" }, items));
  };

  /* The match's result in words, from its ranks alone: "greedy won", "draw", and the failed
   * seats after it. The same words as arena.record.outcome, which the terminal and the report use. */
  function outcome(rec) {
    var top = [];
    rec.ranks.forEach(function (r, seat) { if (r === 1) top.push(seat); });
    var text = top.length > 1 ? "draw" : top.length ? (rec.seats[top[0]] || {}).name + " won" : "no result";
    var failed = [];
    (rec.statuses || []).forEach(function (st, seat) {
      if (st.status !== "ok") failed.push(rec.seats[seat].name + " failed: " + st.status.replace(/_/g, " "));
    });
    return failed.length ? text + " (" + failed.join("; ") + ")" : text;
  }

  Arena.Viewer = Viewer;
  Arena.outcome = outcome;
  Arena.recordBytes = bytesOf;
  Arena.buildFrames = buildFrames;
  Arena.failureText = failureText;
  Arena.waitedMs = waitedMs;
  Arena.timedOutText = timedOutText;
})();
