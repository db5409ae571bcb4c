"""What every page of the report shares: one order of the bots, their links and colours, the
rows of a match list, its pages. The pages' own view models are built from it
(``reports.index_page``, ``reports.h2h_page``, ``reports.bot_page``; ``reports.model`` puts them
together). Links are relative to the site's root; templates prefix them with the page's ``root``
("" or "../") so the site works from ``file://``.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from arena.record import outcome
from reports.colours import bot_colour, colour_places
from reports.data import MatchInfo, Standing, TournamentData
from reports.text import ms_text, slug, thousands
from reports.views import BotRef, MatchRow, PageLink, Pager, SeatCell
from tournaments.ratings import Pair

MATCHES_PER_PAGE = 500  # rows per match-list page: ~150 kB of HTML


class Site:
    """The order, links and rows every page of one ``TournamentData`` shares."""

    def __init__(self, data: TournamentData) -> None:
        self.data = data
        # One order for every page: the format's own ranking when it has one (an adaptive run's
        # settled ranking, a Swiss system's standings), else TrueSkill's μ − 3σ (the standings').
        self.settled_order = [] if data.summary is None else list(data.summary.ranking_ids())
        first = self.settled_order or [s.entrant for s in data.standings]
        self.order = {e: i for i, e in enumerate(first)}
        for s in data.standings:  # a bot rated but outside the format's ranking: after it
            self.order.setdefault(s.entrant, len(self.order))
        known = {e.id for e in data.entrants}
        # Entrants without a standing (none played yet) come last, by name.
        rest = sorted((e for e in data.entrants if e.id not in self.order), key=lambda e: (e.name, e.id))
        for e in rest:
            self.order[e.id] = len(self.order)
        self.entrants = {e.id: e for e in data.entrants}
        places = colour_places(known)
        self.bots: dict[int, BotRef] = {
            e.id: BotRef(e.id, e.name, f"bots/{e.id}-{slug(e.name)}.html",
                         bot_colour(e.colour if e.colour >= 0 else places[e.id]))
            for e in data.entrants
        }
        self.ranked = sorted(known, key=lambda i: self.order[i])
        # the head-to-head table's bots: those in play (a withdrawn or suspended bot has no row)
        self.in_play = [e for e in self.ranked if self.entrants[e].state == "current"]
        self.standing = {s.entrant: s for s in data.standings}
        self.played = [m for m in data.matches if m.played]
        self.rated = [m for m in self.played if m.current]  # among the current versions
        self.two_player = data.num_players == 2

    # -- links ------------------------------------------------------------------------------------
    def bot(self, entrant: int) -> BotRef:
        ref = self.bots.get(entrant)
        if ref is None:  # a seat whose entrant is unknown: still show something
            ref = BotRef(entrant, f"entrant {entrant}", f"bots/{entrant}-bot.html", "#7f7f7f")
            self.bots[entrant] = ref
        return ref

    @property
    def per_page(self) -> int:
        return MATCHES_PER_PAGE

    @staticmethod
    def match_href(match_id: int) -> str:
        return f"replay.html?match={match_id}"

    @staticmethod
    def list_href(page: int) -> str:
        return f"matches/list-{page}.html"

    def bot_list_href(self, entrant: int, page: int) -> str:
        base = self.bot(entrant).href
        return base if page == 1 else base[: -len(".html")] + f"-matches-{page}.html"

    def game_title(self) -> str:
        try:
            from arena.games import GAMES
            return GAMES[self.data.game].title
        except KeyError:  # a store from a game this install does not know
            return self.data.game

    # -- rows -------------------------------------------------------------------------------------
    def match_row(self, m: MatchInfo) -> MatchRow:
        seats = []
        for seat, eid in enumerate(m.seats):
            status = m.statuses[seat] if seat < len(m.statuses) else ""
            seats.append(SeatCell(
                bot=self.bot(eid),
                score=str(m.scores[seat]) if seat < len(m.scores) else "",
                rank=m.ranks[seat] if seat < len(m.ranks) else None,
                status=status, ok=status in ("ok", ""),
            ))
        return MatchRow(
            id=m.id, number=m.number, href=self.match_href(m.id), seats=seats,
            played=m.played, failed=m.failed, duration=ms_text(m.duration_ms) if m.played else "",
            outcome=self.outcome(m),
        )

    def outcome(self, m: MatchInfo) -> str:
        """"heavy won", "draw", or "heavy won (flaky failed: crash)"."""
        if not m.played:
            return "not played" if m.status in ("", "pending") else m.status
        return outcome(m.ranks, [self.bot(e).name for e in m.seats], m.statuses)

    def standings_in_order(self) -> list[Standing]:
        return sorted(self.data.standings, key=lambda s: self.order[s.entrant])

    def reference_line(self, entrant: int) -> str:
        """What a reference entrant's line in the leaderboard says: which entrants rank above it
        (the other references are bars, not entrants)."""
        refs = self.data.references
        field = [s.entrant for s in self.standings_in_order() if s.entrant not in refs]
        above = [e for e in field if self.order[e] < self.order[entrant]]
        name = self.bot(entrant).name
        if not above:
            return f"Reference {name}: no entrant ranks above it ({len(field)} below)"
        names = ", ".join(self.bot(e).name for e in above)
        return f"Above {name}: {len(above)} of {len(field)} entrants ({names})"

    def pair_value(self, p: Pair) -> float:
        """0..1 for a head-to-head colour: the score rate (2 players) or the finishing place
        scaled (N)."""
        if self.two_player:
            return p.score_rate
        n = self.data.num_players
        return (n - p.places / p.matches) / (n - 1)

    # -- pages of matches -------------------------------------------------------------------------
    def pages_for(self, count: int) -> int:
        return max(1, math.ceil(count / self.per_page))

    def list_pages(self) -> int:
        return self.pages_for(len(self.data.matches))

    def page_label(self, page: int, total: int) -> str:
        first = (page - 1) * self.per_page + 1
        last = min(total, page * self.per_page)
        return f"{thousands(first)}–{thousands(last)}" if total else "none yet"

    def pager(self, page: int, count: int, href: Callable[[int], str]) -> Pager:
        pages = self.pages_for(count)
        links = [PageLink(self.page_label(i, count), href(i), i == page) for i in range(1, pages + 1)]
        first = (page - 1) * self.per_page + 1
        last = min(count, page * self.per_page)
        summary = (f"matches {thousands(first)}–{thousands(last)} of {thousands(count)}"
                   if count else "no matches yet")
        return Pager(links, href(page - 1) if page > 1 else None,
                     href(page + 1) if page < pages else None, summary)

    def page_of(self, matches: list[MatchInfo], page: int) -> list[MatchRow]:
        """The rows of page ``page`` of ``matches``."""
        return [self.match_row(m) for m in matches[(page - 1) * self.per_page: page * self.per_page]]
