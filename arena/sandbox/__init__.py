"""How a bot process is started and contained (docs/sandbox.md).

Bots are code from students and strangers. Each one runs with its own folder read-only, a private
size-capped scratch folder, no network, no view of other processes, resource limits, and (when the
referee is root) a user id of its own; everything it starts dies with its match.

The referee uses :func:`start` (``start(bot, limits) -> BotProcess``), ``BotProcess.proc`` (a
``Popen`` with binary pipes), ``BotProcess.level`` (the sandbox level in force, recorded with the
match) and ``BotProcess.kill()``. Levels, strongest first:

``bwrap``
    Linux namespaces through bubblewrap: only ``/usr``, a few files of ``/etc``, the bot's folder
    (at ``/bot``), the SDK (at ``/opt/arena/sdk``) and a tmpfs scratch (``/tmp``) are visible;
    no network, a private PID namespace; plus the rlimits and user of the next level.
``rlimits``
    No bubblewrap, referee is root: process group, rlimits, a user id of its own.
``process-group``
    No bubblewrap, referee is not root: process group and rlimits, as the referee's user.

Anything below ``bwrap`` is announced once with a warning; ``Limits(strict=True)`` refuses it.

Modules: :mod:`.limits` (``Limits``), :mod:`.levels` (what the machine offers, fallback, strict),
:mod:`.command` (the bubblewrap command line, rlimits, user switch), :mod:`.launch` (start, kill),
:mod:`.users` (a uid per bot), :mod:`.cgroups` (a memory cap on the whole bot, where possible),
:mod:`.files` (SDK, bot folder, scratch), :mod:`.diagnose` (which limit ended a bot),
:mod:`.cputime` (the CPU a bot has used, which the referee holds against its budget).
"""
from __future__ import annotations

from arena.sandbox.command import BOT_MOUNT, SCRATCH_MOUNT, SDK_MOUNT
from arena.sandbox.diagnose import explain
from arena.sandbox.launch import BotProcess, kill_all, start
from arena.sandbox.levels import Support, reset, support
from arena.sandbox.limits import AUTO, BWRAP, LEVELS, PROCESS_GROUP, RLIMITS, Limits

__all__ = [
    "AUTO", "BOT_MOUNT", "BWRAP", "LEVELS", "PROCESS_GROUP", "RLIMITS", "SCRATCH_MOUNT", "SDK_MOUNT",
    "BotProcess", "Limits", "Support", "explain", "kill_all", "reset", "start", "support",
]
