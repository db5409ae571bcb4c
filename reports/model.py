"""Builds the view models (``reports.views``) of every page from ``TournamentData``.

Templates only lay these out. Numbers are formatted here, once, with fixed precision, so that
rendering the same store twice gives the same bytes. Links are relative to the site's root;
templates prefix them with the page's ``root`` ("" or "../") so the site works from ``file://``.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable
from functools import cached_property
from typing import Any

from arena.record import outcome
from reports.colours import CHART_COLOURED, bot_colour, colour_places, heat
from reports.data import MatchInfo, Standing, TournamentData
from reports.views import (
    BotMatchesView,
    BotRef,
    BotView,
    Fact,
    FailureDetail,
    FailureExample,
    FailureGroup,
    FieldRow,
    FormatBox,
    H2HCell,
    H2HRow,
    HeadToHead,
    IndexView,
    LeaderRow,
    MatchListView,
    MatchRow,
    OpponentRow,
    PageLink,
    Pager,
    PairRow,
    SeatCell,
    SubmissionRow,
    Tick,
    UncertaintyBar,
    VersionRow,
)
from tournaments.chances import chances
from tournaments.formats.adaptive import Met
from tournaments.ratings import tie_rule
from tournaments.stats import pair_counts

MATCHES_PER_PAGE = 500  # rows per match-list page: ~150 kB of HTML
H2H_ON_INDEX = 24  # bots in the index's head-to-head matrix; all of them on head-to-head.html
FAILURE_DETAILS = 30  # failures shown in full (with stderr) on a bot's page; the rest are counted
FAILURE_EXAMPLES = 3  # matches named under each kind of failure on a bot's page


# ----- formatting --------------------------------------------------------------------------------
def fmt(x: float, digits: int = 2) -> str:
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.00"


def thousands(n: int) -> str:
    return f"{n:,}"


def duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, s = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {s:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def ms_text(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 10_000 else duration_text(ms / 1000)


def slug(name: str) -> str:
    """A safe, readable file-name part for an untrusted name."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-")
    return s or "bot"


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "default"
    return str(value)


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"

SUBMISSION_LINES = 12  # of a refused submission's check output, on the public index


