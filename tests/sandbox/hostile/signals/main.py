import os
import random
import signal
import sys

from protocol.sdk import run

targets = [("parent", os.getppid()), ("parent's group", -os.getpgid(os.getppid()))]
targets += [(f"pid {pid}", int(pid)) for pid in sys.argv[1:]]
targets += [("pid 1", 1), ("everyone", -1)]
for name, pid in targets:
    try:
        os.kill(pid, signal.SIGKILL)
        print(f"SENT to {name} ({pid})", file=sys.stderr)
    except OSError as exc:
        print(f"FAILED {name} ({pid}): {exc.strerror}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
