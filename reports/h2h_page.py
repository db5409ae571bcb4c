"""The head-to-head view model: the matrix of the bots in play (the index shows its top
``H2H_ON_INDEX``; head-to-head.html all of them) and every pair that met, with its estimates.
The pair table itself is computed once, by ``tournaments.ratings`` (``TournamentData.pairs``)."""
from __future__ import annotations

from functools import cached_property

from reports.colours import heat
from reports.site import Site
from reports.text import halves
from reports.views import H2HCell, H2HRow, HeadToHead, PairRow
from tournaments.chances import chances
from tournaments.formats.adaptive import Met
from tournaments.stats import pair_counts

H2H_ON_INDEX = 24  # bots in the index's head-to-head matrix; all of them on head-to-head.html


class HeadToHeadPage:
    """Builds the head-to-head matrix and pair rows of one site."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.data = site.data

    def view(self, limit: int | None = None) -> HeadToHead:
        """The matrix of the top ``limit`` bots (all if None), in leaderboard order."""
        site, pairs = self.site, self.data.pairs
        ranked = site.in_play if limit is None else site.in_play[:limit]
        bots = [site.bot(e) for e in ranked]
        rows = []
        for a in ranked:
            cells = []
            for b in ranked:
                if a == b:
                    cells.append(H2HCell("", "", "", "", "", empty=True, self_cell=True))
                    continue
                p = pairs.get((a, b))
                an, bn = site.bot(a).name, site.bot(b).name
                if not p:
                    cells.append(H2HCell("", "", f"{an} and {bn} have not met", "", "", empty=True))
                    continue
                bg, fg = heat(site.pair_value(p))
                n = p.matches
                if site.two_player:
                    rate = p.score_rate
                    cells.append(H2HCell(
                        main=f"{p.wins}-{p.draws}-{p.losses}", sub=f"{100 * rate:.0f}%",
                        title=(f"{an} against {bn}: {p.wins} won, {p.draws} drawn, "
                               f"{p.losses} lost in {n} matches; score rate {100 * rate:.1f}%"),
                        background=bg, colour=fg))
                else:
                    place = p.places / n
                    cells.append(H2HCell(
                        main=f"{place:.2f}", sub=f"{n}×",
                        title=(f"{an} with {bn} at the table: average place {place:.2f} "
                               f"in {n} matches"),
                        background=bg, colour=fg))
            rows.append(H2HRow(site.bot(a), cells))
        stops = [heat(i / 6)[0] for i in range(7)]
        if site.two_player:
            low, high = "0% (lost all)", "100% (won all)"
        else:
            low, high = f"place {self.data.num_players} (last)", "place 1 (first)"
        return HeadToHead(site.two_player, bots, rows, low, high, stops,
                          shown=len(ranked), total=len(site.in_play),
                          pairs=self.pair_rows() if limit is None else [],
                          outcomes=self.outcomes_text())

    @property
    def set_size(self) -> int:
        """How often two entrants at a table meet in one duplicate set."""
        return self.data.num_players if self.data.duplicate else 1

    def outcomes_text(self) -> str:
        k = self.set_size
        return ", ".join(halves(i) for i in range(2 * k + 1)) + f" points of {k}"

    @cached_property
    def _chances(self) -> dict[tuple[int, int], float]:
        """(a, b) -> the chance that a is stronger (tournaments.chances): the matches of a
        duplicate set share their seed; without duplicate deals, each match is its own."""
        played = [Met(m.seats, m.ranks, m.seed if self.data.duplicate else -m.id)
                  for m in self.site.rated]
        return chances(self.site.ranked, played, self.data.num_players)

    def pair_rows(self) -> list[PairRow]:
        """Every pair that met, the higher-ranked first (tournaments.stats)."""
        site = self.site
        counts = pair_counts(site.rated, self.set_size)  # among the current versions
        # what the format says of a pair (an adaptive run's stopping rule, of its neighbours)
        rules = self.data.summary.rules() if self.data.summary is not None else {}
        rows = []
        for i, a in enumerate(site.ranked):
            for b in site.ranked[i + 1:]:
                pc = counts.get((a, b))
                if pc is None:
                    continue
                e = pc.estimate()
                above = self._chances.get((a, b))
                rows.append(PairRow(
                    a=site.bot(a), b=site.bot(b), sets=pc.sets,
                    counts=" · ".join(str(c) for c in pc.counts),
                    score="—" if e is None else (f"{100 * e.score:.1f}% ({100 * e.score_low:.1f}–"
                                                f"{100 * e.score_high:.1f}%)"),
                    elo="—" if e is None else f"{e.elo:+.0f} ± {e.elo_margin:.0f}",
                    p_above="—" if above is None else f"{100 * above:.1f}%",
                    pending=pc.incomplete, rule=rules.get((a, b), "")))
        return rows
