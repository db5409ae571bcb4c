"""A bot's page and the pages of its further matches: its facts, its results by opponent (from the
pair table ``tournaments.ratings`` computed), its failures grouped by kind, its versions."""
from __future__ import annotations

from reports.colours import heat
from reports.data import MatchInfo, Standing
from reports.site import Site
from reports.text import failure_kind, fmt, thousands
from reports.views import (
    BotMatchesView,
    BotView,
    Fact,
    FailureDetail,
    FailureExample,
    FailureGroup,
    OpponentRow,
    SubmissionRow,
    VersionRow,
)

FAILURE_DETAILS = 30  # failures shown in full (with stderr) on a bot's page; the rest are counted
FAILURE_EXAMPLES = 3  # matches named under each kind of failure on a bot's page


class BotPage:
    """Builds the pages of one bot of a site."""

    def __init__(self, site: Site, entrant: int) -> None:
        self.site = site
        self.data = site.data
        self.entrant = entrant

    def view(self, matches: list[MatchInfo]) -> BotView:
        site, entrant = self.site, self.entrant
        s: Standing | None = site.standing.get(entrant)
        facts = []
        if s is not None:
            facts = [
                Fact("Rank", f"{site.order[entrant] + 1} of {len(self.data.standings)}"),
                Fact("μ − 3σ", fmt(s.exposed)), Fact("μ", fmt(s.mu)), Fact("σ", fmt(s.sigma)),
                Fact("Matches", thousands(s.matches)), Fact("Wins", thousands(s.wins)),
                Fact("Draws", thousands(s.draws)), Fact("Average score", fmt(s.avg_score, 1)),
                Fact("Failures", thousands(s.failures)),
            ]
            if entrant in self.data.references:
                facts.insert(1, Fact("Reference", site.reference_line(entrant)))
        info = site.entrants.get(entrant)
        failure_groups, details, total = self.failures(matches)
        return BotView(
            bot=site.bot(entrant), rank=site.order[entrant] + 1, facts=facts,
            description=info.description if info is not None else "",
            opponents=self.opponents(),
            two_player=site.two_player, failure_groups=failure_groups, failures=details,
            failures_total=total,
            matches=site.page_of(matches, 1),
            pager=site.pager(1, len(matches), lambda i: site.bot_list_href(entrant, i)),
            versions=self.version_rows(),
            state=(f"{info.state}: {info.reason}" if info is not None and info.state != "current"
                   else ""),
            refused=[SubmissionRow(x.name, x.seen_at[:19].replace("T", " "), x.reason, "")
                     for x in self.data.submissions if x.entrant == entrant],
        )

    def opponents(self) -> list[OpponentRow]:
        """Its results by opponent: over the rated matches, or (a bot out of play) over its own
        last version's matches."""
        site, entrant = self.site, self.entrant
        pairs = self.data.own_pairs.get(entrant, self.data.pairs)
        rows = []
        for other in site.ranked:
            p = pairs.get((entrant, other))
            if other == entrant or not p:
                continue
            bg, fg = heat(site.pair_value(p))
            n = p.matches
            rows.append(OpponentRow(
                bot=site.bot(other), matches=n, wins=p.wins, draws=p.draws, losses=p.losses,
                score_rate=f"{100 * p.score_rate:.0f}%", avg_place=fmt(p.places / n),
                avg_score=fmt(p.score / n, 1), avg_opponent_score=fmt(p.opponent_score / n, 1),
                background=bg, colour=fg))
        return rows

    def failures(self, matches: list[MatchInfo]) -> tuple[list[FailureGroup], list[FailureDetail], int]:
        """Its failures in ``matches``: grouped by status and kind, the first in full, and how
        many."""
        entrant = self.entrant
        groups: dict[tuple[str, str], list[tuple[MatchInfo, str]]] = {}
        details: list[FailureDetail] = []
        total = 0
        for m in matches:
            if not m.played:
                continue
            for seat, eid in enumerate(m.seats):
                if eid != entrant or m.statuses[seat] == "ok":
                    continue
                total += 1
                reason = m.reasons[seat] if seat < len(m.reasons) else ""
                groups.setdefault((m.statuses[seat], failure_kind(reason)), []).append((m, reason))
                if len(details) < FAILURE_DETAILS:
                    details.append(FailureDetail(
                        self.site.match_row(m), m.statuses[seat], reason,
                        m.stderr_tails[seat] if seat < len(m.stderr_tails) else ""))
        failure_groups = [
            FailureGroup(status, kind, len(ms), [
                FailureExample(m.number, self.site.match_href(m.id) + "#end", reason)
                for m, reason in ms[:FAILURE_EXAMPLES]])
            for (status, kind), ms in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        ]
        return failure_groups, details, total

    def version_rows(self) -> list[VersionRow]:
        """Every version of a bot that has had more than one, each rated on its own matches."""
        e = self.site.entrants.get(self.entrant)
        if e is None or len(e.versions) < 2:
            return []
        return [VersionRow(v.number, v.arrived_at[:19].replace("T", " "), v.state, fmt(v.exposed),
                           v.matches, v.wins, v.draws, v.losses) for v in e.versions]

    def matches_page(self, matches: list[MatchInfo], page: int) -> BotMatchesView:
        site = self.site
        return BotMatchesView(site.bot(self.entrant), site.page_of(matches, page),
                              site.pager(page, len(matches),
                                         lambda i: site.bot_list_href(self.entrant, i)))
