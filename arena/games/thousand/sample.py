"""``Thousand.sample_state``: a full state consistent with one seat's observation
(docs/games/thousand.md §16).

The hidden cards are dealt again here: the other hands, a prikup not shown, the cards passed to
the other opponent, the buried card; ``ThousandState.from_observation`` then builds the state from
the observation and those cards.
Hard facts are always kept: the seat's own cards, cards played, a shown prikup (its cards stay
with the declarer unless passed on), a declared marriage's partner card (still with its holder),
the card passed to the seat, voids shown by not following suit or not trumping, and with
``must_overtake`` the higher cards a seat showed it lacks. Soft facts are honoured when random
tries find a deal for them (almost always): a bid above 120 (the bidder held the marriages before
the exchange), a raise above 120 (in the 8-card hand), a seat asked about a redeal (a weak hand).
"""
from __future__ import annotations

import random
from typing import Any

from arena.game import Chance
from arena.games.thousand.actions import BURY_TEXT, GIVE_TEXT, PLAY_ON, REDEAL
from arena.games.thousand.cards import ACES, CARD_OF, DECK, KING, QUEEN, SUIT_OF, SUITS
from arena.games.thousand.phases import OVER
from arena.games.thousand.scoring import max_bid, may_demand_redeal
from arena.games.thousand.state import ThousandState

_GREEDY_TRIES = 12
_BID_TRIES = 30  # random tries for the soft facts before keeping the last one


def _assign(cards: list[int], caps: list[int], allowed: dict[int, list[int]],
            rng: random.Random) -> list[list[int]] | None:
    """Put every card into a bin it may go to, filling each bin exactly (``caps``)."""
    for _ in range(_GREEDY_TRIES):
        left = list(caps)
        bins: list[list[int]] = [[] for _ in caps]
        order = sorted(cards, key=lambda c: (len(allowed[c]), rng.random()))
        for c in order:
            opts = [b for b in allowed[c] if left[b] > 0]
            if not opts:
                break
            pick = rng.choices(opts, weights=[left[b] for b in opts])[0]
            bins[pick].append(c)
            left[pick] -= 1
        else:
            return bins
    # a constructive fallback: a bipartite matching of cards to bin slots (augmenting paths)
    slots = [b for b, k in enumerate(caps) for _ in range(k)]
    owner: list[int | None] = [None] * len(slots)
    order = list(cards)
    rng.shuffle(order)

    def augment(c: int, seen: set[int]) -> bool:
        idx = list(range(len(slots)))
        rng.shuffle(idx)
        for i in idx:
            if slots[i] in allowed[c] and i not in seen:
                seen.add(i)
                held = owner[i]
                if held is None or augment(held, seen):
                    owner[i] = c
                    return True
        return False

    for c in order:
        if not augment(c, set()):
            return None
    bins = [[] for _ in caps]
    for i, held in enumerate(owner):
        assert held is not None  # the caps add up to the cards: every slot is filled
        bins[slots[i]].append(held)
    return bins


def _play_facts(obs: dict[str, Any], overtake: bool) -> tuple[list[tuple[int, int]], list[set[int]]]:
    """The cards played this deal in order, and per seat the cards it cannot hold (voids, and with
    ``must_overtake`` the higher cards it showed it lacks). Replays the play log with the trump."""
    n = obs["num_players"]
    banned: list[set[int]] = [set() for _ in range(n)]
    played: list[tuple[int, int]] = []
    trump = None
    trick: list[tuple[int, int]] = []
    size = 2 if n == 2 else 3
    for seat, text in obs["log"]:
        if not text.startswith("play ") or text == PLAY_ON:
            continue
        parts = text.split()
        c = CARD_OF[parts[1]]
        if len(parts) == 3:  # a declaration: the new trump counts from this lead on
            trump = SUIT_OF[c]
        if trick:
            led = SUIT_OF[trick[0][1]]
            s = SUIT_OF[c]
            if s != led:
                banned[seat].update(range(led * 6, led * 6 + 6))
                if trump is not None and s != trump:
                    banned[seat].update(range(trump * 6, trump * 6 + 6))
            if overtake:
                if s == led and (trump == led or not any(SUIT_OF[x] == trump for _, x in trick)):
                    best = max(x for _, x in trick if SUIT_OF[x] == led)
                    if c < best:
                        banned[seat].update(range(best + 1, led * 6 + 6))
                elif trump is not None and s == trump != led:
                    tr = [x for _, x in trick if SUIT_OF[x] == trump]
                    if tr and c < max(tr):
                        banned[seat].update(range(max(tr) + 1, trump * 6 + 6))
        trick.append((seat, c))
        played.append((seat, c))
        if len(trick) == size:
            trick = []
    return played, banned


