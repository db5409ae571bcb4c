"""Help texts of the ``arena`` commands: ``-h`` everywhere, and command lists in whole sentences
(click cuts a command's summary at the terminal's width with "...")."""
from __future__ import annotations

import click

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def first_sentence(text: str) -> str:
    """The first sentence of a help text, whole (joined across its lines)."""
    flat = " ".join(text.split("\n\n")[0].split())
    end = flat.find(". ")
    return flat[:end + 1] if end >= 0 else flat


class SentenceGroup(click.Group):
    """A command group that lists its commands with their whole first sentences."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            rows.append((name, first_sentence(command.help or command.short_help or "")))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
