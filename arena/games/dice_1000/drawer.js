/* Dice 1000 for the replay viewer: the current turn's rolls as dice (the dice set aside
 * highlighted), the turn's running total, what the turn ended with, and a score ladder per player
 * from 0 to 1000 with the pits, the barrel and the dump-truck number marked.
 * Events: docs/games/dice-1000.md §10. Dice: Arena.draw.die (pieces.js); styles: drawer.css.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  /* One die face, drawn by the shared library (pieces.js). */
  function die(face, opts) { return Arena.draw.die(face, opts); }

  function copy(s) {
    return {
      n: s.n, options: s.options, scores: s.scores.slice(), onBarrel: s.onBarrel.slice(),
      bolts: s.bolts.slice(), falls: s.falls.slice(), attempts: s.attempts.slice(),
      opened: s.opened.slice(), points: s.points.slice(),
      turn: s.turn, rolls: s.rolls, total: s.total, ended: s.ended, notes: s.notes,
      lastAction: s.lastAction, matchEnd: s.matchEnd, capped: s.capped,
    };
  }

  var drawer = {
    initial: function (record) {
      var n = record.seats.length;
      var z = function (v) { return new Array(n).fill(v); };
      return {
        n: n, options: record.options || {}, scores: z(0), onBarrel: z(false), bolts: z(0),
        falls: z(0), attempts: z(0), opened: z(false), points: z(0),
        turn: null, rolls: [], total: 0, ended: null, notes: [], lastAction: null,
        matchEnd: null, capped: false,
      };
    },

    apply: function (prev, ev) {
      var s = copy(prev);
      var t = ev.type;
      if (t === "turn") {
        s.turn = { seat: ev.seat, number: ev.turn, round: ev.round, start: ev.score };
        s.rolls = []; s.total = 0; s.ended = null; s.notes = []; s.lastAction = null;
      } else if (t === "roll") {
        s.rolls = prev.rolls.concat([ev]); s.total = ev.turn_total; s.lastAction = null;
      } else if (t === "action") {
        s.lastAction = ev.action;
      } else if (t === "turn_end") {
        s.ended = ev; s.scores = ev.scores.slice();
      } else if (t === "match_end") {
        s.matchEnd = ev; s.scores = ev.scores.slice();
      } else if (t === "capped") {
        s.capped = true;
      } else if (ev.seat !== undefined) {
        if (ev.score !== undefined) s.scores[ev.seat] = ev.score;
        if (t === "bank") s.opened[ev.seat] = true;
        if (t === "mount") { s.onBarrel[ev.seat] = true; s.attempts[ev.seat] = 0; }
        if (t === "fall" || t === "leave_barrel") { s.onBarrel[ev.seat] = false; s.attempts[ev.seat] = 0; }
        if (t === "fall") s.falls[ev.seat] = ev.falls;
        if (t === "attempt") s.attempts[ev.seat] = ev.used;
        if (t === "bolt") s.bolts[ev.seat] = ev.amount ? 0 : ev.bolts;
        if (t === "point") s.points[ev.seat] = ev.amount ? 0 : ev.points;
        if (t !== "bank") s.notes = prev.notes.concat([ev]);
      }
      return s;
    },

    stop: function (ev) {
      return ev.type === "roll" || ev.type === "turn_end" || ev.type === "match_end";
    },

    scores: function (state) { return state.scores; },

    section: function (state) { return state.turn ? "Round " + state.turn.round : "Start"; },

    caption: function (ev, ctx, state) {
      var name = ev.seat !== undefined ? ctx.seatName(ev.seat) : "";
      if (ev.type === "roll") {
        var faces = ev.faces.join(" ");
        var why = { start: "", choice: "", hot: " (hot dice: must roll all five)", must: " (may not stop yet: must roll)" }[ev.by] || "";
        if (!ev.points) return name + " rolls " + faces + why + ": nothing scores. Bust, the " + ev.turn_total + " is lost.";
        var hot = ev.kept.length === ev.faces.length ? "; hot dice" : "";
        return name + " rolls " + faces + why + ": sets aside " + ev.kept.join(" ") + " for " + ev.points +
          ". Turn total " + ev.turn_total + ", " + ev.dice_left + (ev.dice_left === 1 ? " die" : " dice") + " left" + hot + ".";
      }
      if (ev.type === "action") {
        return name + (ev.action === "stop" ? " stops and banks " + ev.turn_total + "." : " rolls on at " + ev.turn_total + ".");
      }
      if (ev.type === "turn_end") {
        var word = { bank: "banks", win: "banks and wins with", bust: "busts and loses", overshoot: "passes 1000 and loses" }[ev.outcome];
        return name + " " + word + " " + ev.turn_total + ". Scores: " + ev.scores.map(function (sc, q) {
          return ctx.seatName(q) + " " + sc;
        }).join(", ") + ".";
      }
      if (ev.type === "match_end") {
        if (ev.winner !== null && ev.winner !== undefined) {
          return ctx.seatName(ev.winner) + " wins with " + ev.scores[ev.winner] + ".";
        }
        // capped (§9): ranked by score, as the record's ranks say (arena.record.outcome)
        var top = [];
        ev.ranks.forEach(function (r, q) { if (r === 1) top.push(q); });
        if (top.length === 1) {
          return "The match is capped: " + ctx.seatName(top[0]) + " wins on score with " + ev.scores[top[0]] + ".";
        }
        return "The match is capped: " + top.map(function (q) { return ctx.seatName(q); }).join(" and ") +
          " share first place with " + ev.scores[top[0]] + ".";
      }
      return null;
    },

    draw: function (state, frame, ctx) {
      var kids = [turnView(state, ctx), ladders(state, ctx)];
      return h("div", { class: "dk" }, kids);
    },
  };

  var NOTE_TEXT = {
    bolt: function (e) { return "bolt " + e.bolts + (e.amount ? ": " + e.amount : ""); },
    attempt: function (e) { return "barrel attempt " + e.used + " used"; },
    point: function (e) { return "point " + e.points + (e.amount ? ": " + e.amount : ""); },
    barrel_cap: function (e) { return "capped at the barrel: " + e.score; },
    mount: function () { return "on the barrel"; },
    fall: function (e) { return "falls off the barrel (" + (e.reason === "knocked_off" ? "knocked off" : "no attempts left") + "): " + e.amount; },
    leave_barrel: function () { return "off the barrel"; },
    overtaken: function (e) { return "overtaken: " + e.amount; },
    floor: function () { return "floored at 0"; },
    dump_truck: function (e) { return "dump truck: " + e.amount; },
  };

  function turnView(state, ctx) {
    if (!state.turn) return h("div", { class: "dk-turn muted", text: "No turn yet." });
    var t = state.turn;
    var rows = state.rolls.map(function (r, i) {
      var kept = r.kept.slice(), dice = [];
      r.faces.forEach(function (f) {
        var at = kept.indexOf(f);
        if (at >= 0) kept.splice(at, 1);
        dice.push(die(f, { cls: at >= 0 ? "die-kept" : (r.points ? "die-free" : "die-bust") }));
      });
      var last = i === state.rolls.length - 1;
      var tag = { hot: "hot dice", must: "must roll", start: "first roll", choice: "chose to roll" }[r.by];
      return h("div", { class: "dk-roll" + (last ? " is-last" : "") + (r.points ? "" : " is-bust"), "data-roll": i }, [
        h("span", { class: "dk-roll-tag", text: tag }),
        h("span", { class: "dk-dice" }, dice),
        h("span", { class: "dk-roll-points", text: r.points ? "+" + r.points : "bust" }),
        h("span", { class: "dk-roll-total muted", text: r.points ? "= " + r.turn_total + ", " + r.dice_left + " left" : "" }),
      ]);
    });
    var status;
    if (state.ended) {
      var e = state.ended;
      var word = { bank: "banked", win: "banked: wins", bust: "bust: lost", overshoot: "passed 1000: lost" }[e.outcome];
      status = h("div", { class: "dk-outcome dk-" + e.outcome, text: word + " " + e.turn_total });
    } else if (state.lastAction) {
      status = h("div", { class: "dk-outcome", text: state.lastAction === "roll" ? "rolls on…" : "stops" });
    }
    var notes = state.notes.map(function (e) {
      return h("li", {}, [h("span", { class: "seat-dot seat-" + e.seat }), ctx.seatName(e.seat) + ": " + (NOTE_TEXT[e.type] ? NOTE_TEXT[e.type](e) : e.type)]);
    });
    return h("div", { class: "dk-turn seat-" + t.seat }, [
      h("div", { class: "dk-turn-head" }, [
        h("span", { class: "seat-dot seat-" + t.seat }),
        h("strong", { text: ctx.seatName(t.seat) }),
        h("span", { class: "muted", text: " turn " + t.number + " · started at " + t.start }),
        h("span", { class: "dk-total", title: "the turn's running total" }, ["turn total ", h("b", { text: state.total })]),
      ]),
      h("div", { class: "dk-rolls" }, rows),
      status || null,
      notes.length ? h("ul", { class: "dk-notes" }, notes) : null,
    ]);
  }

  /* A ladder per player: 0 at the bottom, 1000 at the top. */
  function ladders(state, ctx) {
    var o = state.options;
    var H = 220, W = 56, top = 12, bottom = 12;
    var y = function (v) { return top + (H - top - bottom) * (1 - Math.max(0, Math.min(1000, v)) / 1000); };
    var barrel = (o.barrel === "points" || o.barrel === "entry_reset" || o.barrel === undefined) ? (o.barrel_threshold || 880) : null;
    var pits = o.pits || [[200, 300], [600, 700]];
    var dump = o.dump_truck === undefined ? 555 : o.dump_truck;
    var cols = [];
    for (var seat = 0; seat < state.n; seat++) {
      var score = state.scores[seat];
      var kids = [h("svg:rect", { class: "dk-rail", x: 22, y: top, width: 12, height: H - top - bottom, rx: 3 })];
      pits.forEach(function (p) {
        kids.push(h("svg:rect", { class: "dk-pit", x: 18, y: y(p[1]), width: 20, height: y(p[0]) - y(p[1]) },
                    [h("svg:title", { text: "pit " + p[0] + "–" + p[1] })]));
      });
      if (barrel) kids.push(h("svg:line", { class: "dk-barrel", x1: 12, x2: 44, y1: y(barrel), y2: y(barrel) },
                              [h("svg:title", { text: "barrel " + barrel })]));
      if (dump) kids.push(h("svg:line", { class: "dk-dump", x1: 14, x2: 42, y1: y(dump), y2: y(dump) },
                            [h("svg:title", { text: "dump truck " + dump })]));
      kids.push(h("svg:line", { class: "dk-goal", x1: 12, x2: 44, y1: y(1000), y2: y(1000) }, [h("svg:title", { text: "1000" })]));
      kids.push(h("svg:circle", { class: "dk-marker seat-" + seat, cx: 28, cy: y(score), r: 6 },
                  [h("svg:title", { text: ctx.seatName(seat) + ": " + score })]));
      var flags = [];
      if (state.onBarrel[seat]) flags.push(h("span", { class: "tag tag-barrel", text: "barrel " + state.attempts[seat] + "/" + (o.barrel_attempts || "∞") }));
      if (!state.opened[seat]) flags.push(h("span", { class: "tag", text: "not opened" }));
      if (state.bolts[seat]) flags.push(h("span", { class: "tag", text: "bolts " + state.bolts[seat] }));
      if (state.falls[seat]) flags.push(h("span", { class: "tag", text: "falls " + state.falls[seat] }));
      if (state.points[seat]) flags.push(h("span", { class: "tag", text: "points " + state.points[seat] }));
      var mover = state.turn && state.turn.seat === seat;
      cols.push(h("div", { class: "dk-ladder" + (mover ? " is-mover" : ""), "data-seat": seat }, [
        h("div", { class: "dk-ladder-name" }, [h("span", { class: "seat-dot seat-" + seat }), h("span", { text: ctx.seatName(seat) })]),
        h("svg:svg", { class: "dk-ladder-svg", viewBox: "0 0 " + W + " " + H, width: W, height: H, role: "img",
                       "aria-label": ctx.seatName(seat) + " at " + score }, kids),
        h("div", { class: "dk-ladder-score", text: score }),
        h("div", { class: "dk-flags" }, flags),
      ]));
    }
    var legend = [h("span", { class: "dk-key dk-key-pit" }), "pits "];
    if (barrel) legend.push(h("span", { class: "dk-key dk-key-barrel" }), "barrel " + barrel + " ");
    if (dump) legend.push(h("span", { class: "dk-key dk-key-dump" }), "dump truck " + dump);
    return h("div", { class: "dk-ladders-box" }, [
      h("div", { class: "dk-ladders" }, cols),
      h("p", { class: "dk-legend muted" }, legend),
    ]);
  }

  Arena.dice1000 = { die: die };
  Arena.registerGame("dice-1000", drawer);
})();
