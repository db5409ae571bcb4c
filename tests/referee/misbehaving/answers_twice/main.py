import sys

from protocol.sdk import read_message, write_message
from protocol.wire import encode

while True:
    message = read_message(sys.stdin.buffer)
    if message is None or message["type"] == "end":
        break
    if message["type"] == "hello":
        write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
    elif message["type"] == "act":
        answer = encode({"type": "action", "action": message["legal"][0]})
        sys.stdout.buffer.write(answer + answer)  # one write: the second is there at once
        sys.stdout.buffer.flush()
