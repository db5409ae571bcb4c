"""The index page's view model: what was played, the leaderboard with its bars, the format's box,
the failed matches, the entrants out of play and the submissions refused."""
from __future__ import annotations

import math
from functools import cached_property

from markupsafe import Markup

from reports.colours import CHART_COLOURED
from reports.data import Standing
from reports.h2h_page import H2H_ON_INDEX, HeadToHeadPage
from reports.site import Site
from reports.text import duration_text, fmt, nice_step, option_text, thousands
from reports.views import Fact, FieldRow, FormatBox, IndexView, LeaderRow, PageLink, SubmissionRow, Tick, UncertaintyBar
from tournaments.ratings import tie_rule

SUBMISSION_LINES = 12  # of a refused submission's check output, on the public index


class IndexPage:
    """Builds the index of one site."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.data = site.data

    def view(self, chart_svg: Markup | str, live: bool = False) -> IndexView:
        site, d = self.site, self.data
        failed = [m for m in site.played if m.failed]
        planned = thousands(d.planned if d.planned is not None else len(d.matches))
        facts = [
            Fact("Game", f"{site.game_title()} ({d.game})"),
            Fact("Players per match", str(d.num_players)),
            Fact("Entrants", thousands(len(d.entrants))),
            Fact("Matches", f"{thousands(len(site.rated))} played of {planned}"
                            + self._earlier_text()),
            Fact("Failed matches", thousands(len(failed))),
            Fact("Seed", "secret" if d.seed is None else str(d.seed)),
            Fact("Duration", duration_text(d.duration_s)),
        ]
        facts += [Fact(str(k).replace("_", " ").capitalize(), option_text(v)) for k, v in d.details.items()]
        options = [Fact(str(k), option_text(v)) for k, v in d.options.items()]
        pages = site.list_pages()
        return IndexView(
            name=d.name, game_title=site.game_title(), facts=facts, options=options,
            leaderboard=self.leaderboard(), scale_ticks=self.scale_ticks(), tie_rule=tie_rule(),
            order=self.order_note(),
            any_draws=any(s.draws for s in d.standings),
            head_to_head=HeadToHeadPage(site).view(H2H_ON_INDEX), chart_svg=chart_svg,
            chart_legend=[site.bot(e) for e in site.ranked], chart_coloured=CHART_COLOURED,
            match_pages=[PageLink(site.page_label(i, len(d.matches)), site.list_href(i))
                         for i in range(1, pages + 1)],
            failed_matches=[site.match_row(m) for m in failed[:20]], failed_total=len(failed),
            live=(f"The tournament is running: {thousands(len(site.rated))} of {planned} matches "
                  "played. This page reloads itself every 30 s; the match lists, bot pages and "
                  "replays are written when it ends.") if live else None,
            box=self.format_box(),
            out_of_play=[FieldRow(site.bot(e.id), e.state, e.reason) for e in d.entrants
                         if e.state != "current"],
            submissions=[SubmissionRow(x.name, x.seen_at[:19].replace("T", " "), x.reason,
                                       "\n".join(x.stderr_tail.splitlines()[-SUBMISSION_LINES:]),
                                       None if x.entrant is None else site.bot(x.entrant))
                         for x in d.submissions],
        )

    def _earlier_text(self) -> str:
        earlier = len(self.site.played) - len(self.site.rated)
        return (f" (and {thousands(earlier)} by earlier versions or bots now out, kept but not "
                "rated)") if earlier else ""

    def format_box(self) -> FormatBox | None:
        """The format's box on the index (its verdict, its standing), as the format says it."""
        t = self.data.summary
        if t is None:
            return None
        b = t.box()
        return FormatBox(id=b.id, headline=b.headline, line=b.line,
                         facts=[Fact(label, value) for label, value in b.facts], caption=b.caption,
                         header=list(b.header), rows=[list(r) for r in b.rows], note=b.note,
                         tone=b.tone, numeric=b.numeric)

    @cached_property
    def _scale(self) -> tuple[float, float]:
        """The leaderboard bars' shared axis: every μ ± 3σ, widened to round numbers."""
        st = self.data.standings
        if not st:
            return 0.0, 50.0
        lo = min(s.mu - 3 * s.sigma for s in st)
        hi = max(s.mu + 3 * s.sigma for s in st)
        step = nice_step(hi - lo, 6)
        return math.floor(lo / step) * step, math.ceil(hi / step) * step

    def _frac(self, x: float) -> float:
        lo, hi = self._scale
        return 100 * (x - lo) / (hi - lo) if hi > lo else 50.0

    def _bar(self, s: Standing) -> UncertaintyBar:
        f = self._frac
        return UncertaintyBar(
            lo3=fmt(f(s.mu - 3 * s.sigma)), w3=fmt(f(s.mu + 3 * s.sigma) - f(s.mu - 3 * s.sigma)),
            lo1=fmt(f(s.mu - s.sigma)), w1=fmt(f(s.mu + s.sigma) - f(s.mu - s.sigma)), mu=fmt(f(s.mu)))

    def scale_ticks(self) -> list[Tick]:
        lo, hi = self._scale
        step = nice_step(hi - lo, 6)
        ticks = []
        x = lo
        while x <= hi + 1e-9:
            ticks.append(Tick(fmt(self._frac(x), 2), f"{x:g}"))
            x += step
        return ticks

    def order_note(self) -> tuple[str, str]:
        """(the lede's few words, the leaderboard's note): which model orders every page, why, and
        where the other one shown disagrees."""
        bar = ("The bar shows each bot's TrueSkill rating μ (the mark), μ ± σ (the box) and μ ± 3σ "
               "(the line).")
        summary = self.data.summary
        if not self.site.settled_order or summary is None:
            return ("rated with TrueSkill, ranked by μ − 3σ",
                    "Ranked by TrueSkill's conservative rating μ − 3σ, on every page of this "
                    f"report. {bar} σ is TrueSkill's own uncertainty, which counts every match as "
                    "independent news: with duplicate deals and draws it is no standard error, "
                    "and no probability here is drawn from it.")
        trueskill = [s.entrant for s in self.data.standings]
        moved = sum(1 for i, e in enumerate(trueskill) if self.site.order[e] != i)
        differ = (f"here μ − 3σ would place {moved} of {len(trueskill)} bots elsewhere, "
                  "since TrueSkill counts every match as independent news and a bot settled "
                  "early keeps a wider σ" if moved else "here μ − 3σ gives the same order")
        words, said = summary.ranked_by()
        return (words, f"{said} TrueSkill's μ − 3σ, μ and σ are shown beside it for the "
                       f"uncertainty of each rating, not as the order: {differ}. {bar}")

    def leaderboard(self) -> list[LeaderRow]:
        site = self.site
        rows = []
        standings = self.data.standings  # TrueSkill's order: a tie is with the next one there
        after = {x.entrant: k + 1 for k, x in enumerate(standings)}
        for i, s in enumerate(site.standings_in_order(), start=1):
            e = site.entrants.get(s.entrant)
            rows.append(LeaderRow(
                version=f"v{e.version}" if e is not None and len(e.versions) > 1 else "",
                rank=i, bot=site.bot(s.entrant), exposed=fmt(s.exposed), mu=fmt(s.mu), sigma=fmt(s.sigma),
                bar=self._bar(s),
                matches=s.matches, wins=s.wins, draws=s.draws,
                win_rate=fmt(100 * s.wins / s.matches, 0) + "%" if s.matches else "",
                avg_score=fmt(s.avg_score, 1), failures=s.failures,
                reference=site.reference_line(s.entrant) if s.entrant in self.data.references else None,
                tie=(f"Level with {site.bot(standings[after[s.entrant]].entrant).name} on μ − 3σ; "
                     f"{s.tie.text()}" if s.tie is not None and after[s.entrant] < len(standings)
                     else None),
            ))
        return rows
