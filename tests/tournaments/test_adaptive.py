"""The adaptive format's planner and stopping rule (``tournaments.formats.adaptive``): pure functions of
the played results, driven here by outcome rules instead of bots (a real run is in
test_adaptive_run.py)."""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from click.testing import CliRunner

from arena.bots import bundled_bots
from arena.cli import cli
from tournaments.config import load_config
from tournaments.formats import make_schedule
from tournaments.formats.adaptive import (
    IN_DOUBT,
    LEVEL,
    MAX_MATCHES,
    ORDERED,
    SETTLED,
    Met,
    Plan,
    Settings,
    Tally,
    batch_sets,
    choose_tables,
    dispersion,
    pair_state,
    replay,
    standing,
    standing_of,
    urgency,
    wrong_chance,
)
from tournaments.seeds import deal_seed
from tournaments.stats import elo_to_score, field_posterior, score_to_elo

from .conftest import small_config, write_config

BLOCK = {b.name: b.path for b in bundled_bots("block")}
Rule = Callable[[tuple[int, ...], int], list[int]]


class Played:
    def __init__(self, seats: Sequence[int], ranks: Sequence[int]) -> None:
        self.seats, self.ranks = tuple(seats), list(ranks)


def by_strength(strength: dict[int, float]) -> Rule:
    """The stronger ranks higher; equal strengths: the earlier seat (so a duplicate set of two
    equal entrants splits evenly, as two copies of a deterministic bot do)."""
    def ranks(seats: tuple[int, ...], deal: int) -> list[int]:
        order = sorted(range(len(seats)), key=lambda s: (-strength[seats[s]], s))
        out = [0] * len(seats)
        for place, s in enumerate(order, 1):
            out[s] = place
        return out
    return ranks


def settings(players: int = 2, max_matches: int = 4000, seed: int = 7, workers: int = 2,
             confidence: float = 0.95, margin: float = 0.05) -> Settings:
    return Settings(players, confidence, margin, max_matches, seed, batch_sets(workers, players))


def play(plan: Plan, rule: Rule, results: dict[int, Any] | None = None,
         batches: int | None = None) -> dict[int, Any]:
    """Play the plan with ``rule`` until it stops (or for ``batches`` batches)."""
    results = {} if results is None else results
    n = 0
    while plan.advance(results) is None and (batches is None or n < batches):
        for m in plan.left(results):
            results[m.id] = Played(m.seats, rule(m.seats, m.deal))
        n += 1
    plan.advance(results)
    return results


# ----- the stopping rule ------------------------------------------------------------------------

def test_all_equal_entrants_settle_level() -> None:
    plan = Plan(settings(), (0, 1, 2, 3))
    play(plan, by_strength(dict.fromkeys(range(4), 1.0)))
    assert plan.stop == SETTLED
    assert [p.state for p in plan.now.pairs] == [LEVEL] * 3
    assert all(abs(p.score - 0.5) < 1e-6 and p.level >= 0.95 for p in plan.now.pairs)
    assert plan.counted < 4000


def test_one_dominant_entrant_is_ordered_on_top_and_the_rest_level() -> None:
    plan = Plan(settings(), (0, 1, 2, 3, 4))
    play(plan, by_strength({0: 1, 1: 1, 2: 5, 3: 1, 4: 1}))
    assert plan.stop == SETTLED and plan.now.ranking[0] == 2
    assert [p.state for p in plan.now.pairs] == [ORDERED, LEVEL, LEVEL, LEVEL]
    top = plan.now.pairs[0]
    assert top.score > 0.9 and top.ordered >= 0.95
    # it took few sets to see that the dominant one beats its neighbour
    assert top.sets < min(p.sets for p in plan.now.pairs[1:])


def test_a_bot_that_always_fails_is_settled_last() -> None:
    """A failed seat ranks last (the referee's rule): the failing entrant loses every match."""
    plan = Plan(settings(), (0, 1, 2))
    play(plan, by_strength({0: 1, 1: 1, 2: -100}))
    assert plan.stop == SETTLED and plan.now.ranking[-1] == 2
    assert plan.now.pairs[-1].state == ORDERED and plan.now.pairs[-1].score > 0.9


def test_max_matches_stops_it_with_whole_sets_only() -> None:
    plan = Plan(settings(players=3, max_matches=100), (0, 1, 2, 3))
    rng = random.Random(1)
    play(plan, lambda seats, deal: rng.sample([1, 2, 3], 3))
    assert plan.stop == MAX_MATCHES
    assert plan.counted == plan.planned == 99  # 33 sets of 3; a 34th would pass 100
    assert any(p.state == IN_DOUBT for p in plan.now.pairs)


