/* The shared drawing library of the replay viewer: domino tiles, playing cards, dice and score
 * tracks, for every game's drawer (arena/games/<game>/drawer.js). Each function returns a DOM
 * node built with Arena.h; styles are in pieces.css.
 *
 *   Arena.draw.tile(a, b, {vertical, cls})   a domino [a|b], halves left to right (or top down)
 *   Arena.draw.parseTile("3-6")              a tile's text as its halves: [3, 6]
 *   Arena.draw.card("QH", {cls})             a playing card: rank 9 J Q K T A, suit H D C S
 *   Arena.draw.die(face, {cls})              a die showing 1..6
 *   Arena.draw.track(value, max, {marks, cls, label})
 *                                            a horizontal score track with marked points
 *   Arena.draw.take(list, item)             removes item from a hand, or a face-down one
 *
 * An item a seat does not see is written "?" (Arena.draw.HIDDEN, arena.game.HIDDEN): a seat's
 * view of a match (`arena play ... --browser`) holds such items, and a tile or card of that text
 * is drawn face down.
 */
(function () {
  "use strict";
  var Arena = (window.Arena = window.Arena || {});
  var h = Arena.h;
  var draw = (Arena.draw = Arena.draw || {});

  /* Where the pips of 0..6 sit on a 3×3 grid (cells 0..8, row by row). */
  var PIPS = [[], [4], [2, 6], [2, 4, 6], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];



  var HIDDEN = (draw.HIDDEN = "?");

  /* Take `item` out of `list` (a hand): that item, or else one face down (a hand seen from
   * another seat); nothing if neither is there. */
  draw.take = function (list, item) {
    var at = list.indexOf(item);
    if (at < 0) at = list.indexOf(HIDDEN);
    if (at >= 0) list.splice(at, 1);
  };

  /* One tile as SVG: halves a | b, left to right (or top to bottom when vertical); face down
   * when the halves are not numbers (the tile "?"). */
  function tile(a, b, opts) {
    opts = opts || {};
    var vertical = !!opts.vertical;
    var W = vertical ? 20 : 40, H = vertical ? 40 : 20;
    var down = !(a >= 0 && a <= 6 && b >= 0 && b <= 6);
    var cls = "tile" + (vertical ? " tile-v" : " tile-h") + (down ? " tile-down" : "") + (opts.cls ? " " + opts.cls : "");
    if (down) {
      return h("svg:svg", { class: cls, viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "a tile face down",
                            "data-tile": HIDDEN, "data-piece": HIDDEN }, [
        h("svg:title", { text: "a tile face down" }),
        h("svg:rect", { class: "tile-body tile-back", x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 3, ry: 3 }),
      ]);
    }
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
      "data-piece": Math.min(a, b) + "-" + Math.max(a, b),  // what the table page clicks (table.js)
    }, [h("svg:title", { text: label })].concat(kids));
  }

  draw.tile = tile;
  draw.parseTile = function (text) {
    var p = text.split("-");
    return [parseInt(p[0], 10), parseInt(p[1], 10)];
  };

  var SUIT_SYMBOL = { H: "\u2665", D: "\u2666", C: "\u2663", S: "\u2660" };
  var SUIT_NAME = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
  var RANK_NAME = { T: "10" };

  /* A playing card from its text: rank then suit ("QH", "TS"); red suits in red; "?" face down. */
  draw.card = function (text, opts) {
    opts = opts || {};
    if (text === HIDDEN) {
      return h("span", { class: "pcard pcard-down" + (opts.cls ? " " + opts.cls : ""), "data-card": HIDDEN,
                         "data-piece": HIDDEN,
                         title: "a card face down", role: "img", "aria-label": "a card face down" });
    }
    var r = text.charAt(0), s = text.charAt(1);
    var rank = RANK_NAME[r] || r;
    var red = s === "H" || s === "D";
    return h("span", {
      class: "pcard " + (red ? "pcard-red" : "pcard-black") + (opts.cls ? " " + opts.cls : ""),
      "data-card": text, "data-piece": text, title: rank + " of " + SUIT_NAME[s], role: "img",
      "aria-label": rank + " of " + SUIT_NAME[s],
    }, [h("span", { class: "pcard-rank", text: rank }), h("span", { class: "pcard-suit", text: SUIT_SYMBOL[s] })]);
  };
  draw.suitSymbol = function (s) { return SUIT_SYMBOL[s]; };

  /* Where the pips of a die face sit on a 3x3 grid (cells 0..8). */
  var DIE_PIPS = [[], [4], [2, 6], [2, 4, 6], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

  draw.die = function (face, opts) {
    opts = opts || {};
    var kids = [h("svg:title", { text: String(face) }),
                h("svg:rect", { class: "die-body", x: 1, y: 1, width: 28, height: 28, rx: 5, ry: 5 })];
    DIE_PIPS[face].forEach(function (cell) {
      kids.push(h("svg:circle", { class: "die-pip", cx: 7 + (cell % 3) * 8, cy: 7 + Math.floor(cell / 3) * 8, r: 2.6 }));
    });
    return h("svg:svg", { class: "die" + (opts.cls ? " " + opts.cls : ""), viewBox: "0 0 30 30", role: "img",
                          "aria-label": "die showing " + face, "data-face": face }, kids);
  };

  /* A score track from 0 to max: a bar to value, and marks (a target, a span of points) as
   * {at, to (optional: a span), label, cls}. */
  draw.track = function (value, max, opts) {
    opts = opts || {};
    var pct = function (v) { return Math.max(0, Math.min(100, 100 * v / max)) + "%"; };
    var kids = [h("div", { class: "track-bar", style: "width:" + pct(value) })];
    (opts.marks || []).forEach(function (m) {
      var style = "left:" + pct(m.at) + (m.to !== undefined ? ";width:" + pct(m.to - m.at) : "");
      kids.push(h("div", { class: "track-mark" + (m.to !== undefined ? " track-span" : "") + (m.cls ? " " + m.cls : ""),
                           style: style, title: m.label || "" }));
    });
    return h("div", { class: "track" + (opts.cls ? " " + opts.cls : ""), role: "img",
                      "aria-label": (opts.label || "score") + " " + value + " of " + max }, kids);
  };
})();
