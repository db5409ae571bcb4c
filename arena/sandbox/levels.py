"""Which sandbox level this machine offers, probed once per referee process, and which one a bot
gets: ``bwrap`` if bubblewrap can create its namespaces here, else ``rlimits`` (root) or
``process-group``, announced once with a warning, or refused in strict mode."""
from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass

from arena.errors import ArenaError
from arena.sandbox import users
from arena.sandbox.command import SYSTEM_PATH, bwrap_argv, preexec
from arena.sandbox.limits import AUTO, BWRAP, PROCESS_GROUP, RLIMITS, Limits

log = logging.getLogger("arena.sandbox")

BWRAP_PROGRAM = "bwrap"  # a name looked up on SYSTEM_PATH, or a path; tests point it elsewhere


@dataclass(frozen=True)
class Support:
    """What this machine offers: the best level, and what full isolation lacks (if it does)."""

    best: str
    bwrap: str | None = None
    bwrap_flags: frozenset[str] = frozenset()
    missing: str = ""


_support: Support | None = None
_support_lock = threading.Lock()
_warned: set[str] = set()


def support() -> Support:
    """The sandbox support of this machine, probed once per process."""
    global _support
    with _support_lock:
        if _support is None:
            _support = _detect()
        return _support


def reset() -> None:
    """Forget the probe (and the warnings given): the next start probes again."""
    global _support
    with _support_lock:
        _support = None
        _warned.clear()


def _find_bwrap() -> str | None:
    if "/" in BWRAP_PROGRAM:
        return BWRAP_PROGRAM if os.access(BWRAP_PROGRAM, os.X_OK) else None
    return shutil.which(BWRAP_PROGRAM, path=SYSTEM_PATH + ":/usr/sbin:/sbin")


def _detect() -> Support:
    fallback = RLIMITS if users.is_root() else PROCESS_GROUP
    if not sys.platform.startswith("linux"):
        return Support(fallback, missing="bubblewrap needs Linux")
    path = _find_bwrap()
    if path is None:
        return Support(fallback, missing="bubblewrap (bwrap) is not installed "
                                         "(Debian/Ubuntu: apt-get install bubblewrap)")
    try:
        usage = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return Support(fallback, missing=f"bubblewrap ({path}) does not run: {exc}")
    flags = frozenset(f for f in ("--size", "--disable-userns") if f in usage)
    # The probe: the same namespaces and user switch as a real bot, running `true`.
    limits = Limits()
    user = users.allocate() if users.is_root() else None
    try:
        probe = subprocess.run(
            bwrap_argv(path, flags, limits, None, None, ["true"]), env={"PATH": SYSTEM_PATH},
            cwd="/", capture_output=True, text=True, timeout=10,
            preexec_fn=preexec(limits, user.uid if user else None, BWRAP))
        failure = probe.stderr.strip().splitlines()[-1:] if probe.returncode else None
    except (OSError, subprocess.SubprocessError) as exc:
        failure = [str(exc)]
    finally:
        if user is not None:
            user.release(clean=users.wait_gone(user.uid, 2.0))
    if failure is not None:
        return Support(fallback, missing=f"bubblewrap ({path}) cannot create its namespaces here: "
                                         f"{failure[0] if failure else 'no error message'}")
    return Support(BWRAP, path, flags)


def choose_level(limits: Limits) -> str:
    found = support()
    wanted = limits.sandbox
    if wanted == AUTO:
        if found.best != BWRAP:
            if limits.strict:
                raise ArenaError(f"strict sandbox: bots must run with full isolation, but "
                                 f"{found.missing}")
            _warn_once(found)
        return found.best
    if wanted == BWRAP and found.best != BWRAP:
        raise ArenaError(f"the sandbox level 'bwrap' was asked for, but {found.missing}")
    if wanted == RLIMITS and not users.is_root():
        raise ArenaError("the sandbox level 'rlimits' runs each bot as a user of its own, "
                         "which needs a referee running as root; use 'process-group'")
    if wanted == PROCESS_GROUP and users.is_root():
        raise ArenaError("the sandbox level 'process-group' would run bots as root; "
                         "use 'rlimits' or 'bwrap'")
    return wanted


def _warn_once(found: Support) -> None:
    if found.best in _warned:
        return
    _warned.add(found.best)
    if found.best == RLIMITS:
        what = ("They run in their own process group, with resource limits and a user id of their "
                "own, but they can reach the network and read every world-readable file")
    else:
        what = ("They run in their own process group with resource limits, but as YOUR user: they "
                "can read and change your files, reach the network, and outlive their match")
    log.warning("arena: bots run WITHOUT full isolation (sandbox level %r) because %s. %s. "
                "Install bubblewrap, or set the limit strict=true to refuse to run like this "
                "(docs/sandbox.md).", found.best, found.missing, what)