def test_a_pair_states_edges() -> None:
    step = score_to_elo(0.55)  # the margin 0.05 in Elo: 34.8
    assert pair_state(0, 1, 0, 0.0, math.inf, 0.95, 0.05).state == IN_DOUBT  # no result
    # the fit's difference and its standard error (Elo): a wide lead, known well, is ordered ...
    assert pair_state(0, 1, 9, 200.0, 20.0, 0.95, 0.05).state == ORDERED
    # ... and a tie known well enough is level: not below by more than the margin
    tie = pair_state(0, 1, 100, 0.0, 8.0, 0.95, 0.05)
    assert tie.state == LEVEL and tie.low > 0.45 and tie.level >= 0.95 and tie.score == 0.5
    unsure = pair_state(0, 1, 3, 0.0, 30.0, 0.95, 0.05)
    assert unsure.state == IN_DOUBT and unsure.low < 0.45 and unsure.needed > 0
    assert pair_state(0, 1, 3, 0.0, 20.0, 0.95, 0.05).needed < unsure.needed
    # the bound is at the confidence: a higher one asks more
    assert pair_state(0, 1, 100, 0.0, 8.0, 0.999, 0.05).low < tie.low
    assert tie.low == pytest.approx(elo_to_score(-NormalDist().inv_cdf(0.95) * 8.0))
    # its chance of standing the wrong way round beyond the margin: Φ(−(diff + step) / spread)
    assert 1 - tie.level == pytest.approx(NormalDist().cdf(-step / 8.0))
    assert wrong_chance(0.0, 8.0, step) == pytest.approx(NormalDist().cdf(-step / 8.0))
    # a share of the ranking's 5 % asks more of a pair than 5 % of its own
    assert pair_state(0, 1, 9, 0.0, 20.0, 0.95, 0.05).state == LEVEL
    assert pair_state(0, 1, 9, 0.0, 20.0, 0.95, 0.05, allowed=0.01).state == IN_DOUBT


def duplicate_free(strength: dict[int, float], draws: float, seed: int) -> Rule:
    """One match per deal, no duplicate luck: a draw with chance ``draws``, else A wins with
    chance Φ((s_A − s_B) / √2) (the benchmark's continuous fields)."""
    rng = random.Random(seed)

    def ranks(seats: tuple[int, ...], deal: int) -> list[int]:
        a, b = seats
        if rng.random() < draws:
            return [1, 1]
        win = NormalDist().cdf((strength[a] - strength[b]) / math.sqrt(2))
        return [1, 2] if rng.random() < win else [2, 1]
    return ranks


def test_the_stop_comes_for_copies_and_a_pair_near_the_margin() -> None:
    """Two copies of one bot, and a third whose true score against them is 52.5 %: halfway to the
    margin, where the old rule (ordered: the interval above ½; level: inside ½ ± margin) could
    show neither for thousands of matches. Every pair here is within the margin, so a settled
    ranking in any order is right; the stop must come, and soon."""
    strength = {0: 0.0, 1: 0.0, 2: math.sqrt(2) * NormalDist().inv_cdf((0.525 - 0.075) / 0.85)}
    counted = []
    for seed in range(1, 11):
        plan = Plan(settings(max_matches=3000, seed=seed), (0, 1, 2))
        play(plan, duplicate_free(strength, 0.15, seed))
        assert plan.stop == SETTLED, (seed, plan.counted, plan.status())
        counted.append(plan.counted)
    # a tie needs no proof both ways, only that neither stands below the other by more than the
    # margin: about 200 matches here (a rule valid for every truth at every look needed 530)
    assert sum(counted) / len(counted) < 300, counted


def chain(sets: int) -> Tally:
    """Six entrants in a chain, each pair of neighbours level in ``sets`` sets (a quarter swept
    each way, half split), no other pair met."""
    tally, deal = Tally(2), 0
    for i in range(5):
        for k in range(sets):
            first, second = [((1, 2), (2, 1)), ((2, 1), (1, 2)), ((1, 2), (1, 2)),
                             ((2, 1), (2, 1))][k % 4]
            tally.add(Met((i, i + 1), first, deal))
            tally.add(Met((i + 1, i), second, deal))
            deal += 1
    return tally


