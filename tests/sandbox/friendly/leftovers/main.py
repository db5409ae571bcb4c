"""Looks for anything an earlier (or concurrent) match of this bot could have left behind: in
memory (preloaded modules, builtins, the SDK's state), in the environment, in its scratch folder,
/tmp, /dev/shm; reports it on stderr with who it is; leaves the same marks; plays at random.
It imports arena's engines too, so that its fork server preloads them: marks on them must not
carry over either."""
import builtins
import os
import random
import sys

engines = "preloaded" if "arena.games" in sys.modules else "imported"
import arena.games  # noqa: E402
import protocol.sdk  # noqa: E402
from protocol.sdk import run  # noqa: E402

FILES = [os.path.join(os.environ.get("HOME", "/tmp"), "mark"), "/tmp/mark", "/dev/shm/mark",
         os.path.join(os.environ.get("TMPDIR", "/tmp"), "mark2")]
found = []
for owner, name in ((random, "random"), (sys, "sys"), (builtins, "builtins"), (protocol.sdk, "sdk"),
                    (arena.games, "engines")):
    if hasattr(owner, "ARENA_MARK"):
        found.append(f"module {name}")
if "arena_mark" in sys.modules:
    found.append("sys.modules")
if protocol.sdk.hello:
    found.append("sdk hello")
if "arena_mark" in arena.games.GAMES:
    found.append("engine registry")
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
      f"userns={userns} engines={engines} ns={namespaces}", file=sys.stderr)
sys.stderr.flush()

for owner in (random, sys, builtins, protocol.sdk, arena.games):
    owner.ARENA_MARK = 1
arena.games.GAMES["arena_mark"] = arena.games.GAMES["block"]
sys.modules["arena_mark"] = sys
protocol.sdk.hello["mark"] = 1
os.environ["ARENA_MARK"] = "1"
os.putenv("ARENA_MARK", "1")
for path in FILES:
    with open(path, "w") as f:
        f.write("left by an earlier match")

run(lambda observation, legal: random.choice(legal))
