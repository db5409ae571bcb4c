"""CLI conventions: -h everywhere, whole sentences in command lists, one meaning per short flag,
input folders not called OUTPUT, and leaderboard columns that wide characters do not shift."""
from __future__ import annotations

import click
from click.testing import CliRunner

from arena.cli import cli
from tournaments.ratings import _table, display_width


def _commands(group: click.Group, prefix=()):
    for name, command in group.commands.items():
        yield (*prefix, name), command
        if isinstance(command, click.Group):
            yield from _commands(command, (*prefix, name))


def test_dash_h_works_everywhere_and_lists_are_not_cut():
    runner = CliRunner()
    paths = [()] + [path for path, _ in _commands(cli)]
    for path in paths:
        result = runner.invoke(cli, [*path, "-h"], terminal_width=80)
        assert result.exit_code == 0, (path, result.output)
        assert "Usage:" in result.output
        if "Commands:" in result.output:
            assert "..." not in result.output.split("Commands:")[1], (path, result.output)


def test_one_meaning_per_short_flag():
    meaning: dict[str, set[str]] = {}
    for _, command in _commands(cli):
        for param in command.params:
            if isinstance(param, click.Option):
                long = max(param.opts, key=len)
                for opt in param.opts + param.secondary_opts:
                    if len(opt) == 2:
                        meaning.setdefault(opt, set()).add(long)
    clashes = {flag: longs for flag, longs in meaning.items() if len(longs) > 1}
    assert clashes == {}
    assert meaning["-o"] == {"--option"}


def test_input_folders_are_not_named_output():
    runner = CliRunner()
    for path in (["ratings"], ["report"], ["tournament", "replay"]):
        usage = runner.invoke(cli, [*path, "-h"]).output.splitlines()[0]
        assert "OUTPUT" not in usage and "TOURNAMENT_DIR" in usage, usage


def test_wide_characters_keep_the_columns():
    assert display_width("小明") == 4 and display_width("José") == 4
    assert display_width("Jose\u0301") == 4  # a combining accent takes no column
    table = _table(("rank", "entrant", "mu"), [("1", "小明", "25.00"), ("2", "alice", "20.00"),
                                              ("3", "Jose\u0301", "3.00")], right={0, 2})
    lines = table.splitlines()
    ends = {display_width(line) for line in lines}
    assert len(ends) == 1, table  # right-aligned last column: every line ends at the same column
