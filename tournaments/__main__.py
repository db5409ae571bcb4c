"""``python -m tournaments``: the tournament commands without the main ``arena`` CLI.

The ``arena`` command registers the same ``COMMANDS``; this entry exists for scripts and tests
that want them alone.
"""
from __future__ import annotations

import sys

import click

from arena.errors import ArenaError
from tournaments.cli import COMMANDS


@click.group()
def main() -> None:
    """Tournaments: run, replay, ratings, demo."""


for _command in COMMANDS:
    main.add_command(_command)


def entry() -> None:
    try:
        main()
    except ArenaError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    entry()
