/* Block dominoes for the replay viewer: the chain as domino tiles, every hand, the open ends,
 * the scores and each deal's result. Events: see arena/games/block/state.py; chain orientation:
 * rules/block.md §5 (a play on the left end joins the matching half to the left value, and the
 * tile's other half becomes the new left value; likewise on the right).
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  /* Where the pips of 0..6 sit on a 3×3 grid (cells 0..8, row by row). */
  var PIPS = [[], [4], [2, 6], [2, 4, 6], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

  function parseTile(text) {
    var p = text.split("-");
    return [parseInt(p[0], 10), parseInt(p[1], 10)];
  }

  /* One tile as SVG: halves a | b, left to right (or top to bottom when vertical). */
  function tileSvg(a, b, opts) {
    opts = opts || {};
    var vertical = !!opts.vertical;
    var W = vertical ? 20 : 40, H = vertical ? 40 : 20;
    var cls = "tile" + (vertical ? " tile-v" : " tile-h") + (opts.cls ? " " + opts.cls : "");
    var kids = [
      h("svg:rect", { class: "tile-body", x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 3, ry: 3 }),
      vertical
        ? h("svg:line", { class: "tile-bar", x1: 3, y1: 20, x2: 17, y2: 20 })
        : h("svg:line", { class: "tile-bar", x1: 20, y1: 3, x2: 20, y2: 17 }),
    ];
    [a, b].forEach(function (v, half) {
      var ox = vertical ? 0 : half * 20, oy = vertical ? half * 20 : 0;
      PIPS[v].forEach(function (cell) {
        var r = Math.floor(cell / 3), c = cell % 3;
        // On a vertical tile the grid is turned a quarter so that 2, 3 and 6 read naturally.
        var x = vertical ? 5 + r * 5 : 5 + c * 5, y = vertical ? 5 + c * 5 : 5 + r * 5;
        kids.push(h("svg:circle", { class: "pip", cx: ox + x, cy: oy + y, r: 1.9 }));
      });
    });
    var label = "[" + a + "|" + b + "]";
    return h("svg:svg", {
      class: cls, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": label,
      "data-tile": Math.min(a, b) + "-" + Math.max(a, b),
    }, [h("svg:title", { text: label })].concat(kids));
  }

  function copy(state) {
    return {
      deal: state.deal, leader: state.leader, target: state.target,
      hands: state.hands.map(function (hd) { return hd.slice(); }),
      setAside: state.setAside, chain: state.chain.slice(), ends: state.ends,
      scores: state.scores.slice(), last: null, passes: state.passes.slice(),
      dealEnd: null, matchEnd: null, played: state.played, passedBefore: [],
    };
  }

  var drawer = {
    initial: function (record) {
      var n = record.seats.length;
      return {
        deal: 0, leader: null, target: (record.options || {}).target,
        hands: [], setAside: [], chain: [], ends: null,
        scores: new Array(n).fill(0), last: null, passes: [], dealEnd: null, matchEnd: null,
        played: 0, passedBefore: [],
      };
    },

    apply: function (prev, ev) {
      var s = copy(prev);
      if (ev.type === "deal") {
        s.deal = ev.deal; s.leader = ev.leader;
        s.hands = ev.hands.map(function (hd) { return hd.slice(); });
        s.setAside = ev.set_aside || []; s.chain = []; s.ends = null; s.passes = []; s.played = 0;
      } else if (ev.type === "action") {
        if (ev.action === "pass") {            // a pass asked of the seat (auto_pass off)
          s.last = { seat: ev.seat, index: -1, pass: true };
          s.passes.push(ev.seat);
          return s;
        }
        var parts = ev.action.split(":");
        var tile = parseTile(parts[0]), side = parts[1] || null;
        var hand = s.hands[ev.seat];
        var at = hand.indexOf(parts[0]);
        if (at >= 0) hand.splice(at, 1);
        var a = tile[0], b = tile[1], placed;
        if (!side) {                       // block.md §5: the first tile gives ends (a, b)
          placed = [a, b]; s.chain = [placed]; s.ends = [a, b];
        } else if (side === "L") {
          var left = s.ends[0], newL = a === left ? b : a;
          placed = [newL, left]; s.chain.unshift(placed); s.ends = [newL, s.ends[1]];
        } else {
          var right = s.ends[1], newR = a === right ? b : a;
          placed = [right, newR]; s.chain.push(placed); s.ends = [s.ends[0], newR];
        }
        if (ev.ends) s.ends = ev.ends.slice();   // the record's word wins
        s.last = { seat: ev.seat, side: side, index: side === "L" ? 0 : s.chain.length - 1, tile: parts[0] };
        s.passedBefore = prev.passes.slice();   // automatic passes since the previous play
        s.passes = [];
        s.played += 1;
      } else if (ev.type === "pass") {
        s.passes.push(ev.seat);
      } else if (ev.type === "deal_end") {
        s.dealEnd = ev; s.scores = ev.scores.slice();
        s.hands = ev.hands.map(function (hd) { return hd.slice(); });
        s.last = prev.last; s.passes = prev.passes.slice();
      } else if (ev.type === "match_end") {
        s.matchEnd = ev; s.scores = ev.scores.slice(); s.dealEnd = prev.dealEnd; s.last = prev.last;
      }
      return s;
    },

    stop: function (ev) {
      return ev.type === "deal" || ev.type === "deal_end" || ev.type === "match_end";
    },

    scores: function (state) { return state.scores; },

    section: function (state) { return state.deal ? "Deal " + state.deal : "Start"; },

    caption: function (ev, ctx, state) {
      var name = ev.seat !== undefined ? ctx.seatName(ev.seat) : "";
      if (ev.type === "deal") return "Deal " + ev.deal + " is dealt; " + ctx.seatName(ev.leader) + " leads.";
      if (ev.type === "action") {
        if (ev.action === "pass") return name + " passes.";
        var parts = ev.action.split(":"), t = parseTile(parts[0]);
        var tile = "[" + t[0] + "|" + t[1] + "]";
        var where = !parts[1] ? "leads " + tile : "plays " + tile + " on the " + (parts[1] === "L" ? "left" : "right") + " end";
        var passed = state.passedBefore.map(function (p) { return ctx.seatName(p) + " cannot play and passes. "; }).join("");
        return passed + name + " " + where + "; the open ends are now " + state.ends[0] + " and " + state.ends[1] + ".";
      }
      if (ev.type === "deal_end") return dealResultText(ev, ctx);
      if (ev.type === "match_end") {
        var order = ev.scores.map(function (sc, seat) { return seat; });
        order.sort(function (a, b) { return ev.ranks[a] - ev.ranks[b] || a - b; });
        return "The match is over: " + order.map(function (seat) {
          return ctx.seatName(seat) + " " + ev.scores[seat];
        }).join(", ") + ".";
      }
      return null;
    },

    draw: function (state, frame, ctx) {
      var n = ctx.numSeats;
      var mover = state.last ? state.last.seat : null;
      var decision = frame.decision !== null ? (ctx.record.decisions || [])[frame.decision] : null;
      // Tiles the mover could have played instead (block.md §5 lists them as legal actions).
      var alternatives = {};
      if (decision) decision.legal.forEach(function (a) {
        var t = a.split(":")[0];
        if (a !== decision.action && t !== decision.action.split(":")[0]) alternatives[t] = true;
      });

      // The chain, left to right, doubles across the line.
      var chainKids = [];
      if (state.ends) chainKids.push(h("span", { class: "bk-end bk-end-left", title: "left open end" }, ["◀ ", h("b", { text: state.ends[0] })]));
      state.chain.forEach(function (t, i) {
        var isLast = state.last && state.last.index === i && !state.dealEnd;
        chainKids.push(tileSvg(t[0], t[1], {
          vertical: t[0] === t[1],
          cls: "tile-chain" + (isLast ? " tile-last seat-" + state.last.seat : ""),
        }));
      });
      if (state.ends) chainKids.push(h("span", { class: "bk-end bk-end-right", title: "right open end" }, [h("b", { text: state.ends[1] }), " ▶"]));
      if (!state.chain.length) chainKids.push(h("span", { class: "muted", text: state.deal ? "The chain is empty: " + ctx.seatName(state.leader) + " leads." : "" }));
      var chain = h("div", { class: "bk-chain", "aria-label": "the chain" }, chainKids);

      // Every hand, face up (a replay shows all), with pip totals.
      var seats = [];
      for (var seat = 0; seat < n; seat++) {
        var hand = state.hands[seat] || [];
        var pips = hand.reduce(function (sum, t) { var x = parseTile(t); return sum + x[0] + x[1]; }, 0);
        var tiles = hand.map(function (t) {
          var x = parseTile(t);
          return tileSvg(x[0], x[1], { vertical: true, cls: "tile-hand" + (seat === mover && alternatives[t] ? " tile-alt" : "") });
        });
        var passed = state.passedBefore.indexOf(seat) >= 0 || (state.dealEnd && state.passes.indexOf(seat) >= 0);
        var flags = [];
        if (seat === state.leader) flags.push(h("span", { class: "tag", text: "leader" }));
        if (seat === mover && !state.dealEnd) flags.push(h("span", { class: "tag tag-mover", text: state.last.pass ? "passes" : "just played" }));
        if (passed) flags.push(h("span", { class: "tag tag-pass", text: "passed" }));
        if (state.dealEnd && state.dealEnd.winner === seat) flags.push(h("span", { class: "tag tag-win", text: "wins the deal" }));
        seats.push(h("div", { class: "bk-seat seat-" + seat + (seat === mover && !state.dealEnd ? " is-mover" : ""), "data-seat": seat }, [
          h("div", { class: "bk-seat-head" }, [
            h("span", { class: "seat-dot seat-" + seat }),
            h("strong", { class: "bk-seat-name", text: ctx.seatName(seat) }),
            h("span", { class: "muted", text: hand.length + (hand.length === 1 ? " tile, " : " tiles, ") + pips + " pips" }),
          ].concat(flags)),
          h("div", { class: "bk-hand" }, tiles.length ? tiles : [h("span", { class: "muted", text: "no tiles left" })]),
        ]));
      }

      var kids = [chain, h("div", { class: "bk-seats" }, seats)];
      if (decision && Object.keys(alternatives).length) {
        kids.push(h("p", { class: "bk-legend muted" }, [h("span", { class: "legend-alt" }), "tiles the player could have played instead"]));
      }
      if (state.dealEnd) kids.push(dealResult(state.dealEnd, ctx));
      if (state.setAside && state.setAside.length) {
        kids.push(h("details", { class: "bk-setaside" }, [
          h("summary", { text: "Set aside, out of play this deal (" + state.setAside.length + " tiles)" }),
          h("div", { class: "bk-hand" }, state.setAside.map(function (t) {
            var x = parseTile(t); return tileSvg(x[0], x[1], { vertical: true, cls: "tile-hand tile-dim" });
          })),
        ]));
      }
      return h("div", { class: "bk" }, kids);
    },
  };

  function dealResultText(ev, ctx) {
    var w = ev.winner;
    var pts = w !== null && w !== undefined ? ev.points[w] : 0;
    if (ev.end === "domino") return "Deal " + ev.deal + ": " + ctx.seatName(w) + " dominoes and scores " + pts + ".";
    if (w === null || w === undefined) return "Deal " + ev.deal + " is blocked; a tie for the lowest pips: nobody scores.";
    return "Deal " + ev.deal + " is blocked; " + ctx.seatName(w) + " has the fewest pips and scores " + pts + ".";
  }

  function dealResult(ev, ctx) {
    var rows = ev.remaining.map(function (r, seat) {
      return h("tr", { class: ev.winner === seat ? "is-winner" : null }, [
        h("th", { scope: "row" }, [h("span", { class: "seat-dot seat-" + seat }), h("span", { text: ctx.seatName(seat) })]),
        h("td", { class: "num", text: r }),
        h("td", { class: "num", text: ev.points[seat] ? "+" + ev.points[seat] : "0" }),
        h("td", { class: "num", text: ev.scores[seat] }),
      ]);
    });
    return h("div", { class: "bk-dealend" }, [
      h("h3", { text: "Deal " + ev.deal + ": " + (ev.end === "domino" ? "domino" : "blocked") }),
      h("table", { class: "table compact" }, [
        h("thead", {}, [h("tr", {}, [h("th", { text: "Seat" }), h("th", { class: "num", text: "Pips left" }),
                                     h("th", { class: "num", text: "Points" }), h("th", { class: "num", text: "Score" })])]),
        h("tbody", {}, rows),
      ]),
    ]);
  }

  Arena.block = { tileSvg: tileSvg };
  Arena.registerGame("block", drawer);
})();
