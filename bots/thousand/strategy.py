"""A heuristic Thousand player (docs/games/thousand.md): it bids from the strength of its hand and
its marriages, passes its cheapest cards, keeps aces, tens and marriages, declares a marriage
whenever it leads, takes tricks that carry points cheaply and throws low cards otherwise.

``Strategy(boldness)``: boldness scales the hand estimate used for bidding and raising (1.0 is
the default player; the README's `thousand_bold` entrant runs 1.15). Standard library only.
"""
from __future__ import annotations

RANKS = "9JQKTA"
SUITS = "HDCS"
POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
MARRIAGE = {"H": 100, "D": 80, "C": 60, "S": 40}


def rank(c: str) -> int:
    return RANKS.index(c[0])


def pts(c: str) -> int:
    return POINTS[c[0]]


def marriages(hand) -> list[str]:
    s = set(hand)
    return [u for u in SUITS if "K" + u in s and "Q" + u in s]


def ceiling(hand) -> int:
    return min(300, 120 + sum(MARRIAGE[u] for u in marriages(hand)))


def estimate(hand, players: int) -> float:
    """Points this hand should take as declarer (after the prikup and the exchange)."""
    hand = list(hand)
    by_suit = {u: [c for c in hand if c[1] == u] for u in SUITS}
    est = 0.0
    for u, cs in by_suit.items():
        ranks = {c[0] for c in cs}
        if "A" in ranks:
            est += 11 + 8
            if "T" in ranks:
                est += 10 + 6
        elif "T" in ranks:
            est += 4 if len(cs) >= 3 else 1
        if "K" in ranks and "Q" in ranks:
            est += MARRIAGE[u] * 0.9 + 7
        est += 2 * max(0, len(cs) - 3)  # long suits take late tricks
    if not marriages(hand):
        est *= 0.8  # no trump of one's own: every ace can be trumped
    return est + (18 if players != 2 else 22)  # the prikup's expected worth


