"""Thousand: the rules of thumb a simulation needs, and the bids worth searching.

Thousand is where a plain search goes most wrong, for four reasons, each met here:

- **Random play is absurd.** A random auction bids up to the cap, a random declarer gives its
  aces away and throws its marriages. The rollouts (``rollout_action``) play instead by the
  simplest sound rules: the auction by what the hand is worth (``hand_worth``), the exchange by
  parting with the cheapest cards, the cards by declaring a marriage when leading, leading
  high, winning a trick as cheaply as possible and otherwise throwing the cheapest card; a
  king or queen whose partner is still in hand is kept while another card will do. Nobody
  raises, asks for a redeal or gives up in a rollout: those are decided in the tree.
- **The others' bids rest on their hands.** The tree's statistics are shared by every sampled
  world, so by every hand another seat might hold: searched there, the others would bid as an
  average hand bids, that is hardly ever, and every deal the bot passed would look like a deal
  someone is forced to play at 100 and fails. So the other seats bid by ``hand_worth`` in the
  tree too (``search.Search``, through ``others_by_policy``), and a strong hand bids, as at a
  real table.
- **Penalties come in instalments.** Three bolts cost 120 points, three deals on the barrel
  without a win cost a fall; a deal's score shows the cost only on the third. So the search
  counts each instalment as it falls due (``standing``): a bolt costs a third of the bolt
  penalty, a deal on the barrel a third of the fall, and the third one what is left.
- **Most bids are not worth a look.** An auction offers up to 40 bids, and a few hundred
  iterations spread over them learn nothing. The contract can be raised once the prikup is
  taken, so in the auction the bot searches passing, the lowest bid, and, from the barrel, the
  lowest bid that can win from there (``own_choices``).

Cards are numbered as in the engine: suit * 6 + rank, suits hearts, diamonds, clubs, spades,
ranks 9 J Q K 10 A (docs/games/thousand.md).
"""
from __future__ import annotations

import random

RANK = {r: i for i, r in enumerate("9JQKTA")}  # trick order, low to high
SUIT = {s: i for i, s in enumerate("HDCS")}
POINTS = (0, 2, 3, 4, 10, 11)                   # card points by rank
MARRIAGE = (100, 80, 60, 40)                    # K+Q of hearts, diamonds, clubs, spades
QUIET = ("keep", "play on", "look")             # in this order of preference
RANDOM_SHARE = 0.1  # of rollout card plays made at random, so that rollouts differ


def card(text: str) -> int:
    """The engine's number of a card ("QH" -> 2)."""
    return SUIT[text[1]] * 6 + RANK[text[0]]


def hand_worth(hand: list[int]) -> float:
    """What a hand should make as declarer, by rule of thumb: an ace about 19 with its suit's
    tricks, a ten beside its ace 16 more, most of a marriage, 18 for the prikup; a fifth less
    with no marriage (no trump of one's own: every ace can be trumped)."""
    worth, married = 18.0, False
    for suit in range(4):
        base = suit * 6
        if base + 5 in hand:
            worth += 19 + (16 if base + 4 in hand else 0)
        if base + 3 in hand and base + 2 in hand:
            worth += 0.9 * MARRIAGE[suit] + 7
            married = True
    return worth if married else 0.8 * worth


def standing(state) -> tuple[float, ...]:
    """Per seat: its total less the share of its coming bolt penalty and barrel fall it has
    already earned (its bolts, its deals on the barrel)."""
    o, carry = state.options, state.carry
    return tuple(total - o.bolt_penalty * bolts / o.bolts_per_penalty
                 - (o.barrel_fall_penalty * attempts / o.barrel_attempts if on else 0)
                 for total, bolts, attempts, on in zip(carry.totals, carry.bolts, carry.attempts,
                                                       carry.on_barrel))


def others_by_policy(state) -> bool:
    """Whether the other seats choose by ``rollout_action`` in the tree here: in the auction."""
    return state.phase == "auction"


def own_choices(state, legal: list[str]) -> list[str]:
    """The actions the search tries for its own seat: in the auction pass, the lowest bid and,
    on the barrel, the lowest that wins from there; elsewhere every legal action."""
    if state.phase != "auction" or len(legal) < 4 or legal[0] != "pass":
        return legal
    keep = legal[:2]
    if state.carry.on_barrel[state.current_player()]:
        least = state.options.barrel_min_contract
        winning = [a for a in legal[2:] if int(a[4:]) >= least]
        if winning and int(legal[1][4:]) < least:
            keep.append(winning[0])
    return keep


def rollout_action(state, legal: list[str], rng: random.Random) -> str:
    if state.phase == "auction":
        return _bid(state, legal)
    for quiet in QUIET:
        if quiet in legal:
            return quiet
    first = legal[0]
    if first.startswith("play "):
        if rng.random() < RANDOM_SHARE:
            return rng.choice(legal)
        return _play(state, legal)
    if first.startswith(("give ", "bury ")):
        return min((a for a in legal if a != "rospis"), key=lambda a: _cost(state, card(a.split()[1])))
    return rng.choice(legal)  # a prikup to take (2 players)


def _bid(state, legal: list[str]) -> str:
    """The lowest bid while the hand is worth it, else pass ("look" before the hand is seen)."""
    if len(legal) > 1 and legal[1].startswith("bid ") and \
            int(legal[1][4:]) <= hand_worth(state.hands[state.current_player()]):
        return legal[1]
    return legal[0]


def _marriage_half(c: int, hand: list[int]) -> bool:
    """A king or queen whose partner is still in ``hand``."""
    r = c % 6
    return (r == 2 and c + 1 in hand) or (r == 3 and c - 1 in hand)


def _cost(state, c: int) -> tuple:
    """How dear card ``c`` is to part with: a marriage half most, then by points and rank."""
    return _marriage_half(c, state.hands[state.current_player()]), POINTS[c % 6], c % 6


def _play(state, legal: list[str]) -> str:
    """A card to play ("play QH", "play KH marriage"). Reads the engine's trick (``state.trick``:
    (seat, card)) and trump (``state.trump``)."""
    marriages = [a for a in legal if a.endswith("marriage")]
    if marriages:  # the hearts marriage is worth most, then diamonds, clubs, spades
        return min(marriages, key=lambda a: SUIT[a[6]])
    cards = [(card(a[5:7]), a) for a in legal]
    trick = state.trick
    if not trick:
        return max(cards, key=lambda x: x[0] % 6)[1]  # lead an ace or a ten
    trump = state.trump
    best = trick[0][1]
    for _, c in trick[1:]:
        if c // 6 == best // 6:
            if c > best:
                best = c
        elif c // 6 == trump:
            best = c
    winners = [x for x in cards if (x[0] // 6 == best // 6 and x[0] > best)
               or (x[0] // 6 == trump and best // 6 != trump)]
    if winners:  # the cheapest card that wins
        return min(winners, key=lambda x: (_cost(state, x[0])[0], x[0] % 6))[1]
    return min(cards, key=lambda x: _cost(state, x[0]))[1]  # lose the fewest points
