import sys
import time

from protocol.sdk import write_message

write_message(sys.stdout.buffer, {"type": "ready", "protocol": 1})
time.sleep(60)
