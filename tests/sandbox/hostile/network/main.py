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
try:  # its own loopback is up: a bot may talk to processes of its own
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname(), timeout=1):
            print("OWN LOOPBACK UP", file=sys.stderr)
except OSError as exc:
    print(f"OWN LOOPBACK FAILED: {exc}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
