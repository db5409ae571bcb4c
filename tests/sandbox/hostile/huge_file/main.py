import os
import sys

from protocol.sdk import run

MiB = 1 << 20
CHUNK = b"x" * MiB


def fill(path, limit):
    """Write up to `limit` bytes; return how many were written and the error that stopped it."""
    written = 0
    with open(path, "wb", buffering=0) as f:
        while written < limit:
            try:
                written += f.write(CHUNK)
            except OSError as exc:
                return written, exc
    return written, None


def choose(observation, legal):
    scratch = os.environ["TMPDIR"]
    one, error = fill(os.path.join(scratch, "huge"), 1024 * MiB)
    print(f"one file: {one} bytes, then {error!r}", file=sys.stderr, flush=True)
    part = max(MiB, one - MiB)
    total = one
    for i in range(64):  # at most 64 files: a broken sandbox must not fill the disk
        written, error = fill(os.path.join(scratch, f"part{i}"), part)
        total += written
        if error is not None:
            print(f"all files: {total} bytes, then {error!r}", file=sys.stderr, flush=True)
            raise error
    print(f"all files: {total} bytes, no limit", file=sys.stderr, flush=True)
    return legal[0]


run(choose)
