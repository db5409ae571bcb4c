import sys
import time

from protocol.sdk import read_message

read_message(sys.stdin.buffer)
time.sleep(60)
