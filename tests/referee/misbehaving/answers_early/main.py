import sys

from protocol.sdk import read_message, run
from protocol.wire import encode

read_message(sys.stdin.buffer)
ready = encode({"type": "ready", "protocol": 1})
ahead = b"".join(encode({"type": "action", "action": "6-6:L"}) for _ in range(20))
sys.stdout.buffer.write(ready + ahead)  # one write: all of it is in the pipe before any act
sys.stdout.buffer.flush()
run(lambda observation, legal: legal[0])
