import sys

from protocol.sdk import read_message, write_message

while True:
    message = read_message(sys.stdin.buffer)
    if message is None or message["type"] == "end":
        break
    if message["type"] == "hello":
        write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
    elif message["type"] == "act":
        write_message(sys.stdout.buffer, {"type": "action", "action": message["legal"][0],
                                          "decision": message["decision"] - 1})
