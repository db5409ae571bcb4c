"""Looks for anything an earlier (or concurrent) match of this bot could have left behind: in
memory (preloaded modules, builtins, the SDK's state), in the environment, in its scratch folder,
/tmp, /dev/shm; reports it on stderr with who it is; leaves the same marks; plays at random."""
import builtins
import os
import random
import sys

import protocol.sdk
from protocol.sdk import run

FILES = [os.path.join(os.environ.get("HOME", "/tmp"), "mark"), "/tmp/mark", "/dev/shm/mark",
         os.path.join(os.environ.get("TMPDIR", "/tmp"), "mark2")]
found = []
for owner, name in ((random, "random"), (sys, "sys"), (builtins, "builtins"), (protocol.sdk, "sdk")):
    if hasattr(owner, "ARENA_MARK"):
        found.append(f"module {name}")
if "arena_mark" in sys.modules:
    found.append("sys.modules")
if protocol.sdk.hello:
    found.append("sdk hello")
if "ARENA_MARK" in os.environ or os.getenv("ARENA_MARK"):
    found.append("environment")
found += [f"file {path}" for path in FILES if os.path.exists(path)]
for entry in ("/tmp", "/dev/shm"):
    found += [f"entry {entry}/{name}" for name in os.listdir(entry)]
namespaces = " ".join(os.readlink(f"/proc/self/ns/{kind}") for kind in ("pid", "net", "mnt", "ipc", "uts"))
processes = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
import ctypes  # noqa: E402
userns = "allowed" if ctypes.CDLL(None).unshare(0x10000000) == 0 else "denied"  # a nested one
print(f"FOUND {found}", file=sys.stderr)
print(f"WHO uid={os.getuid()} pid={os.getpid()} processes={processes} rng={random.random()!r} "
      f"userns={userns} ns={namespaces}", file=sys.stderr)
sys.stderr.flush()

for owner in (random, sys, builtins, protocol.sdk):
    owner.ARENA_MARK = 1
sys.modules["arena_mark"] = sys
protocol.sdk.hello["mark"] = 1
os.environ["ARENA_MARK"] = "1"
os.putenv("ARENA_MARK", "1")
for path in FILES:
    with open(path, "w") as f:
        f.write("left by an earlier match")

run(lambda observation, legal: random.choice(legal))
