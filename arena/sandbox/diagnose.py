"""Which limit, if any, most likely ended a bot: a short hint for its match record."""
from __future__ import annotations

import signal

from arena.sandbox.limits import Limits

# (words in the bot's stderr, hint); the one found nearest the end wins. {l} is the Limits in force.
_STDERR_SIGNS = (
    (("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory",
      "OutOfMemoryError", "failed to allocate"),
     "it probably hit its memory limit of {l.memory_mb} MiB per process"),
    (("File too large",), "it hit its file size limit of {l.file_size_mb} MiB"),
    (("No space left on device",), "its scratch folder is full ({l.scratch_mb} MiB)"),
    (("Too many open files",), "it hit its limit of {l.open_files} open files"),
    (("can't start new thread", "Resource temporarily unavailable", "fork: retry"),
     "it probably hit its limit of {l.processes} processes and threads"),
    (("Read-only file system",), "its folder is read-only; it may write only to $TMPDIR"),
    (("Network is unreachable",), "bots have no network"),
)


def exit_signal(returncode: int | None, level: str) -> int | None:
    """The signal that ended the bot, if any. Under bubblewrap a signal N shows as exit code 128+N."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    if level == "bwrap" and 128 < returncode < 128 + 65:
        return returncode - 128
    return None


def explain(returncode: int | None, stderr: str, limits: Limits, level: str,
            scratch_exceeded: bool = False, oom_killed: bool = False) -> str:
    """A hint such as ``"CPU time ceiling of 3600 s per process reached (SIGXCPU)"``, or ``""`` if
    nothing points to a limit."""
    if scratch_exceeded:
        return f"its scratch folder went over {limits.scratch_mb} MiB and it was stopped"
    if oom_killed:
        return (f"its processes together went over its memory limit of {limits.memory_mb} MiB "
                "and the kernel killed some")
    sig = exit_signal(returncode, level)
    if sig == signal.SIGXCPU:
        return f"CPU time ceiling of {limits.cpu_ceiling_seconds} s per process reached (SIGXCPU)"
    if sig == signal.SIGXFSZ:
        return f"file size limit of {limits.file_size_mb} MiB reached (SIGXFSZ)"
    tail = stderr[-4096:]
    latest, found = -1, ""  # the sign nearest the end of stderr is the one that ended the bot
    for words, hint in _STDERR_SIGNS:
        at = max(tail.rfind(w) for w in words)
        if at > latest:
            latest, found = at, hint.format(l=limits)
    if found:
        return found
    if sig is not None:
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        if sig == signal.SIGKILL:
            return (f"killed by SIGKILL: the hard CPU ceiling ({limits.cpu_ceiling_seconds + 1} s) "
                    "or the kernel's out-of-memory killer")
        return f"killed by {name}"
    return ""
