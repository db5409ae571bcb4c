import struct
import sys

from protocol.sdk import read_message, write_message

write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
read_message(sys.stdin.buffer)
sys.stdout.buffer.write(struct.pack(">I", 100_000_000))
chunk = b"\x90" * 1_000_000
for _ in range(100):
    sys.stdout.buffer.write(chunk)
