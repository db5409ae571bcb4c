"""The resource limits of one bot, with defaults, checks and parsing (docs/sandbox.md).

``Limits`` is what a match (``play_match(limits=...)``) or a tournament config carries. Every
limit applies per bot; ``strict`` and ``sandbox`` choose how much isolation is required.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.bots import DEFAULT_FOLDER_MB
from arena.errors import ArenaError
from arena.options import parse_scalar

# Sandbox levels, strongest first (docs/sandbox.md, "Levels").
BWRAP = "bwrap"                    # namespaces (bubblewrap) + rlimits + own user when root
RLIMITS = "rlimits"                # process group + rlimits + own user (root only), no namespaces
PROCESS_GROUP = "process-group"    # process group + rlimits, runs as the referee's own user
LEVELS = (BWRAP, RLIMITS, PROCESS_GROUP)
AUTO = "auto"


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Limits:
    """Resource limits of one bot process tree; the defaults suit a Python bot playing a table game."""

    memory_mb: int = field(default=1024, metadata=_doc(
        "address space of each process, in MiB (RLIMIT_AS)"))
    cpu_seconds: int = field(default=60, metadata=_doc(
        "CPU seconds the bot may use beyond what its time control gives it (its start, thinking "
        "between its turns, extra threads), all its processes together; each decision it answers "
        "adds its move time, or the time it took if more; the referee counts it at each decision"))
    cpu_ceiling_seconds: int = field(default=3600, metadata=_doc(
        "CPU seconds any one process of the bot may use in a match, whatever its time control "
        "gives it (RLIMIT_CPU, enforced at every moment); at least cpu_seconds"))
    processes: int = field(default=64, metadata=_doc(
        "processes and threads the bot may have at once, sandbox helpers included (RLIMIT_NPROC)"))
    open_files: int = field(default=256, metadata=_doc(
        "open file descriptors per process (RLIMIT_NOFILE)"))
    file_size_mb: int = field(default=64, metadata=_doc(
        "largest file the bot may write, in MiB (RLIMIT_FSIZE)"))
    scratch_mb: int = field(default=64, metadata=_doc(
        "size of the private scratch folder ($TMPDIR, $HOME), in MiB"))
    folder_mb: int = field(default=DEFAULT_FOLDER_MB, metadata=_doc(
        "the most the files of a bot's folder may hold, in MiB; a bigger folder is refused "
        "before any match starts"))
    strict: bool = field(default=False, metadata=_doc(
        "refuse to run a bot without full isolation (bubblewrap) instead of falling back"))
    sandbox: str = field(default=AUTO, metadata=_doc(
        "'auto' (the strongest level available) or one of: " + ", ".join(LEVELS)))
    zygote: bool = field(default=True, metadata=_doc(
        "start each match's bot from a fork server prepared once per bot (same isolation, a "
        "fraction of the cost; root referees only), instead of a cold start through bubblewrap"))

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("int", int):
                if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                    raise ArenaError(f"limit {f.name}={value!r}: must be a positive whole number")
        for name in ("strict", "zygote"):
            if not isinstance(getattr(self, name), bool):
                raise ArenaError(f"limit {name}={getattr(self, name)!r}: must be true or false")
        if self.cpu_ceiling_seconds < self.cpu_seconds:
            raise ArenaError(f"limit cpu_ceiling_seconds={self.cpu_ceiling_seconds}: must be at least "
                             f"cpu_seconds={self.cpu_seconds}")
        if self.sandbox not in (AUTO, *LEVELS):
            raise ArenaError(f"limit sandbox={self.sandbox!r}: must be 'auto' or one of "
                             f"{', '.join(LEVELS)}")
        if self.strict and self.sandbox not in (AUTO, BWRAP):
            raise ArenaError(f"limit strict=true asks for full isolation, but sandbox={self.sandbox!r} "
                             "asks for less")

    @staticmethod
    def from_mapping(values: Mapping[str, Any], base: Limits | None = None) -> Limits:
        """Limits from a mapping (a TOML ``[limits]`` table, CLI values); unset keys keep ``base``."""
        base = base or Limits()
        known = {f.name: f for f in dataclasses.fields(Limits)}
        changes: dict[str, Any] = {}
        for key, raw in values.items():
            if key not in known:
                raise ArenaError(f"unknown limit {key!r}; known limits: {', '.join(known)}")
            changes[key] = _coerce(key, raw, known[key].type)
        return dataclasses.replace(base, **changes)

    @staticmethod
    def parse(text: str, base: Limits | None = None) -> Limits:
        """``"memory_mb=512,cpu_seconds=10,strict=true"`` (the CLI form); unset keys keep ``base``."""
        values: dict[str, str] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, sep, value = part.partition("=")
            if not sep:
                raise ArenaError(f"limits {text!r}: expected key=value pairs separated by commas, "
                                 f"e.g. 'memory_mb=512,cpu_seconds=10'")
            values[key.strip()] = value.strip()
        return Limits.from_mapping(values, base)

    def describe(self) -> str:
        """One line for logs and reports."""
        return (f"memory {self.memory_mb} MiB, cpu {self.cpu_seconds} s + clock "
                f"(ceiling {self.cpu_ceiling_seconds} s), {self.processes} processes, "
                f"{self.open_files} files, file size {self.file_size_mb} MiB, "
                f"scratch {self.scratch_mb} MiB, folder {self.folder_mb} MiB, "
                f"sandbox {self.sandbox}{', strict' if self.strict else ''}")


def _coerce(key: str, raw: Any, tp: Any) -> Any:
    base = {"bool": bool, "int": int}.get(tp, tp) if isinstance(tp, str) else tp
    if base not in (bool, int):
        return str(raw)
    try:
        return parse_scalar(raw, base)
    except ValueError:
        wanted = "true or false" if base is bool else "a positive whole number"
        raise ArenaError(f"limit {key}={raw!r}: must be {wanted}") from None