def test_the_stop_is_a_claim_about_the_whole_ranking() -> None:
    """Each neighbour pair of the chain is, on its own, within the margin at 95 %; but the ends,
    compared only through four links, are not: the ranking is in doubt until the chances of all
    its pairs, neighbours or not, add up to at most 5 %."""
    now = standing(tuple(range(6)), chain(120), 0.95, 0.05)
    assert all(p.level >= 0.95 for p in now.pairs)  # each pair alone: within the margin at 95 %
    assert now.wrong > 0.05 and [p.state for p in now.pairs] == [IN_DOUBT] * 5
    step = score_to_elo(0.55)
    centre, spread = field_posterior(now.elo, chain(120).games,
                                     dispersion(chain(120), now.elo), step)
    rank = now.ranking
    assert now.wrong == pytest.approx(sum(
        wrong_chance(centre[a] - centre[b], spread[(a, b)], step)
        for i, a in enumerate(rank) for b in rank[i + 1:]))
    assert now.cuts[0] < now.cuts[2]  # the middle cut holds the most pairs across it
    later = standing(tuple(range(6)), chain(1000), 0.95, 0.05)
    assert later.wrong <= 0.05 and later.settled


def boundary_field(score: float) -> dict[int, float]:
    """Two entrants: 0 scores ``score`` against 1 in the duplicate-free model (15 % draws)."""
    return {0: math.sqrt(2) * NormalDist().inv_cdf((score - 0.075) / 0.85), 1: 0.0}


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("score", "allowed"), [(0.5, 0.05), (0.44, 0.15)])
def test_at_the_stop_a_pair_is_wrong_about_as_often_as_the_docs_say(score: float,
                                                                      allowed: float) -> None:
    """Two entrants played to the stop, 200 times, the rule looking after every batch. Equal
    ones: a claim that either is the stronger (*ordered*) is wrong, at most 5 % of the time.
    Ones just beyond the margin (0 scores 44 % against 1): a ranking with 0 above 1 is wrong,
    in any state. That is the hardest truth for a Bayesian stop, whose chance is calibrated over
    fields, not for each truth: 11 % of the runs end there, as docs/tournaments.md says."""
    runs, wrong = 200, 0
    for seed in range(runs):
        plan = Plan(settings(max_matches=4000, seed=seed), (0, 1))
        play(plan, duplicate_free(boundary_field(score), 0.15, seed))
        assert plan.stop == SETTLED
        if score == 0.5:
            wrong += plan.now.pairs[0].state == ORDERED
        else:
            wrong += plan.now.ranking == (0, 1)
    assert wrong <= allowed * runs, wrong


# ----- the choice of sets ----------------------------------------------------------------------

def test_a_newcomer_plays_first_and_entrant_ids_need_not_be_contiguous() -> None:
    """An entrant joins (an id the results never saw): its neighbours in the ranking play it."""
    old = (3, 7, 12, 30)
    plan = Plan(settings(), old)
    rule = by_strength({3: 4, 7: 3, 12: 2, 30: 1, 20: 2.5})
    results = play(plan, rule, batches=6)
    played = [Met(r.seats, r.ranks, m.deal) for b in plan.batches for m in b
              if (r := results.get(m.id)) is not None]
    now = standing_of((*old, 20), played, 2, 0.95, 0.05)
    assert now.sets[20] == 0
    tables = choose_tables(now, 2, 2, 0.05)
    at = now.ranking.index(20)
    assert 0 < at < 4  # an Elo of 0 (the prior alone) puts it inside the field
    # both of its neighbour pairs first, before any pair of the old entrants
    assert {frozenset(t) for t in tables} == {frozenset(now.ranking[at - 1:at + 1]),
                                              frozenset(now.ranking[at:at + 2])}


def test_the_tables_of_three_are_consecutive_ranks_and_every_rotation_shares_the_deal() -> None:
    plan = Plan(settings(players=3, seed=11), (0, 1, 2, 3, 4))
    play(plan, by_strength({0: 1, 1: 2, 2: 3, 3: 4, 4: 5}), batches=4)
    ids = [m.id for b in plan.batches for m in b]
    assert ids == list(range(1, len(ids) + 1))  # planning order
    for batch in plan.batches:
        for first in range(0, len(batch), 3):
            group = batch[first:first + 3]
            assert len({m.deal for m in group}) == 1 and group[0].seed == deal_seed(11, group[0].deal)
            assert {m.seats for m in group} == {group[0].seats[r:] + group[0].seats[:r]
                                                for r in range(3)}
    assert plan.now.ranking == (4, 3, 2, 1, 0)
    deals = [b[i].deal for b in plan.batches for i in range(0, len(b), 3)]
    assert deals == list(range(len(deals)))


