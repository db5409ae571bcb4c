/* Domino Cribbage for the replay viewer: both hands (a replay shows all), the crib, the starter,
 * the tiles of the current count with the count itself, each seat's tiles laid this hand, the
 * show itemised, and a score track per seat (the bar at the score, a mark at the score before the
 * last award, like a cribbage board's back peg) with each score's reason as it happens.
 * Events: docs/games/domino-cribbage.md, "Events (for checkers)". Tiles and tracks: Arena.draw
 * (pieces.js); styles: drawer.css.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  var parseTile = Arena.draw.parseTile;

  function value(text) { var t = parseTile(text); return t[0] + t[1]; }

  /* One upright tile, drawn by the shared library (pieces.js). */
  function tile(text, cls) {
    var t = parseTile(text);
    return Arena.draw.tile(t[0], t[1], { vertical: true, cls: "dc-tile " + (cls || "") });
  }

  var remove = Arena.draw.take;  // a hand seen face down loses a "?"

  var REASONS = { "heels": "heels", "play": "the play", "go": "the go", "last tile": "the last tile",
                  "hand": "the hand", "crib": "the crib" };

  function itemName(item) {
    if (item.kind !== "run") return item.kind;
    return "run of " + (item.length || item.tiles.length);
  }

  function itemText(item) {
    return itemName(item) + (item.tiles ? " (" + item.tiles.join(" ") + ")" : "") + " " + item.points;
  }

  function scoreText(ev) {
    var items = ev.items || [];
    if (ev.reason === "play") {
      return "+" + ev.points + " for " + (items.length === 1 ? itemName(items[0])
        : items.map(function (i) { return itemName(i) + " " + i.points; }).join(" and "));
    }
    var what = REASONS[ev.reason] || ev.reason;
    return "+" + ev.points + " for " + what + (items.length ? ": " + items.map(itemText).join(", ") : "");
  }

  function copy(s) {
    return {
      hand: s.hand, dealer: s.dealer, target: s.target, countsStarter: s.countsStarter,
      hands: s.hands.map(function (x) { return x.slice(); }),
      laid: s.laid.map(function (x) { return x.slice(); }),
      crib: s.crib.slice(), starter: s.starter, count: s.count, seq: s.seq.slice(), seqNo: s.seqNo,
      played: s.played.map(function (x) { return x.slice(); }), saidGo: s.saidGo.slice(),
      scores: s.scores.slice(), back: s.back.slice(), last: null, lastPlay: null, log: s.log.slice(),
      shows: s.shows.slice(), matchEnd: s.matchEnd, capped: s.capped,
    };
  }

  var drawer = {
    initial: function (record) {
      var o = record.options || {};
      return {
        hand: 0, dealer: null, target: o.target || 121,
        countsStarter: o.starter_in_pegging_count !== false,
        hands: [[], []], laid: [[], []], crib: [], starter: null, count: 0, seq: [], seqNo: 0,
        played: [[], []], saidGo: [false, false], scores: [0, 0], back: [0, 0], last: null,
        lastPlay: null, log: [], shows: [], matchEnd: null, capped: null,
      };
    },

    apply: function (prev, ev) {
      var s = copy(prev);
      if (ev.type === "first_dealer") {
        s.dealer = ev.dealer;
      } else if (ev.type === "deal") {
        s.hand = ev.hand; s.dealer = ev.dealer;
        s.hands = ev.hands.map(function (x) { return x.slice(); });
        s.laid = [[], []]; s.crib = []; s.starter = null; s.count = 0; s.seq = []; s.seqNo = 0;
        s.played = [[], []]; s.saidGo = [false, false]; s.shows = [];
      } else if (ev.type === "action") {
        if (ev.action.indexOf("discard ") === 0) {
          ev.action.slice(8).split(" ").forEach(function (t) {
            remove(s.hands[ev.seat], t); s.laid[ev.seat].push(t);
          });
        } else {
          remove(s.hands[ev.seat], ev.action);
          s.played[ev.seat].push({ tile: ev.action, seq: s.seqNo });
          s.seq.push(ev.action);
          s.count = ev.count;
          s.lastPlay = { seat: ev.seat, tile: ev.action };
        }
      } else if (ev.type === "crib") {  // face down in a seat's view: the tiles laid show
        if (ev.tiles.indexOf(Arena.draw.HIDDEN) < 0) s.crib = ev.tiles.slice();
      } else if (ev.type === "starter") {
        s.starter = ev.tile;
        if (s.countsStarter) { s.count = ev.value; s.seq = [ev.tile]; }
      } else if (ev.type === "go") {
        s.saidGo[ev.seat] = true;
        s.lastPlay = prev.lastPlay;
      } else if (ev.type === "reset") {
        s.count = 0; s.seq = []; s.seqNo += 1; s.saidGo = [false, false];
      } else if (ev.type === "score") {
        s.back[ev.seat] = prev.scores[ev.seat];
        s.scores = ev.scores.slice();
        s.last = ev;
        s.lastPlay = ev.reason === "play" ? prev.lastPlay : null;
        s.log.push({ seat: ev.seat, text: scoreText(ev), total: ev.scores[ev.seat], hand: s.hand });
        if (s.log.length > 8) s.log.shift();
        if (ev.reason === "hand" || ev.reason === "crib") s.shows.push(ev);
      } else if (ev.type === "capped") {
        s.capped = ev;
      } else if (ev.type === "match_end") {
        s.matchEnd = ev; s.scores = ev.scores.slice();
      }
      return s;
    },

    stop: function (ev) {
      return ev.type === "deal" || ev.type === "starter" || ev.type === "score" || ev.type === "go" ||
        ev.type === "match_end";
    },

    scores: function (state) { return state.scores; },

    section: function (state) { return state.hand ? "Hand " + state.hand : "Start"; },

    caption: function (ev, ctx, state) {
      var name = ev.seat !== undefined ? ctx.seatName(ev.seat) : "";
      if (ev.type === "deal") {
        return "Hand " + ev.hand + ": " + ctx.seatName(ev.dealer) + " deals; " +
          ctx.seatName(1 - ev.dealer) + " lays two tiles in the crib first.";
      }
      if (ev.type === "action") {
        if (ev.action.indexOf("discard ") === 0) {
          return name + " lays " + ev.action.slice(8) + " in " +
            (ev.seat === state.dealer ? "their own" : ctx.seatName(state.dealer) + "'s") + " crib.";
        }
        return name + " plays " + ev.action + " (" + value(ev.action) + "): the count is " + ev.count + ".";
      }
      if (ev.type === "starter") {
        return "The starter is " + ev.tile + " (" + ev.value + ")" +
          (state.countsStarter ? "; it opens the count at " + ev.value : "") + ".";
      }
      if (ev.type === "go") return name + " cannot play at " + ev.count + ": go.";
      if (ev.type === "score") {
        var what = ev.reason === "hand" ? name + "'s hand scores " + ev.points :
          ev.reason === "crib" ? name + "'s crib scores " + ev.points :
          name + " scores " + scoreText(ev).slice(1);
        return what + " (now " + ev.scores[ev.seat] + ").";
      }
      if (ev.type === "match_end") {
        var winner = ev.ranks.indexOf(1);
        return "The match is over: " + ctx.seatName(winner) + " wins, " + ev.scores[winner] + " to " +
          ev.scores[1 - winner] + (state.capped ? " (the hand limit was reached)." : ".");
      }
      return null;
    },

    draw: function (state, frame, ctx) {
      var kids = [board(state, ctx)];
      var table = h("div", { class: "dc-table" }, [
        h("div", { class: "dc-centre" }, [
          h("div", { class: "dc-box dc-starter-box" }, [
            h("div", { class: "dc-label", text: "Starter" }),
            state.starter ? tile(state.starter, "dc-starter") : h("span", { class: "muted", text: "not turned yet" }),
          ]),
          h("div", { class: "dc-box dc-count-box" }, [
            h("div", { class: "dc-label" }, ["Count ", h("strong", { class: "dc-count", text: state.count })]),
            h("div", { class: "dc-seq" }, state.seq.length ? state.seq.map(function (t, i) {
              var isStarter = state.countsStarter && state.seqNo === 0 && i === 0 && t === state.starter;
              var isLast = state.lastPlay && i === state.seq.length - 1 && t === state.lastPlay.tile;
              return tile(t, (isStarter ? "dc-is-starter" : "") + (isLast ? " tile-last seat-" + state.lastPlay.seat : ""));
            }) : [h("span", { class: "muted", text: state.starter ? "a new count from 0" : "" })]),
          ]),
          h("div", { class: "dc-box dc-crib-box" }, [
            h("div", { class: "dc-label", text: state.dealer !== null ? ctx.seatName(state.dealer) + "'s crib" : "Crib" }),
            h("div", { class: "dc-row" }, cribTiles(state)),
          ]),
        ]),
      ]);
      var seats = [0, 1].map(function (seat) { return seatBox(state, seat, ctx); });
      kids.push(h("div", { class: "dc-seats" }, [seats[0], table, seats[1]]));
      if (state.shows.length) kids.push(showTable(state, ctx));
      if (state.log.length) {
        kids.push(h("ol", { class: "dc-log", "aria-label": "latest scores" }, state.log.slice().reverse().map(function (e, i) {
          return h("li", { class: i === 0 && state.last ? "is-new" : null }, [
            h("span", { class: "seat-dot seat-" + e.seat }),
            h("span", { text: ctx.seatName(e.seat) + " " + e.text + " → " + e.total }),
          ]);
        })));
      }
      return h("div", { class: "dc" }, kids);
    },
  };

  function cribTiles(state) {
    if (state.crib.length) return state.crib.map(function (t) { return tile(t, "dc-crib"); });
    var laid = state.laid[0].concat(state.laid[1]);
    if (!laid.length) return [h("span", { class: "muted", text: "empty" })];
    return laid.map(function (t) { return tile(t, "dc-crib"); });
  }

  function seatBox(state, seat, ctx) {
    var flags = [];
    if (seat === state.dealer) flags.push(h("span", { class: "tag", text: "dealer" }));
    if (state.saidGo[seat]) flags.push(h("span", { class: "tag tag-pass", text: "go" }));
    if (state.last && state.last.seat === seat) flags.push(h("span", { class: "tag tag-win", text: "+" + state.last.points }));
    var played = state.played[seat].map(function (p) {
      return tile(p.tile, p.seq === state.seqNo ? "dc-played" : "dc-played tile-dim");
    });
    return h("div", { class: "dc-seat seat-" + seat, "data-seat": seat }, [
      h("div", { class: "dc-seat-head" }, [
        h("span", { class: "seat-dot seat-" + seat }),
        h("strong", { text: ctx.seatName(seat) }),
      ].concat(flags)),
      h("div", { class: "dc-label", text: "In hand" }),
      h("div", { class: "dc-row dc-hand" }, state.hands[seat].length ? state.hands[seat].map(function (t) { return tile(t); })
        : [h("span", { class: "muted", text: "no tiles" })]),
      h("div", { class: "dc-label", text: "Played this hand" }),
      h("div", { class: "dc-row dc-playedrow" }, played.length ? played : [h("span", { class: "muted", text: "—" })]),
    ]);
  }

  /* The score track: one lane per seat from 0 to the target (pieces.js's track), the bar at the
   * score, a mark where it stood before its last award (the back peg of a cribbage board) and
   * one every 30 points (the board's streets). */
  function board(state, ctx) {
    var target = state.target;
    var lanes = [0, 1].map(function (seat) {
      var marks = [];
      for (var v = 30; v < target; v += 30) marks.push({ at: v, cls: "dc-street", label: String(v) });
      if (state.back[seat] !== state.scores[seat]) {
        marks.push({ at: state.back[seat], cls: "dc-back", label: "before the last score: " + state.back[seat] });
      }
      return h("div", { class: "dc-lane seat-" + seat, "data-seat": seat, "data-score": state.scores[seat] }, [
        h("span", { class: "seat-dot seat-" + seat }),
        h("span", { class: "dc-lane-name", text: ctx.seatName(seat) }),
        Arena.draw.track(state.scores[seat], target, { marks: marks, label: ctx.seatName(seat) }),
        h("strong", { class: "dc-lane-score", text: state.scores[seat] }),
      ]);
    });
    return h("div", { class: "dc-board", "aria-label": "score track to " + target }, lanes.concat([
      h("div", { class: "dc-target muted", text: "first to " + target + " wins" }),
    ]));
  }

  function showTable(state, ctx) {
    var rows = state.shows.map(function (ev) {
      return h("tr", {}, [
        h("th", { scope: "row" }, [h("span", { class: "seat-dot seat-" + ev.seat }),
          h("span", { text: ctx.seatName(ev.seat) + (ev.reason === "crib" ? "'s crib" : "'s hand") })]),
        h("td", {}, [h("div", { class: "dc-row dc-nowrap" }, ev.tiles.map(function (t) { return tile(t, "dc-small"); })
          .concat([h("span", { class: "muted", text: "+" }), tile(ev.starter, "dc-small dc-is-starter")]))]),
        h("td", { class: "dc-items", text: ev.items.length ? ev.items.map(itemText).join(", ") : "nothing" }),
        h("td", { class: "num", text: ev.points }),
      ]);
    });
    return h("div", { class: "dc-show" }, [
      h("h3", { text: "The show of hand " + state.hand }),
      h("table", { class: "table compact" }, [h("tbody", {}, rows)]),
    ]);
  }

  Arena.registerGame("domino-cribbage", drawer);
})();
