/* Block dominoes for the replay viewer: the chain as domino tiles, every hand, the open ends,
 * the scores and each deal's result. Events: docs/games/block.md; tiles: Arena.draw.tile
 * (pieces.js); styles: drawer.css.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  var parseTile = Arena.draw.parseTile;
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
        Arena.draw.take(s.hands[ev.seat], parts[0]);  // a hand seen face down loses a "?"
        // The record says where the ends went (the engine applies the chain rule, written
        // once, in arena/games/block/state.py): the tile sits between the old and the new end.
        var placed;
        if (!side) {
          placed = [tile[0], tile[1]]; s.chain = [placed];
        } else if (side === "L") {
          placed = [ev.ends[0], prev.ends[0]]; s.chain.unshift(placed);
        } else {
          placed = [prev.ends[1], ev.ends[1]]; s.chain.push(placed);
        }
        s.ends = ev.ends.slice();
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
        chainKids.push(Arena.draw.tile(t[0], t[1], {
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
        var pips = hand.indexOf(Arena.draw.HIDDEN) >= 0 ? null  // a hand face down: its pips unknown
          : hand.reduce(function (sum, t) { var x = parseTile(t); return sum + x[0] + x[1]; }, 0);
        var tiles = hand.map(function (t) {
          var x = parseTile(t);
          return Arena.draw.tile(x[0], x[1], { vertical: true, cls: "tile-hand" + (seat === mover && alternatives[t] ? " tile-alt" : "") });
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
            h("span", { class: "muted", text: hand.length + (hand.length === 1 ? " tile" : " tiles") + (pips === null ? "" : ", " + pips + " pips") }),
          ].concat(flags)),
          h("div", { class: "bk-hand" }, tiles.length ? tiles : [h("span", { class: "muted", text: "no tiles left" })]),
        ]));
      }

      var kids = [chain, h("div", { class: "bk-seats" }, seats)];
      if (decision && Object.keys(alternatives).length) {
        kids.push(h("p", { class: "bk-legend muted" }, [h("span", { class: "legend-alt" }), "tiles the player could have played instead"]));
      }
      if (state.dealEnd) kids.push(dealResult(state.dealEnd, ctx));
      if (state.setAside && state.setAside.length && state.setAside[0] !== Arena.draw.HIDDEN) {
        kids.push(h("details", { class: "bk-setaside" }, [
          h("summary", { text: "Set aside, out of play this deal (" + state.setAside.length + " tiles)" }),
          h("div", { class: "bk-hand" }, state.setAside.map(function (t) {
            var x = parseTile(t); return Arena.draw.tile(x[0], x[1], { vertical: true, cls: "tile-hand tile-dim" });
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

  Arena.registerGame("block", drawer);
})();
