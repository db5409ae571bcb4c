"""protocol/SPEC.md §4: every bot gets a per-match seed in ``hello``, derived one-way from the
match seed and its seat under a label no chance stream uses; the bundled random bot plays from
it, so a match of random bots replays exactly."""
from __future__ import annotations

import hashlib
from pathlib import Path

from arena.bots import bundled_bot, load_bot
from arena.game import SEED_BITS, bot_seed, stream_seed
from arena.referee import TimeControl, play_match

SEED_BOT = Path(__file__).parent / "seed_bot"


def test_the_bot_seed_is_sha256_of_its_label_match_seed_and_seat() -> None:
    digest = hashlib.sha256(b"arena-bot/123456789/1").digest()
    assert bot_seed(123456789, 1) == int.from_bytes(digest[:8], "big") >> 1
    seeds = {bot_seed(s, seat) for s in range(50) for seat in range(4)}
    assert len(seeds) == 200 and all(0 <= x < 2 ** SEED_BITS for x in seeds)
    # not any chance stream's seed of the match: another label ("arena-chance/...")
    for seat in range(4):
        assert bot_seed(7, seat) not in {stream_seed(7, (seat,)), stream_seed(7, ("bot", seat)),
                                         stream_seed(7, ())}


def test_each_bot_gets_its_seat_s_seed_in_hello() -> None:
    bot = load_bot(SEED_BOT)
    record = play_match("block", [bot, bot], seed=42, options={"single_deal": True},
                        time_control=TimeControl(move_ms=5000, bank_ms=5000))
    for seat in (0, 1):
        assert f"seed={bot_seed(42, seat)} seat={seat}" in record.statuses[seat].stderr_tail


def test_random_bots_replay_a_match_exactly_from_its_seed() -> None:
    bot = bundled_bot("random")
    tc = TimeControl(move_ms=5000, bank_ms=5000)

    def play(seed: int) -> list[str]:
        record = play_match("block", [bot, bot], seed=seed, time_control=tc)
        return [d["action"] for d in record.decisions]

    first = play(5)
    assert play(5) == first
    assert play(6) != first
