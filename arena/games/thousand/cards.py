"""Cards of Thousand and their text (docs/games/thousand.md §1).

A card is an int ``suit * 6 + rank``: suits H D C S (0..3), ranks 9 J Q K T A (0..5) in trick order,
low to high, so within a suit a higher int wins. Text is rank + suit: "9H", "QS", "TD", "AC".
"""
from __future__ import annotations

SUITS = "HDCS"
RANKS = "9JQKTA"
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)
DECK = tuple(range(24))

RANK_POINTS = (0, 2, 3, 4, 10, 11)           # 9 J Q K 10 A: 30 a suit, 120 in the deck
MARRIAGE_VALUE = (100, 80, 60, 40)           # K+Q of H D C S (rule T-1)
ACE_MARRIAGE_VALUE = 200                     # all four aces, option ace_marriage (rule T-26)

CARD_TEXT = tuple(RANKS[c % 6] + SUITS[c // 6] for c in DECK)
CARD_OF = {t: c for c, t in enumerate(CARD_TEXT)}
POINTS = tuple(RANK_POINTS[c % 6] for c in DECK)
SUIT_OF = tuple(c // 6 for c in DECK)
RANK_OF = tuple(c % 6 for c in DECK)
ACES = tuple(s * 6 + ACE for s in range(4))
NINES = tuple(s * 6 + NINE for s in range(4))
KINGS = tuple(s * 6 + KING for s in range(4))
QUEENS = tuple(s * 6 + QUEEN for s in range(4))


PARTNER = tuple(c - 1 if c % 6 == KING else c + 1 if c % 6 == QUEEN else None for c in DECK)


def card(text: str) -> int:
    """The card of a text such as "QH" (also accepts "10H" and suit symbols)."""
    t = text.strip().upper().replace("10", "T")
    t = t.replace("♥", "H").replace("♦", "D").replace("♣", "C").replace("♠", "S")
    try:
        return CARD_OF[t]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def cards(text: str) -> list[int]:
    """Cards from a space-separated text: "KH QH AS"."""
    return [card(t) for t in text.split()]


def partner(c: int) -> int | None:
    """The other half of a marriage for a K or Q, else None."""
    r = c % 6
    if r == KING:
        return c - 1
    if r == QUEEN:
        return c + 1
    return None


def card_points(hand) -> int:
    return sum(POINTS[c] for c in hand)


def marriages_in(hand) -> list[int]:
    """The suits whose K and Q are both in ``hand``."""
    s = set(hand)
    return [suit for suit in range(4) if suit * 6 + KING in s and suit * 6 + QUEEN in s]


def has_four_aces(hand) -> bool:
    s = set(hand)
    return all(a in s for a in ACES)
