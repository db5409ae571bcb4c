import os
import random
import sys

from protocol.sdk import run

for target in sys.argv[1:]:
    try:
        if os.path.isdir(target):
            got = sorted(os.listdir(target))
        else:
            with open(target, "rb") as f:
                got = f.read(200)
        print(f"READ {target}: {got!r}", file=sys.stderr)
    except OSError as exc:
        print(f"DENIED {target}: {exc.strerror}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
