import sys

from protocol.sdk import read_message, write_message

read_message(sys.stdin.buffer)
write_message(sys.stdout.buffer, {"type": "ready", "protocol": True})
read_message(sys.stdin.buffer)