def test_sets_go_to_pairs_in_doubt_not_to_settled_ones() -> None:
    tally = Tally(2)
    for deal in range(120):  # 0 beat 1 and 2 in 60 sets each: settled; 1 and 2 split 2 sets
        tally.add(Met((0, 1 + deal % 2), (1, 2), deal))
        tally.add(Met((1 + deal % 2, 0), (2, 1), deal))
    for deal in (120, 121):
        tally.add(Met((1, 2), (1, 2), deal))
        tally.add(Met((2, 1), (1, 2), deal))
    now = standing((0, 1, 2), tally, 0.95, 0.05)
    assert [p.state for p in now.pairs] == [ORDERED, IN_DOUBT] and now.ranking[0] == 0
    assert choose_tables(now, 5, 2, 0.05) == [now.ranking[1:]] * 5


def test_a_set_goes_where_it_settles_most_not_where_the_doubt_is_greatest() -> None:
    """0 won its 4 sets against 1; 1 leads 2 by one set in 10 (the rest split): both pairs are in
    doubt, and 1-2 is the more likely the wrong way round beyond the margin, but one more set
    nearly settles 0-1, while 1-2 needs dozens: the first set goes to 0-1, the rest to 1-2."""
    tally = Tally(2)
    for deal in range(14):
        a, b, won = (0, 1, True) if deal < 4 else (1, 2, deal == 4)
        tally.add(Met((a, b), (1, 2), deal))
        tally.add(Met((b, a), (2, 1) if won else (1, 2), deal))
    now = standing((0, 1, 2), tally, 0.95, 0.05)
    assert now.ranking == (0, 1, 2) and [p.state for p in now.pairs] == [IN_DOUBT, IN_DOUBT]
    assert [p.sets for p in now.pairs] == [4, 10] and now.pairs[0].needed < now.pairs[1].needed
    assert urgency(now, 0, 0, 2, 0.05) < urgency(now, 1, 0, 2, 0.05)  # more doubt on 1-2 ...
    assert choose_tables(now, 4, 2, 0.05) == [(0, 1), (1, 2), (1, 2), (1, 2)]  # ... settled less


def test_a_pairs_doubt_counts_what_their_common_opponents_say() -> None:
    """0 leads 1 by the same sets in both fields; in the first, 0 also beat a common opponent 2
    far more often than 1 did: the fit, holding every match, is surer that 0 is above 1 there,
    and sends sets to that pair later (a rule that read the pair's own sets alone could not
    tell the two fields apart)."""
    def field(zero_sweeps: int, one_sweeps: int) -> Any:
        tally = Tally(2)
        deal = 0
        for a, b, sweeps, sets in ((0, 1, 3, 6), (0, 2, zero_sweeps, 20), (1, 2, one_sweeps, 20)):
            for n in range(sets):
                tally.add(Met((a, b), (1, 2), deal))  # a wins its first seat ...
                tally.add(Met((b, a), (2, 1) if n < sweeps else (1, 2), deal))  # ... or splits
                deal += 1
        return standing((0, 1, 2), tally, 0.95, 0.05)
    apart, together = field(18, 10), field(14, 14)
    assert apart.ranking == together.ranking == (0, 1, 2)
    assert apart.pairs[0].sets == together.pairs[0].sets  # the pair's own sets: the same
    assert apart.pairs[0].low > together.pairs[0].low  # the stop hears the common opponent too
    assert urgency(apart, 0, 0, 2, 0.05) < urgency(together, 0, 0, 2, 0.05)
    # sets chosen this batch narrow the doubt
    assert urgency(together, 0, 3, 2, 0.05) < urgency(together, 0, 0, 2, 0.05)

# ----- reproducible -----------------------------------------------------------------------------

