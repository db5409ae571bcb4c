/* Thousand for the replay viewer: every hand as playing cards, the auction as a table, the
 * prikup, the cards passed, the trick in the middle with its winner, the trump, and the score
 * sheet with bolt and barrel marks. Events and fields: docs/games/thousand.md §17.
 * Cards: Arena.draw.card (pieces.js); styles: drawer.css.
 */
(function () {
  "use strict";
  var Arena = window.Arena;
  var h = Arena.h;

  var SYMBOL = { H: "♥", D: "♦", C: "♣", S: "♠" };
  var SUIT_NAME = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
  var ORDER = "9JQKTA";

  function rankText(r) { return r === "T" ? "10" : r; }

  /* One card, drawn by the shared library (pieces.js). */
  function card(text, opts) { return Arena.draw.card(text, opts); }

  function sortCards(cards) {
    var suits = "HDCS";
    return cards.slice().sort(function (a, b) {
      return suits.indexOf(a[1]) - suits.indexOf(b[1]) || ORDER.indexOf(b[0]) - ORDER.indexOf(a[0]);
    });
  }

  var remove = Arena.draw.take;  // a hand seen face down loses a "?"

  function copy(s) {
    var t = Object.assign({}, s);
    t.hands = s.hands.map(function (x) { return x.slice(); });
    t.auction = s.auction.slice();
    t.given = s.given.slice();
    t.trick = s.trick.slice();
    t.marriages = s.marriages.slice();
    t.sheet = s.sheet;
    t.marks = s.marks;
    t.tricksWon = s.tricksWon.slice();
    t.last = null;
    return t;
  }

  function fresh(n) {
    return {
      deal: 0, redeal: 0, dealer: null, sitter: null, golden: false, hands: [], prikups: [],
      auction: [], declarer: null, contract: null, how: null, dark: false, shown: null,
      prikupIndex: null, given: [], buried: null, rospis: false, trump: null, trick: [],
      lastTrick: null, trickNo: 0, marriages: [], tricksWon: new Array(n).fill(0),
      totals: new Array(n).fill(0), bolts: new Array(n).fill(0),
      barrel: new Array(n).fill(null).map(function () { return [false, 0, 0]; }),
      sheet: [], marks: {}, dealScore: null, matchEnd: null, capped: false, last: null,
    };
  }

  var drawer = {
    initial: function (record) { return fresh(record.seats.length); },

    apply: function (prev, ev) {
      var s = copy(prev);
      var n = s.totals.length;
      if (ev.type === "deal") {
        var keep = { totals: s.totals, bolts: s.bolts, barrel: s.barrel, sheet: s.sheet, marks: s.marks };
        s = fresh(n);
        Object.assign(s, keep);
        s.deal = ev.deal; s.redeal = ev.redeal; s.dealer = ev.dealer; s.sitter = ev.sitter;
        s.golden = ev.golden;
        s.hands = ev.hands.map(function (x) { return x.slice(); });
        s.prikups = ev.prikups.map(function (x) { return x.slice(); });
      } else if (ev.type === "action") {
        var a = ev.action, parts = a.split(" ");
        s.last = { seat: ev.seat, action: a };
        if (s.phaseAuction !== false && (a === "pass" || parts[0] === "bid" || a === "look" || a === "dark")) {
          s.auction.push([ev.seat, a]);
        } else if (parts[0] === "give") {
          remove(s.hands[ev.seat], parts[1]);
          s.hands[+parts[2]] = sortCards(s.hands[+parts[2]].concat([parts[1]]));
          s.given.push([+parts[2], parts[1]]);
        } else if (parts[0] === "bury") {
          remove(s.hands[ev.seat], parts[1]);
          s.buried = parts[1];
        } else if (parts[0] === "raise") {
          s.contract = +parts[1];
        } else if (a === "rospis") {
          s.rospis = true;
        } else if (parts[0] === "play" && a !== "play on") {
          if (s.trick.length === 0) s.lastTrick = null;
          remove(s.hands[ev.seat], parts[1]);
          s.trick.push([ev.seat, parts[1]]);
        }
      } else if (ev.type === "contract") {
        s.declarer = ev.declarer; s.contract = ev.contract; s.how = ev.how; s.dark = ev.dark;
        s.phaseAuction = false;
      } else if (ev.type === "prikup") {
        s.shown = ev.shown; s.prikupIndex = ev.index;
        s.hands[ev.seat] = sortCards(s.hands[ev.seat].concat(ev.cards));
      } else if (ev.type === "marriage") {
        s.marriages.push([ev.seat, ev.suit, ev.points]);
        s.trump = ev.trump;
      } else if (ev.type === "trick") {
        s.lastTrick = { cards: s.trick.slice(), winner: ev.winner, points: ev.points, no: ev.trick };
        s.trick = [];
        s.tricksWon[ev.winner] += 1;
      } else if (ev.type === "deal_score") {
        s.dealScore = ev;
      } else if (ev.type === "totals") {
        s.totals = ev.totals.slice(); s.bolts = ev.bolts.slice(); s.barrel = ev.barrel;
        var row = { deal: ev.deal, declarer: s.declarer, contract: s.contract,
                    outcome: s.dealScore ? s.dealScore.outcome : "", totals: ev.totals.slice(),
                    deltas: s.dealScore ? s.dealScore.seats.map(function (r) { return r.delta; }) : [],
                    marks: s.marks };
        s.sheet = s.sheet.concat([row]);
        s.marks = {};
      } else if (ev.type === "bolt_penalty" || ev.type === "barrel_mount" || ev.type === "barrel_fall" ||
                 ev.type === "dump_truck") {
        var m = Object.assign({}, s.marks);
        m[ev.seat] = (m[ev.seat] || []).concat([ev.type]);
        s.marks = m;
        if (s.dealScore) s.dealScore = Object.assign({}, s.dealScore);
      } else if (ev.type === "capped") {
        s.capped = true;
      } else if (ev.type === "match_end") {
        s.matchEnd = ev; s.totals = ev.scores.slice();
        if (s.dealScore && !s.sheet.some(function (r) { return r.deal === s.dealScore.deal; })) {
          s.sheet = s.sheet.concat([{ deal: s.dealScore.deal, declarer: s.declarer, contract: s.contract,
            outcome: s.dealScore.outcome, totals: ev.scores.slice(),
            deltas: s.dealScore.seats.map(function (r) { return r.delta; }), marks: s.marks, win: ev.winners }]);
        }
      }
      return s;
    },

    stop: function (ev) {
      return ev.type === "deal" || ev.type === "trick" || ev.type === "deal_score" || ev.type === "match_end";
    },

    scores: function (state) { return state.totals; },

    section: function (state) { return state.deal ? "Deal " + state.deal : "Start"; },

    caption: function (ev, ctx, state) {
      var name = ev.seat !== undefined ? ctx.seatName(ev.seat) : "";
      if (ev.type === "deal") {
        return "Deal " + ev.deal + (ev.redeal ? " (redeal " + ev.redeal + ")" : "") + ": " +
          ctx.seatName(ev.dealer) + " deals" + (ev.golden ? " (golden round, ×2)" : "") + ".";
      }
      if (ev.type === "action") {
        var a = ev.action, p = a.split(" ");
        if (a === "pass") return name + " passes.";
        if (p[0] === "bid") return name + " bids " + p[1] + ".";
        if (a === "look") return name + " looks at their cards.";
        if (a === "dark") return name + " bids in the dark.";
        if (p[0] === "prikup") return name + " takes prikup " + p[1] + ".";
        if (p[0] === "give") return name + " passes " + cardText(p[1]) + " to " + ctx.seatName(+p[2]) + ".";
        if (p[0] === "bury") return name + " buries " + cardText(p[1]) + " in the other prikup.";
        if (a === "keep") return name + " keeps the contract at " + state.contract + ".";
        if (p[0] === "raise") return name + " raises the contract to " + p[1] + ".";
        if (a === "rospis") return name + " writes the deal off.";
        if (a === "redeal") return name + " demands a redeal.";
        if (a === "play on") return name + " plays on.";
        if (p[0] === "play") {
          return name + " plays " + cardText(p[1]) + (p[2] ? ", declaring the marriage: trump is now " +
            SUIT_NAME[state.trump] : "") + ".";
        }
        return name + ": " + a;
      }
      if (ev.type === "trick") {
        return ctx.seatName(ev.winner) + " takes trick " + ev.trick + " (" + ev.points + " points).";
      }
      if (ev.type === "deal_score") {
        var d = ctx.seatName(ev.declarer);
        var what = ev.outcome === "rospis" ? " writes off " : ev.outcome === "made" ? " makes " : " fails ";
        return "Deal " + ev.deal + ": " + d + what + ev.contract + ". " + ev.seats.map(function (r) {
          return ctx.seatName(r.seat) + " " + (r.delta >= 0 ? "+" : "") + r.delta;
        }).join(", ") + ".";
      }
      if (ev.type === "match_end") {
        var order = ev.scores.map(function (sc, seat) { return seat; });
        order.sort(function (a, b) { return ev.ranks[a] - ev.ranks[b] || a - b; });
        return (ev.capped ? "The match reached its length cap: " : "The match is over: ") +
          order.map(function (seat) { return ctx.seatName(seat) + " " + ev.scores[seat]; }).join(", ") + ".";
      }
      return null;
    },

    draw: function (state, frame, ctx) {
      var n = ctx.numSeats;
      var kids = [];
      // the contract line: declarer, contract, trump
      var info = [h("span", { class: "th-deal", text: state.deal ? "Deal " + state.deal : "" })];
      if (state.golden) info.push(h("span", { class: "tag th-golden", text: "golden ×2" }));
      if (state.declarer !== null && state.declarer !== undefined) {
        info.push(h("span", { class: "th-contract" }, [
          ctx.seatName(state.declarer) + " plays ", h("b", { text: String(state.contract) }),
          state.how === "forced_100" ? " (forced)" : "", state.dark ? " dark ×2" : "",
          state.rospis ? " — written off" : "",
        ]));
      }
      info.push(h("span", { class: "th-trump" }, ["trump: ", state.trump
        ? h("span", { class: "th-trump-suit " + (state.trump === "H" || state.trump === "D" ? "pcard-red" : "pcard-black"),
                      text: SYMBOL[state.trump] + " " + SUIT_NAME[state.trump] })
        : h("span", { class: "muted", text: "none" })]));
      kids.push(h("div", { class: "th-info" }, info));

      // the seats with their hands
      var seats = [];
      for (var seat = 0; seat < n; seat++) {
        var tags = [];
        if (seat === state.dealer) tags.push(h("span", { class: "tag", text: "dealer" }));
        if (seat === state.sitter) tags.push(h("span", { class: "tag", text: "sits out" }));
        if (seat === state.declarer) tags.push(h("span", { class: "tag th-tag-declarer", text: "declarer" }));
        if (state.barrel[seat] && state.barrel[seat][0]) {
          tags.push(h("span", { class: "tag th-tag-barrel", title: "on the barrel, attempt " + state.barrel[seat][1],
                                 text: "barrel " + state.barrel[seat][1] + "/3" }));
        }
        if (state.bolts[seat]) {
          tags.push(h("span", { class: "th-bolts", title: state.bolts[seat] + " bolt(s)",
                                 text: new Array(state.bolts[seat] + 1).join("|") }));
        }
        state.marriages.forEach(function (m) {
          if (m[0] === seat) tags.push(h("span", { class: "tag th-tag-marriage", text: SYMBOL[m[1]] + " +" + m[2] }));
        });
        var hand = state.hands[seat] || [];
        var moverNow = state.last && state.last.seat === seat;
        seats.push(h("div", { class: "th-seat seat-" + seat + (moverNow ? " is-mover" : ""), "data-seat": seat }, [
          h("div", { class: "th-seat-head" }, [
            h("span", { class: "seat-dot seat-" + seat }),
            h("strong", { text: ctx.seatName(seat) }),
            h("span", { class: "muted", text: state.tricksWon[seat] + " tricks" }),
          ].concat(tags)),
          h("div", { class: "th-hand" }, hand.length ? sortCards(hand).map(function (c) { return card(c); })
                                                     : [h("span", { class: "muted", text: "—" })]),
        ]));
      }
      kids.push(h("div", { class: "th-seats" }, seats));

      // the table: trick in the middle, prikup, passed cards
      var middle = [];
      var shownTrick = state.trick.length ? { cards: state.trick, winner: null } : state.lastTrick;
      if (shownTrick) {
        middle.push(h("div", { class: "th-trick", "aria-label": "the trick" }, shownTrick.cards.map(function (pc) {
          var won = shownTrick.winner === pc[0];
          return h("div", { class: "th-played seat-" + pc[0] + (won ? " th-won" : "") }, [
            card(pc[1], { cls: won ? "th-card-won" : "" }),
            h("span", { class: "th-played-by", text: ctx.seatName(pc[0]) + (won ? " ✔" : "") }),
          ]);
        })));
        if (shownTrick.winner !== null && shownTrick.winner !== undefined) {
          middle.push(h("p", { class: "th-trick-result", text: "Trick " + shownTrick.no + " to " +
            ctx.seatName(shownTrick.winner) + " (+" + shownTrick.points + ")" }));
        }
      }
      var side = [];
      if (state.prikups.length) {
        side.push(h("div", { class: "th-prikup" }, [h("h4", { text: state.prikups.length > 1 ? "Prikups" : "Prikup" })].concat(
          state.prikups.map(function (p, i) {
            var taken = state.prikupIndex === i;
            var note = taken ? (state.shown ? "taken, shown" : "taken, not shown") : (state.prikupIndex !== null && state.prikupIndex !== undefined ? "the other" : "");
            return h("div", { class: "th-prikup-row" + (taken ? " th-taken" : "") },
              p.map(function (c) { return card(c, { cls: "th-small" }); }).concat([h("span", { class: "muted", text: note })]));
          }))));
      }
      if (state.given.length || state.buried) {
        side.push(h("div", { class: "th-given" }, [h("h4", { text: "Passed" })].concat(
          state.given.map(function (g) {
            return h("div", {}, [card(g[1], { cls: "th-small" }), " → " + ctx.seatName(g[0])]);
          }),
          state.buried ? [h("div", {}, [card(state.buried, { cls: "th-small" }), " → the other prikup"])] : [])));
      }
      if (state.auction.length) side.push(auctionTable(state, ctx));
      kids.push(h("div", { class: "th-table" }, [h("div", { class: "th-middle" }, middle), h("div", { class: "th-side" }, side)]));
      if (state.dealScore) kids.push(dealTable(state.dealScore, ctx));
      if (state.sheet.length) kids.push(scoreSheet(state, ctx));
      return h("div", { class: "th" }, kids);
    },
  };

  function cardText(c) { return rankText(c[0]) + SYMBOL[c[1]]; }

  function auctionTable(state, ctx) {
    var n = ctx.numSeats;
    var rows = [], row = new Array(n).fill(""), started = false;
    state.auction.forEach(function (e) {
      if (row[e[0]] !== "") { rows.push(row); row = new Array(n).fill(""); }
      row[e[0]] = e[1].replace("bid ", "");
      started = true;
    });
    if (started) rows.push(row);
    var head = [];
    for (var s = 0; s < n; s++) head.push(h("th", { class: "num", text: ctx.seatName(s) }));
    return h("div", { class: "th-auction" }, [
      h("h4", { text: "Auction" }),
      h("table", { class: "table compact" }, [
        h("thead", {}, [h("tr", {}, head)]),
        h("tbody", {}, rows.map(function (r) {
          return h("tr", {}, r.map(function (x) { return h("td", { class: "num", text: x }); }));
        })),
      ]),
    ]);
  }

  function dealTable(ev, ctx) {
    var rows = ev.seats.map(function (r) {
      return h("tr", {}, [
        h("th", { scope: "row" }, [h("span", { class: "seat-dot seat-" + r.seat }), h("span", { text: ctx.seatName(r.seat) })]),
        h("td", { text: r.role }),
        h("td", { class: "num", text: r.tricks }),
        h("td", { class: "num", text: r.card_points }),
        h("td", { class: "num", text: r.marriage_points }),
        h("td", { class: "num", text: r.score }),
        h("td", { class: "num", text: r.multiplier > 1 ? "×" + r.multiplier : "" }),
        h("td", { text: (r.barrel ? "barrel " : "") + (r.bolt ? "bolt" : "") }),
        h("td", { class: "num", text: (r.delta > 0 ? "+" : "") + r.delta }),
      ]);
    });
    var head = ["Seat", "Role", "Tricks", "Cards", "Marriages", "Score", "", "Marks", "Delta"];
    return h("div", { class: "th-dealscore" }, [
      h("h3", { text: "Deal " + ev.deal + ": contract " + ev.contract + " " + ev.outcome }),
      h("div", { class: "table-wrap" }, [
        h("table", { class: "table compact sticky-first" }, [
          h("thead", {}, [h("tr", {}, head.map(function (x) { return h("th", { text: x }); }))]),
          h("tbody", {}, rows),
        ]),
      ]),
    ]);
  }

  var MARK = { bolt_penalty: "−bolts", barrel_mount: "▣", barrel_fall: "↓", dump_truck: "⛟" };
  var MARK_TITLE = { bolt_penalty: "three bolts", barrel_mount: "mounts the barrel",
                     barrel_fall: "falls off the barrel", dump_truck: "dump truck" };

  function scoreSheet(state, ctx) {
    var n = ctx.numSeats;
    var head = [h("th", { text: "Deal" }), h("th", { text: "Contract" })];
    for (var s = 0; s < n; s++) head.push(h("th", { class: "num", text: ctx.seatName(s) }));
    var rows = state.sheet.slice(-12).map(function (r) {
      var cells = [h("td", { class: "num", text: r.deal }),
                   h("td", { text: (r.declarer !== null && r.declarer !== undefined ? ctx.seatName(r.declarer) + " " : "") +
                                   r.contract + " " + r.outcome })];
      for (var s = 0; s < n; s++) {
        var marks = (r.marks[s] || []).map(function (m) { return h("span", { class: "th-mark", title: MARK_TITLE[m], text: MARK[m] }); });
        cells.push(h("td", { class: "num" }, [h("span", { class: "muted", text: (r.deltas[s] > 0 ? "+" : "") + r.deltas[s] + " " }),
                                              h("b", { text: String(r.totals[s]) })].concat(marks)));
      }
      return h("tr", {}, cells);
    });
    return h("div", { class: "th-sheet" }, [
      h("h3", { text: "Score sheet" + (state.sheet.length > 12 ? " (last 12 deals)" : "") }),
      h("div", { class: "table-wrap" }, [
        h("table", { class: "table compact sticky-first" }, [h("thead", {}, [h("tr", {}, head)]), h("tbody", {}, rows)]),
      ]),
    ]);
  }

  Arena.thousand = { card: card };
  Arena.registerGame("thousand", drawer);
})();
