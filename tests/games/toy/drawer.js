/* Toy dice for the replay viewer: each seat's total, and the turn's last die. */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  Arena.registerGame("toy-dice", {
    initial: function (record) {
      return { totals: new Array(record.seats.length).fill(0), face: null, seat: 0, turn: 0 };
    },
    apply: function (prev, ev) {
      var s = { totals: prev.totals.slice(), face: prev.face, seat: prev.seat, turn: prev.turn };
      if (ev.type === "roll") { s.face = ev.face; s.seat = ev.seat; s.turn = ev.turn; }
      if (ev.type === "match_end") s.totals = ev.scores.slice();
      return s;
    },
    stop: function (ev) { return ev.type === "roll"; },
    draw: function (state, frame, ctx) {
      var rows = state.totals.map(function (total, seat) {
        return h("li", { class: "toy-seat", text: ctx.seatName(seat) + ": " + total });
      });
      return h("div", { class: "toy-board" }, [
        state.face ? Arena.draw.die(state.face) : h("span", { text: "no roll yet" }),
        h("ul", {}, rows),
      ]);
    },
    caption: function (ev, ctx) {
      return ev.type === "roll" ? ctx.seatName(ev.seat) + " rolls " + ev.face : null;
    },
  });
})();