def test_a_resumed_plan_chooses_the_same_sets() -> None:
    """Replayed from the results of its first batches (and part of the next), the plan chooses
    what the uninterrupted one chose, and plays only the matches still missing."""
    rule = by_strength({0: 3, 1: 2, 2: 2, 3: 1, 4: 0})
    whole = Plan(settings(), tuple(range(5)))
    results = play(whole, rule)
    assert whole.stop == SETTLED
    done = [m.id for b in whole.batches[:3] for m in b] + [whole.batches[3][0].id]
    again = replay(settings(), tuple(range(5)), {i: results[i] for i in done})
    assert again.batches == whole.batches[:4]
    assert again.left({i: results[i] for i in done}) == whole.batches[3][1:]
    play(again, rule, {i: results[i] for i in done})
    assert again.batches == whole.batches and again.now == whole.now


def test_the_plan_depends_on_the_seed_and_the_batch_size_only_through_the_config() -> None:
    rule = by_strength({0: 2, 1: 1, 2: 0})
    a, b = Plan(settings(seed=1), (0, 1, 2)), Plan(settings(seed=1), (0, 1, 2))
    play(a, rule)
    play(b, rule)
    assert a.batches == b.batches
    c = Plan(settings(seed=2), (0, 1, 2))
    assert {m.seed for m in c.batches[0]}.isdisjoint({m.seed for m in a.batches[0]})
    assert batch_sets(1, 2) == 2 and batch_sets(2, 2) == 4 and batch_sets(3, 4) == 3
    assert len(Plan(settings(workers=3), (0, 1, 2)).batches[0]) == 2 * batch_sets(3, 2)


def test_results_from_another_plan_are_refused() -> None:
    plan = Plan(settings(), (0, 1, 2))
    first = plan.batches[0][0]
    with pytest.raises(Exception, match=f"match {first.id} was played by"):
        plan.advance({first.id: Played(first.seats[::-1], [1, 2]),
                      **{m.id: Played(m.seats, [1, 2]) for m in plan.batches[0][1:]}})


# ----- the config ------------------------------------------------------------------------------

def adaptive_config(entrants: list[Any], **fmt: Any) -> dict[str, Any]:
    data = small_config(entrants)
    data["format"] = {"type": "adaptive", "players": 2, **fmt}
    return data


@pytest.mark.parametrize("change, key", [
    ({"rounds": 2}, "'format.rounds' is not for type = 'adaptive'"),
    ({"duplicate": False}, "'format.duplicate' is not for type = 'adaptive'"),
    ({"max_tables": 10}, "'format.max_tables' is not for type = 'adaptive'"),
    ({"confidence": 1.0}, "'format.confidence'"),
    ({"confidence": 0.3}, "'format.confidence'"),
    ({"margin": 0}, "'format.margin'"),
    ({"margin": 0.5}, "'format.margin'"),
    ({"max_matches": 1}, "'format.max_matches' is 1, less than one duplicate set"),
    ({"elo1": 30}, "'format.elo1' is not for type = 'adaptive'; only type = 'sprt' takes it"),
    ({"margin": "wide"}, "'format.margin'"),
])
def test_a_bad_adaptive_config_is_one_line_naming_the_key(tmp_path: Path, change: dict[str, Any],
                                                          key: str) -> None:
    data = adaptive_config([BLOCK["greedy"], BLOCK["random"]], **change)
    path = write_config(tmp_path / "t.toml", data)
    result = CliRunner().invoke(cli, ["tournament", "run", str(path)])
    assert result.exit_code == 2, result.output
    assert key in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "t-results").exists()


@pytest.mark.parametrize("key", ["confidence", "margin"])
def test_adaptive_keys_are_refused_in_another_format(tmp_path: Path, key: str) -> None:
    data = small_config([BLOCK["greedy"], BLOCK["random"]], format={key: 0.1})
    result = CliRunner().invoke(cli, ["tournament", "run", str(write_config(tmp_path / "t.toml", data))])
    assert result.exit_code == 2 and "only type = 'adaptive' takes it" in result.stderr


def test_the_defaults_an_empty_schedule_and_a_store_of_another_format_keeps_its_identity(
        tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path / "t.toml", adaptive_config(
        [BLOCK["greedy"], BLOCK["random"], BLOCK["heavy"]])))
    f = config.format
    assert (f.confidence, f.margin, f.max_matches, f.players) == (0.95, 0.05, 5000, 2)
    assert len(make_schedule(3, f, seed=7)) == 0
    assert "adaptive (confidence 0.95, margin 0.05)" in config.describe()
    rr = load_config(write_config(tmp_path / "r.toml", small_config([BLOCK["greedy"],
                                                                      BLOCK["random"]])))
    assert rr.identity()["format"]["confidence"] is None and rr.format.margin is None
