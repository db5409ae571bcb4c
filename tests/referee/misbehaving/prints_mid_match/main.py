import sys

from protocol.sdk import read_message, write_message

asked = 0
while True:
    message = read_message(sys.stdin.buffer)
    if message is None or message["type"] == "end":
        break
    if message["type"] == "hello":
        write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
    elif message["type"] == "act":
        asked += 1
        if asked == 2:
            sys.stdout.write(f"legal: {message['legal']}\n")
            sys.stdout.flush()
        write_message(sys.stdout.buffer, {"type": "action", "action": message["legal"][0]})
