"""The contest server: ``arena serve CONFIG`` (docs/serve.md).

Each author hands in from a browser or with ``arena submit``, and reads their own results on a
page of their own; everyone sees the leaderboard. Behind the web pages runs the same loop as
``arena tournament run --watch`` (``tournaments.watch``): check, admit, play, rate, render, one
owner of the store. The package sits above ``reports`` (docs/architecture.md):

- ``db``: the authors (a hash of each one's secret link) and their uploads, in a SQLite file of
  its own beside the store (``OUTPUT/contest.sqlite``), which ``arena contest invite`` writes
  while the server runs;
- ``uploads``: an uploaded archive or source file made into a bot folder, safely;
- ``runner``: the contest loop, its check queue and the teacher's actions;
- ``app``: the web pages (Starlette, served by uvicorn);
- ``cli``: ``arena serve``, ``arena contest invite``, ``arena submit``.
"""
