/* Every OpenSpiel game (openspiel:NAME) for the replay viewer: OpenSpiel's own text of the state
 * after each step (the "board" of each chance and action event), the step, and the returns at the
 * end; in a match of several hands, the hand and the returns of the hands played so far. Registered for the family "openspiel:", so that one drawer draws every game of it; a game
 * may register a drawer of its own under its full name later. A seat's page at the table (arena
 * play ... --browser) gets no board in a game of hidden information: it shows the steps only. */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  function stepText(ev, ctx) {
    if (ev.type === "chance") return "chance: " + (ev.outcome === Arena.draw.HIDDEN ? "(not seen)" : ev.outcome);
    if (ev.type === "action") return ctx.seatName(ev.seat) + ": " + ev.action;
    if (ev.type === "hand_end") return "hand " + (ev.hand + 1) + " ends: " + ev.returns.join(", ");
    if (ev.type === "capped") return "capped after " + ev.moves + " moves";
    if (ev.type === "match_end") return "returns: " + ev.returns.join(", ");
    return null;
  }

  Arena.registerGame("openspiel:", {
    initial: function (record) {
      return { board: null, step: null, returns: null, moves: 0, seats: record.seats.length,
               hand: 0, totals: null };
    },
    apply: function (prev, ev) {
      var s = { board: prev.board, step: prev.step, returns: prev.returns, moves: prev.moves, seats: prev.seats,
                hand: prev.hand, totals: prev.totals };
      if (ev.type === "chance" || ev.type === "action") {
        s.board = ev.board;
        s.step = ev;
        if (ev.type === "action") s.moves += 1;
      }
      if (ev.type === "hand_end") {
        s.totals = ev.returns.map(function (r, seat) { return r + (prev.totals ? prev.totals[seat] : 0); });
        s.step = ev;
      }
      // the next hand starts with its first step, a chance outcome or (a game without chance) a move
      if (s.step !== prev.step && prev.step && prev.step.type === "hand_end") s.hand = prev.hand + 1;
      if (ev.type === "match_end") s.returns = ev.returns;
      return s;
    },
    stop: function (ev) { return ev.type === "action" || ev.type === "hand_end" || ev.type === "match_end"; },
    draw: function (state, frame, ctx) {
      var hidden = state.board === Arena.draw.HIDDEN;
      var hands = (ctx.record.options || {}).hands || 1;
      var returns = state.returns || state.totals;
      var children = [
        h("div", { class: "os-head" }, [
          h("span", { class: "os-game", text: ctx.record.game.slice("openspiel:".length) }),
          hands > 1 ? h("span", { class: "os-hand", text: "hand " + (state.hand + 1) + " of " + hands }) : null,
          h("span", { class: "os-moves", text: state.moves + " moves" }),
        ]),
        h("pre", { class: "os-board", "data-hidden": hidden ? "true" : null,
                   text: state.board === null ? "(the start)" :
                         hidden ? "(the whole state is not shown at a seat of a game of hidden information)" :
                         state.board }),
      ];
      if (returns) {
        children.push(h("ol", { class: "os-returns", start: 0 }, returns.map(function (r, seat) {
          return h("li", { text: ctx.seatName(seat) + ": " + r });
        })));
      }
      return h("div", { class: "os" }, children);
    },
    scores: function (state) { return state.returns || state.totals || new Array(state.seats).fill(0); },
    caption: stepText,
  });
})();
