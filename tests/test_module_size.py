"""Modules stay small: at most ``MOST`` modules of the project's packages and bots over ``LIMIT``
lines (tests and benchmarks not counted), each of them named in ``OVER_LIMIT``. The list may only
shrink: a module not on it may not pass the limit, and a listed module that has come under the
limit must leave the list (so that it cannot grow back)."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arena", "tournaments", "reports", "protocol", "contest", "bots")
LIMIT = 450
MOST = 3  # at most this many modules over LIMIT (six allowed at first; it may only come down)
# the modules over LIMIT lines, to be split; remove a module once it is under LIMIT
OVER_LIMIT = {
    "arena/sandbox/zygote_server.py",
    "tournaments/formats/adaptive.py",
    "tournaments/run.py",
}


def lines_of_modules() -> dict[str, int]:
    """``{path from the root: lines}`` for every module of ``PACKAGES``."""
    return {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def over(sizes: dict[str, int], allowed: set[str]) -> tuple[list[str], list[str]]:
    """The modules over LIMIT that are not allowed, and the allowed ones that are not over it."""
    big = {path for path, n in sizes.items() if n > LIMIT}
    return sorted(f"{p}: {sizes[p]} lines" for p in big - allowed), sorted(allowed - big)


def test_the_check_names_a_new_big_module_and_a_listed_small_one() -> None:
    sizes = {"arena/a.py": LIMIT + 1, "arena/b.py": LIMIT, "bots/c.py": 900}
    assert over(sizes, {"bots/c.py", "arena/b.py"}) == ([f"arena/a.py: {LIMIT + 1} lines"],
                                                        ["arena/b.py"])


def test_no_module_passes_the_limit_unless_listed_and_the_list_only_shrinks() -> None:
    sizes = lines_of_modules()
    assert len(sizes) > 100 and "arena/game.py" in sizes  # it sees the modules
    too_big, listed_small = over(sizes, OVER_LIMIT)
    assert too_big == [], f"modules over {LIMIT} lines: split them"
    assert listed_small == [], "under the limit now: take them off OVER_LIMIT"
    assert len(OVER_LIMIT) <= MOST
