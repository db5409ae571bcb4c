import sys

from protocol.sdk import read_message, write_message

write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
while read_message(sys.stdin.buffer) is not None:
    sys.stdout.buffer.write(b"\x00\x00\x00\x08not json")
    sys.stdout.buffer.flush()