# ----- builders ----------------------------------------------------------------------------------
class SiteModel:
    """Builds every page's view model from one ``TournamentData``."""

    def __init__(self, data: TournamentData) -> None:
        self.data = data
        # One order for every page: the format's own ranking when it has one (an adaptive run's
        # settled ranking, a Swiss system's standings), else TrueSkill's μ − 3σ (the standings').
        self.settled_order = self._settled_order()
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
        self._pairs = self._pair_stats()

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

    # -- index ------------------------------------------------------------------------------------
    def index(self, chart_svg: Any, live: bool = False) -> IndexView:
        d = self.data
        failed = [m for m in self.played if m.failed]
        facts = [
            Fact("Game", f"{self.game_title()} ({d.game})"),
            Fact("Players per match", str(d.num_players)),
            Fact("Entrants", thousands(len(d.entrants))),
            Fact("Matches", f"{thousands(len(self.rated))} played of "
                            f"{thousands(d.planned if d.planned is not None else len(d.matches))}"
                            + self._earlier_text()),
            Fact("Failed matches", thousands(len(failed))),
            Fact("Seed", "secret" if d.seed is None else str(d.seed)),
            Fact("Duration", duration_text(d.duration_s)),
        ]
        facts += [Fact(str(k).replace("_", " ").capitalize(), option_text(v)) for k, v in d.details.items()]
        options = [Fact(str(k), option_text(v)) for k, v in d.options.items()]
        pages = self.list_pages()
        return IndexView(
            name=d.name, game_title=self.game_title(), facts=facts, options=options,
            leaderboard=self.leaderboard(), scale_ticks=self.scale_ticks(), tie_rule=tie_rule(),
            order=self.order_note(),
            any_draws=any(s.draws for s in d.standings),
            head_to_head=self.head_to_head(H2H_ON_INDEX), chart_svg=chart_svg,
            chart_legend=[self.bot(e) for e in self.ranked], chart_coloured=CHART_COLOURED,
            match_pages=[PageLink(self.page_label(i, len(self.data.matches)), self.list_href(i))
                         for i in range(1, pages + 1)],
            failed_matches=[self.match_row(m) for m in failed[:20]], failed_total=len(failed),
            live=(f"The tournament is running: {thousands(len(self.rated))} of "
                  f"{thousands(d.planned if d.planned is not None else len(d.matches))} matches "
                  "played. This page reloads itself every 30 s; the match lists, bot pages and "
                  "replays are written when it ends.") if live else None,
            box=self.format_box(),
            out_of_play=[FieldRow(self.bot(e.id), e.state, e.reason) for e in d.entrants
                         if e.state != "current"],
            submissions=[SubmissionRow(x.name, x.seen_at[:19].replace("T", " "), x.reason,
                                       "\n".join(x.stderr_tail.splitlines()[-SUBMISSION_LINES:]),
                                       None if x.entrant is None else self.bot(x.entrant))
                         for x in d.submissions],
        )

    def _earlier_text(self) -> str:
        earlier = len(self.played) - len(self.rated)
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

    def game_title(self) -> str:
        try:
            from arena.games import GAMES
            return GAMES[self.data.game].title
        except KeyError:  # a store from a game this install does not know
            return self.data.game

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

    def _pct(self, x: float) -> str:
        return fmt(self._frac(x), 2)

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
            ticks.append(Tick(self._pct(x), f"{x:g}"))
            x += step
        return ticks

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

    def _settled_order(self) -> list[int]:
        """The format's own ranking (entrant ids, best first), or none."""
        t = self.data.summary
        return [] if t is None else list(t.ranking_ids())

    def standings_in_order(self) -> list[Standing]:
        return sorted(self.data.standings, key=lambda s: self.order[s.entrant])

    def order_note(self) -> tuple[str, str]:
        """(the lede's few words, the leaderboard's note): which model orders every page, why, and
        where the other one shown disagrees."""
        bar = ("The bar shows each bot's TrueSkill rating μ (the mark), μ ± σ (the box) and μ ± 3σ "
               "(the line).")
        if not self.settled_order:
            return ("rated with TrueSkill, ranked by μ − 3σ",
                    "Ranked by TrueSkill's conservative rating μ − 3σ, on every page of this "
                    f"report. {bar} σ is TrueSkill's own uncertainty, which counts every match as "
                    "independent news: with duplicate deals and draws it is no standard error, "
                    "and no probability here is drawn from it.")
        trueskill = [s.entrant for s in self.data.standings]
        moved = sum(1 for i, e in enumerate(trueskill) if self.order[e] != i)
        differ = (f"here μ − 3σ would place {moved} of {len(trueskill)} bots elsewhere, "
                  "since TrueSkill counts every match as independent news and a bot settled "
                  "early keeps a wider σ" if moved else "here μ − 3σ gives the same order")
        words, said = self.data.summary.ranked_by()
        return (words, f"{said} TrueSkill's μ − 3σ, μ and σ are shown beside it for the "
                       f"uncertainty of each rating, not as the order: {differ}. {bar}")

    def leaderboard(self) -> list[LeaderRow]:
        rows = []
        standings = self.data.standings  # TrueSkill's order: a tie is with the next one there
        after = {x.entrant: k + 1 for k, x in enumerate(standings)}
        for i, s in enumerate(self.standings_in_order(), start=1):
            e = self.entrants.get(s.entrant)
            rows.append(LeaderRow(
                version=f"v{e.version}" if e is not None and len(e.versions) > 1 else "",
                rank=i, bot=self.bot(s.entrant), exposed=fmt(s.exposed), mu=fmt(s.mu), sigma=fmt(s.sigma),
                bar=self._bar(s),
                matches=s.matches, wins=s.wins, draws=s.draws,
                win_rate=fmt(100 * s.wins / s.matches, 0) + "%" if s.matches else "",
                avg_score=fmt(s.avg_score, 1), failures=s.failures,
                reference=self.reference_line(s.entrant) if s.entrant in self.data.references else None,
                tie=(f"Level with {self.bot(standings[after[s.entrant]].entrant).name} on μ − 3σ; "
                     f"{s.tie.text()}" if s.tie is not None and after[s.entrant] < len(standings)
                     else None),
            ))
        return rows

    # -- head to head -----------------------------------------------------------------------------
    def _pair_stats(self, matches: list[MatchInfo] | None = None) -> dict[tuple[int, int], dict[str, float]]:
        """Per ordered pair (a, b) of entrants who met: a's results in their matches together
        (the rated matches, or ``matches``)."""
        pairs: dict[tuple[int, int], dict[str, float]] = defaultdict(
            lambda: {"n": 0, "w": 0, "d": 0, "l": 0, "place": 0.0, "score": 0.0, "opp_score": 0.0})
        for m in self.rated if matches is None else matches:
            for sa, a in enumerate(m.seats):
                for sb, b in enumerate(m.seats):
                    if sa == sb or a == b:
                        continue
                    p = pairs[(a, b)]
                    p["n"] += 1
                    ra, rb = m.ranks[sa], m.ranks[sb]
                    if ra < rb:
                        p["w"] += 1
                    elif ra > rb:
                        p["l"] += 1
                    else:
                        p["d"] += 1
                    p["place"] += ra
                    p["score"] += m.scores[sa]
                    p["opp_score"] += m.scores[sb]
        return dict(pairs)

    def _pair_value(self, p: dict[str, float]) -> float:
        """0..1 for the colour: the score rate (2 players) or the finishing place scaled (N)."""
        if self.two_player:
            return (p["w"] + 0.5 * p["d"]) / p["n"]
        n = self.data.num_players
        return (n - p["place"] / p["n"]) / (n - 1)

    def head_to_head(self, limit: int | None = None) -> HeadToHead:
        """The matrix of the top ``limit`` bots (all if None), in leaderboard order."""
        ranked = self.in_play if limit is None else self.in_play[:limit]
        bots = [self.bot(e) for e in ranked]
        rows = []
        for a in ranked:
            cells = []
            for b in ranked:
                if a == b:
                    cells.append(H2HCell("", "", "", "", "", empty=True, self_cell=True))
                    continue
                p = self._pairs.get((a, b))
                an, bn = self.bot(a).name, self.bot(b).name
                if not p:
                    cells.append(H2HCell("", "", f"{an} and {bn} have not met", "", "", empty=True))
                    continue
                bg, fg = heat(self._pair_value(p))
                n = int(p["n"])
                if self.two_player:
                    rate = (p["w"] + 0.5 * p["d"]) / p["n"]
                    cells.append(H2HCell(
                        main=f"{int(p['w'])}-{int(p['d'])}-{int(p['l'])}", sub=f"{100 * rate:.0f}%",
                        title=(f"{an} against {bn}: {int(p['w'])} won, {int(p['d'])} drawn, "
                               f"{int(p['l'])} lost in {n} matches; score rate {100 * rate:.1f}%"),
                        background=bg, colour=fg))
                else:
                    place = p["place"] / p["n"]
                    cells.append(H2HCell(
                        main=f"{place:.2f}", sub=f"{n}×",
                        title=(f"{an} with {bn} at the table: average place {place:.2f} "
                               f"in {n} matches"),
                        background=bg, colour=fg))
            rows.append(H2HRow(self.bot(a), cells))
        stops = [heat(i / 6)[0] for i in range(7)]
        if self.two_player:
            low, high = "0% (lost all)", "100% (won all)"
        else:
            low, high = f"place {self.data.num_players} (last)", "place 1 (first)"
        pairs = self.pair_rows() if limit is None else []
        return HeadToHead(self.two_player, bots, rows, low, high, stops,
                          shown=len(ranked), total=len(self.in_play), pairs=pairs,
                          outcomes=self.outcomes_text())

    @property
    def set_size(self) -> int:
        """How often two entrants at a table meet in one duplicate set."""
        return self.data.num_players if self.data.duplicate else 1

    def outcomes_text(self) -> str:
        k = self.set_size
        return ", ".join(_halves(i) for i in range(2 * k + 1)) + f" points of {k}"

    @cached_property
    def _chances(self) -> dict[tuple[int, int], float]:
        """(a, b) -> the chance that a is stronger (tournaments.chances): the matches of a
        duplicate set share their seed; without duplicate deals, each match is its own."""
        played = [Met(m.seats, m.ranks, m.seed if self.data.duplicate else -m.id)
                  for m in self.rated]
        return chances(self.ranked, played, self.data.num_players)

    def pair_rows(self) -> list[PairRow]:
        """Every pair that met, the higher-ranked first (tournaments.stats)."""
        counts = pair_counts(self.rated, self.set_size)  # among the current versions
        # what the format says of a pair (an adaptive run's stopping rule, of its neighbours)
        rules = self.data.summary.rules() if self.data.summary is not None else {}
        rows = []
        for i, a in enumerate(self.ranked):
            for b in self.ranked[i + 1:]:
                pc = counts.get((a, b))
                if pc is None:
                    continue
                e = pc.estimate()
                above = self._chances.get((a, b))
                rows.append(PairRow(
                    a=self.bot(a), b=self.bot(b), sets=pc.sets,
                    counts=" · ".join(str(c) for c in pc.counts),
                    score="—" if e is None else (f"{100 * e.score:.1f}% ({100 * e.score_low:.1f}–"
                                                f"{100 * e.score_high:.1f}%)"),
                    elo="—" if e is None else f"{e.elo:+.0f} ± {e.elo_margin:.0f}",
                    p_above="—" if above is None else f"{100 * above:.1f}%",
                    pending=pc.incomplete, rule=rules.get((a, b), "")))
        return rows

    # -- match lists ------------------------------------------------------------------------------
    @staticmethod
    def pages_for(count: int) -> int:
        return max(1, math.ceil(count / MATCHES_PER_PAGE))

    def list_pages(self) -> int:
        return self.pages_for(len(self.data.matches))

    @staticmethod
    def page_label(page: int, total: int) -> str:
        first = (page - 1) * MATCHES_PER_PAGE + 1
        last = min(total, page * MATCHES_PER_PAGE)
        return f"{thousands(first)}–{thousands(last)}" if total else "none yet"

    def pager(self, page: int, count: int, href: Callable[[int], str]) -> Pager:
        pages = self.pages_for(count)
        links = [PageLink(self.page_label(i, count), href(i), i == page) for i in range(1, pages + 1)]
        first = (page - 1) * MATCHES_PER_PAGE + 1
        last = min(count, page * MATCHES_PER_PAGE)
        summary = (f"matches {thousands(first)}–{thousands(last)} of {thousands(count)}"
                   if count else "no matches yet")
        return Pager(links, href(page - 1) if page > 1 else None,
                     href(page + 1) if page < pages else None, summary)

    def match_list(self, page: int) -> MatchListView:
        ms = self.data.matches[(page - 1) * MATCHES_PER_PAGE: page * MATCHES_PER_PAGE]
        return MatchListView([self.match_row(m) for m in ms],
                             self.pager(page, len(self.data.matches), self.list_href))

    # -- bots -------------------------------------------------------------------------------------
    def bot_view(self, entrant: int, matches: list[MatchInfo]) -> BotView:
        ref = self.bot(entrant)
        s: Standing | None = self.standing.get(entrant)
        facts = []
        if s is not None:
            facts = [
                Fact("Rank", f"{self.order[entrant] + 1} of {len(self.data.standings)}"),
                Fact("μ − 3σ", fmt(s.exposed)), Fact("μ", fmt(s.mu)), Fact("σ", fmt(s.sigma)),
                Fact("Matches", thousands(s.matches)), Fact("Wins", thousands(s.wins)),
                Fact("Draws", thousands(s.draws)), Fact("Average score", fmt(s.avg_score, 1)),
                Fact("Failures", thousands(s.failures)),
            ]
            if entrant in self.data.references:
                facts.insert(1, Fact("Reference", self.reference_line(entrant)))
        opponents = []
        info = self.entrants.get(entrant)
        pairs = self._pairs
        if info is not None and info.state != "current":  # its own last version's results
            pairs = self._pair_stats([m for m in self.played if any(
                e == entrant and v == info.version for e, v in zip(m.seats, m.versions))])
        for other in self.ranked:
            p = pairs.get((entrant, other))
            if other == entrant or not p:
                continue
            bg, fg = heat(self._pair_value(p))
            n = p["n"]
            opponents.append(OpponentRow(
                bot=self.bot(other), matches=int(n), wins=int(p["w"]), draws=int(p["d"]),
                losses=int(p["l"]), score_rate=f"{100 * (p['w'] + 0.5 * p['d']) / n:.0f}%",
                avg_place=fmt(p["place"] / n), avg_score=fmt(p["score"] / n, 1),
                avg_opponent_score=fmt(p["opp_score"] / n, 1), background=bg, colour=fg))
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
                        self.match_row(m), m.statuses[seat], reason,
                        m.stderr_tails[seat] if seat < len(m.stderr_tails) else ""))
        failure_groups = [
            FailureGroup(status, kind, len(ms), [
                FailureExample(m.number, self.match_href(m.id) + "#end", reason)
                for m, reason in ms[:FAILURE_EXAMPLES]])
            for (status, kind), ms in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        ]
        return BotView(
            bot=ref, rank=self.order[entrant] + 1, facts=facts,
            description=self.entrants[entrant].description if entrant in self.entrants else "",
            opponents=opponents,
            two_player=self.two_player, failure_groups=failure_groups, failures=details,
            failures_total=total,
            matches=[self.match_row(m) for m in matches[:MATCHES_PER_PAGE]],
            pager=self.pager(1, len(matches), lambda i: self.bot_list_href(entrant, i)),
            versions=self.version_rows(entrant),
            state=(f"{info.state}: {info.reason}" if (info := self.entrants.get(entrant)) is not None
                   and info.state != "current" else ""),
            refused=[SubmissionRow(x.name, x.seen_at[:19].replace("T", " "), x.reason, "")
                     for x in self.data.submissions if x.entrant == entrant],
        )

    def version_rows(self, entrant: int) -> list[VersionRow]:
        """Every version of a bot that has had more than one, each rated on its own matches."""
        e = self.entrants.get(entrant)
        if e is None or len(e.versions) < 2:
            return []
        return [VersionRow(v.number, v.arrived_at[:19].replace("T", " "), v.state, fmt(v.exposed),
                           v.matches, v.wins, v.draws, v.losses) for v in e.versions]

    def bot_matches_page(self, entrant: int, matches: list[MatchInfo], page: int) -> BotMatchesView:
        ms = matches[(page - 1) * MATCHES_PER_PAGE: page * MATCHES_PER_PAGE]
        return BotMatchesView(self.bot(entrant), [self.match_row(m) for m in ms],
                              self.pager(page, len(matches), lambda i: self.bot_list_href(entrant, i)))


