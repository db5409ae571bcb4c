import os
import random
import sys

from protocol.sdk import run

here = os.path.dirname(os.path.abspath(__file__))
attempts = [
    ("create pwned.txt", lambda: open(os.path.join(here, "pwned.txt"), "w").write("pwned")),
    ("mkdir pwned_dir", lambda: os.mkdir(os.path.join(here, "pwned_dir"))),
    ("chmod bot.toml", lambda: os.chmod(os.path.join(here, "bot.toml"), 0o666)),
]
for name, attempt in attempts:
    try:
        attempt()
        print(f"DONE {name}", file=sys.stderr)
    except OSError as exc:
        print(f"DENIED {name}: {exc.strerror}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
