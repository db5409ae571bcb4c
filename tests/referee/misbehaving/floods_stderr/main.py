import random
import sys

from protocol.sdk import run

line = "debug " * 1000 + "\n"

def choose(observation, legal):
    for _ in range(200):
        sys.stderr.write(line)
    sys.stderr.write("last words of this move\n")
    return random.choice(legal)

run(choose)