class Strategy:
    def __init__(self, boldness: float = 1.0) -> None:
        self.boldness = boldness

    # ----- the entry point ------------------------------------------------------------------
    def choose(self, obs: dict, legal: list[str]) -> str:
        first = legal[0]
        if first in ("look", "dark") or "look" in legal:
            return "look"
        if first.startswith("prikup"):
            return legal[0]
        if first == "pass" or first.startswith("bid "):
            return self.bid(obs, legal)
        if first.startswith("give ") or first == "rospis":
            return self.give(obs, legal)
        if first.startswith("bury "):
            return self.bury(obs, legal)
        if first == "keep" or first.startswith("raise "):
            return self.raise_(obs, legal)
        if first in ("play on", "redeal"):
            return self.redeal(obs, legal)
        return self.play(obs, legal)

    # ----- auction --------------------------------------------------------------------------
    def bid(self, obs: dict, legal: list[str]) -> str:
        hand = obs["hand"] or []
        n = obs["num_players"]
        seat = obs["seat"]
        est = estimate(hand, n) * self.boldness
        on_barrel = obs["barrel"][seat][0]
        bids = [int(a.split()[1]) for a in legal if a.startswith("bid ")]
        if not bids:
            return legal[0]
        target = min(est, ceiling(hand))
        if on_barrel:  # only a contract of at least 125 counts there; otherwise let others play
            good = [b for b in bids if 125 <= b <= target + 10]
            return f"bid {good[0]}" if good else "pass"
        ok = [b for b in bids if b <= target]
        if not ok:
            return "pass"
        return f"bid {ok[0]}"

    # ----- exchange ---------------------------------------------------------------------------
    def _keep_value(self, hand, c: str) -> float:
        """How much a card is worth keeping (low = pass it on)."""
        u = c[1]
        same = [x for x in hand if x[1] == u]
        v = pts(c) + rank(c)
        if c[0] in "KQ" and u in marriages(hand):
            v += MARRIAGE[u]
        if c[0] == "A":
            v += 30
        if c[0] == "T" and "A" + u in hand:
            v += 20
        v += 2 * len(same)  # keep long suits, make short ones void
        return v

    def give(self, obs: dict, legal: list[str]) -> str:
        hand = obs["hand"]
        n = obs["num_players"]
        if "rospis" in legal and obs["contract"] > estimate(hand, n) * 1.0 + 45:
            return "rospis"
        gives = [a for a in legal if a.startswith("give ")]
        return min(gives, key=lambda a: (self._keep_value(hand, a.split()[1]), a))

    def bury(self, obs: dict, legal: list[str]) -> str:
        hand = obs["hand"]
        return min(legal, key=lambda a: (pts(a.split()[1]) * 3 + self._keep_value(hand, a.split()[1]), a))

    def raise_(self, obs: dict, legal: list[str]) -> str:
        hand = obs["hand"]
        est = (estimate(hand, obs["num_players"]) - 18) * self.boldness
        raises = [int(a.split()[1]) for a in legal if a.startswith("raise ")]
        ok = [r for r in raises if r <= est - 10]
        return f"raise {ok[-1]}" if ok else "keep"

    def redeal(self, obs: dict, legal: list[str]) -> str:
        if obs["declarer"] == obs["seat"] and estimate(obs["hand"], obs["num_players"]) - 18 < obs["contract"]:
            return "redeal"
        return "play on"

    # ----- play -------------------------------------------------------------------------------
    def play(self, obs: dict, legal: list[str]) -> str:
        hand = obs["hand"]
        trump = obs["trump"]
        seen = {c for t in obs["tricks"] for c in t[1]} | {c for _, c in obs["trick"]}
        trick = obs["trick"]
        cards = [a.split()[1] for a in legal]
        declares = [a for a in legal if a.endswith(" marriage")]
        if declares:  # declare the richest marriage, leading its queen
            best = max(declares, key=lambda a: (MARRIAGE.get(a.split()[1][1], 0) if a.split()[1][0] != "A" else 200,
                                                a.split()[1][0] == "Q"))
            return best
        mine = set(hand)

        def top_left(c: str) -> bool:
            """No higher card of its suit is still out (unseen and not mine)."""
            u = c[1]
            return all(RANKS[r] + u in seen or RANKS[r] + u in mine for r in range(rank(c) + 1, 6))

        def lowest(options):
            held = marriages(hand)
            return min(options, key=lambda c: (c[0] in "KQ" and c[1] in held, pts(c), rank(c), c))

        if not trick:
            # lead: a sure winner (trumps first), else the lowest of the longest side suit
            sure = [c for c in cards if top_left(c)]
            trumps = [c for c in sure if c[1] == trump]
            if trumps:
                return "play " + max(trumps, key=rank)
            if sure:
                return "play " + max(sure, key=lambda c: (pts(c), rank(c)))
            return "play " + lowest(cards)
        led = trick[0][1][1]
        best = trick[0][1]
        for _, c in trick[1:]:
            if c[1] == best[1] and rank(c) > rank(best):
                best = c
            elif c[1] == trump and best[1] != trump:
                best = c

        def beats(c: str) -> bool:
            if c[1] == best[1]:
                return rank(c) > rank(best)
            return c[1] == trump and best[1] != trump

        winners = [c for c in cards if beats(c)]
        last = len(trick) == (1 if obs["num_players"] == 2 else 2)
        at_stake = sum(pts(c) for _, c in trick)
        if winners:
            if last:
                return "play " + min(winners, key=lambda c: (pts(c), rank(c)))
            safe = [c for c in winners if top_left(c) and (c[1] == trump or led != trump)]
            if safe:
                return "play " + min(safe, key=lambda c: (rank(c), pts(c)))
            if at_stake >= 10 and obs["num_players"] != 2:
                return "play " + max(winners, key=rank)
        return "play " + lowest(cards)


_DEFAULT = Strategy()


def choose(obs: dict, legal: list[str]) -> str:
    return _DEFAULT.choose(obs, legal)
