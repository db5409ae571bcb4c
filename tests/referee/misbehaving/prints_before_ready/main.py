import sys

from protocol.sdk import read_message, write_message

read_message(sys.stdin.buffer)
sys.stdout.write("debug: starting up\n")
sys.stdout.flush()
write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
while read_message(sys.stdin.buffer) is not None:
    pass