def sample_state(options, obs: dict[str, Any], rng: random.Random) -> ThousandState:
    chance = Chance.from_rng(rng)  # later deals come from the bot's own RNG
    n = obs["num_players"]
    me = obs["seat"]
    phase = obs["phase"]
    d = obs["declarer"]
    forced_100 = obs["how"] == "forced_100"
    played, banned = _play_facts(obs, options.must_overtake)
    gone = {c for _, c in played}
    my_hand = [CARD_OF[c] for c in obs["hand"]] if obs["hand"] is not None else None
    sizes = obs["hand_sizes"]
    log = obs["log"]
    taken_known = obs["prikup"] is not None
    taken = [CARD_OF[c] for c in obs["prikup"]] if taken_known else None
    before_take = obs["prikup_index"] is None and phase != OVER or (phase == OVER and d is None)

    # the log's hidden passes: (seat, recipient, card or None)
    gives: list[list[Any]] = []
    bury_known: int | None = None
    bury_seen = False
    for _, text in log:
        if text.startswith("give "):
            _, c, r = text.split()
            gives.append([int(r), None if c == "?" else CARD_OF[c]])
        elif text.startswith("bury "):
            bury_seen = True
            c = text.split()[1]
            bury_known = None if c == "?" else CARD_OF[c]

    # bins: 0..n-1 the hands, then the prikup bins
    fixed: list[list[int]] = [[] for _ in range(n)]
    if my_hand is not None:
        fixed[me] = list(my_hand)
    held_by: dict[int, int] = {}
    for s, suit, value in obs["marriages"]:  # T-9: a declared marriage's partner is still held
        si = SUITS.index(suit)
        for c in (ACES if value == 200 else (si * 6 + KING, si * 6 + QUEEN)):
            if c not in gone:
                held_by[c] = s
    if me == d:
        for r, c in gives:
            if c not in gone:
                held_by[c] = r
    for c, s in held_by.items():
        if s != me and c not in fixed[s]:
            fixed[s].append(c)
    prikup_bins: list[int] = []
    if before_take:
        prikup_bins = [3] * (2 if n == 2 else 1)
    elif n == 2:
        prikup_bins = [4 if bury_seen else 3]
    fixed_prikup: list[int] = []
    if me == d and bury_known is not None:
        fixed_prikup.append(bury_known)
    known = set(gone) | {c for f in fixed for c in f} | set(fixed_prikup)
    pool = [c for c in DECK if c not in known]
    caps = [sizes[s] - len(fixed[s]) if (s != me or my_hand is None) else 0 for s in range(n)]
    caps += [k - (len(fixed_prikup) if i == 0 and not before_take else 0) for i, k in enumerate(prikup_bins)]
    unknown_gives = [r for r, c in gives if c is None]
    allowed: dict[int, list[int]] = {}
    for c in pool:
        if taken is not None and c in taken and not before_take and me != d:
            # a shown prikup card is with the declarer, or was passed on (to a seat whose card
            # this seat did not see, or into the other prikup)
            bins = [d] + [r for r in unknown_gives if r != me]
            if n == 2 and bury_seen:
                bins.append(n)
        else:
            bins = [b for b in range(n) if caps[b] > 0] + [n + i for i in range(len(prikup_bins))]
        allowed[c] = [b for b in bins if b < n and c not in banned[b] and caps[b] > 0
                      or b >= n and caps[b] > 0]

    # soft facts, honoured when random tries find a deal for them: a bid above 120 (the bidder
    # held marriages), a raise above 120, a seat asked about a redeal (it had a weak hand)
    top: dict[int, int] = {}
    raised = 0
    voters = []
    for s, text in log:
        if text.startswith("bid ") and not obs["dark_bids"][s] and s != me:
            top[s] = max(top.get(s, 0), int(text.split()[1]))
        elif text.startswith("raise ") and s != me:
            raised = int(text.split()[1])
        elif (text == PLAY_ON or text == REDEAL) and s != me:
            voters.append(s)
    bidders = [(s, x) for s, x in top.items() if x > 120]
    soft = bool(bidders or raised > 120 or voters)
    cap, aces = options.max_bid_cap, options.ace_marriage

    def draw():
        bins = _assign(pool, caps, allowed, rng)
        if bins is None:  # cannot happen with a consistent observation; keep the seat's own facts
            bins = [[] for _ in caps]
            rest = list(pool)
            for b, k in enumerate(caps):
                bins[b], rest = rest[:k], rest[k:]
        hands = [sorted(fixed[s] + bins[s]) for s in range(n)]
        extra = bins[n:]
        given: list[list[int]] = []
        for r, c in gives:  # the passes this seat did not see
            if c is None:
                if taken_known:
                    shown_there = [x for x in hands[r] if x in taken]
                    c = shown_there[0] if shown_there else None
                if c is None:
                    c = rng.choice(hands[r] + [x for s, x in played if s == r])
            given.append([r, c])
        buried = bury_known
        if bury_seen and buried is None:
            rest4 = extra[0] + fixed_prikup
            shown_there = [x for x in rest4 if taken_known and x in taken]
            buried = shown_there[0] if shown_there else rng.choice(rest4)
        took = taken
        if not before_take and took is None:
            post = hands[d] + [x for s, x in played if s == d] + [c for _, c in given]
            if buried is not None:
                post.append(buried)
            took = sorted(rng.sample(post, 3))
        return hands, extra, given, buried, took

    def plausible(hands, given, buried, took) -> bool:
        after = [hands[s] + [x for p, x in played if p == s] for s in range(n)]  # after the exchange
        for s, x in bidders:
            if before_take:
                first = hands[s]
            elif s == d:
                first = [c for c in after[s] + [c for _, c in given] + ([buried] if buried is not None else [])
                         if c not in took]
            else:
                first = [c for c in after[s] if [s, c] not in given]
            if max_bid(first, cap, aces) < x:
                return False
        if raised > 120 and max_bid(after[d], cap, aces) < raised:
            return False
        return all(may_demand_redeal(after[s], forced_100 and s == d) for s in voters)

    for _ in range(_BID_TRIES if soft else 1):
        hands, extra, given, buried, took = draw()
        if not soft or plausible(hands, given, buried, took):
            break
    if before_take:
        prikups = [sorted(p) for p in extra]
        taken, rest = [], []
    else:
        taken = sorted(took)
        if n == 2:
            rest = sorted(extra[0] + fixed_prikup)
            other = sorted(c for c in rest if c != buried)
            prikups = [taken, other] if obs["prikup_index"] == 0 else [other, taken]
        else:
            rest = []
            prikups = [taken]

    # the log with the hidden texts filled in
    full_log = []
    gi = 0
    for s, text in log:
        if text.startswith("give "):
            r, c = given[gi]
            gi += 1
            full_log.append((s, GIVE_TEXT[c][r]))
        elif text.startswith("bury "):
            full_log.append((s, BURY_TEXT[buried]))
        else:
            full_log.append((s, text))
    return ThousandState.from_observation(options, obs, chance, hands=hands, prikups=prikups,
                                          taken=taken, rest_prikup=rest, given=given,
                                          buried=buried, log=full_log)
