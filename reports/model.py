"""The view models (``reports.views``) of every page, built from ``TournamentData``: one
:class:`SiteModel` per site, which shares the order, links and rows of every page
(``reports.site``) and hands each page to its own builder: the index (``reports.index_page``),
the head-to-head matrix (``reports.h2h_page``), a bot's pages (``reports.bot_page``) and the match
lists (here). Templates only lay these out; numbers are formatted once (``reports.text``).
"""
from __future__ import annotations

from functools import cached_property

from markupsafe import Markup

from reports.bot_page import BotPage
from reports.data import MatchInfo
from reports.h2h_page import HeadToHeadPage
from reports.index_page import IndexPage
from reports.site import Site
from reports.views import BotMatchesView, BotView, FormatBox, HeadToHead, IndexView, LeaderRow, MatchListView, PairRow


class SiteModel(Site):
    """Builds every page's view model from one ``TournamentData``."""

    @cached_property
    def _index(self) -> IndexPage:
        return IndexPage(self)

    @cached_property
    def _head_to_head(self) -> HeadToHeadPage:
        return HeadToHeadPage(self)

    def index(self, chart_svg: Markup | str, live: bool = False) -> IndexView:
        return self._index.view(chart_svg, live)

    def leaderboard(self) -> list[LeaderRow]:
        return self._index.leaderboard()

    def format_box(self) -> FormatBox | None:
        return self._index.format_box()

    def head_to_head(self, limit: int | None = None) -> HeadToHead:
        return self._head_to_head.view(limit)

    def pair_rows(self) -> list[PairRow]:
        return self._head_to_head.pair_rows()

    def match_list(self, page: int) -> MatchListView:
        return MatchListView(self.page_of(self.data.matches, page),
                             self.pager(page, len(self.data.matches), self.list_href))

    def bot_view(self, entrant: int, matches: list[MatchInfo]) -> BotView:
        return BotPage(self, entrant).view(matches)

    def bot_matches_page(self, entrant: int, matches: list[MatchInfo], page: int) -> BotMatchesView:
        return BotPage(self, entrant).matches_page(matches, page)
