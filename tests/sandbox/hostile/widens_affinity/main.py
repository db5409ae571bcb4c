import os
import random
import sys

from protocol.sdk import run

print(f"STARTED ON {sorted(os.sched_getaffinity(0))}", file=sys.stderr)
try:
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
except OSError as exc:
    print(f"DENIED {exc.strerror}", file=sys.stderr)
print(f"AFFINITY {sorted(os.sched_getaffinity(0))}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
