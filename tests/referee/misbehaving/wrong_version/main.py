import sys

from protocol.sdk import read_message, write_message

read_message(sys.stdin.buffer)
write_message(sys.stdout.buffer, {"type": "ready", "protocol": 2})
read_message(sys.stdin.buffer)