def failure_kind(reason: str) -> str:
    """The shape of a failure reason, which alike failures share: what differs from one match to
    the next (quoted answers, lists of legal actions, numbers: the decision, the milliseconds left)
    becomes "…". "decision 7: '6-6:Z' is not one of the legal actions ['1-2', '0-4']" is
    "decision …: '…' is not one of the legal actions […]"."""
    kind = re.sub(r"(?<!\w)'(?:[^'\\]|\\.)*'(?!\w)|(?<!\w)\"(?:[^\"\\]|\\.)*\"(?!\w)", "'…'", reason)
    while True:  # lists, innermost first
        flat = re.sub(r"\[[^\[\]]*\]", "[…]", kind)
        if flat == kind:
            break
        kind = flat
    kind = re.sub(r"\d+(?:\.\d+)?", "…", kind)
    return kind if len(kind) <= 200 else kind[:199] + "…"


def _halves(i: int) -> str:
    """i/2 as people write it: 0, ½, 1, 1½, …"""
    whole, half = divmod(i, 2)
    return ("½" if not whole else f"{whole}½") if half else str(whole)


def nice_step(span: float, count: int) -> float:
    """A round tick step (1, 2, 5 × 10^k) giving about ``count`` ticks over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / count
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return float(m * mag)
    return float(10 * mag)
