import os

from protocol.sdk import run


def choose(observation, legal):
    chunk = b"flood " * 10000 + b"\n"
    while True:
        os.write(2, chunk)


run(choose)
