import os

from protocol.sdk import run


def choose(observation, legal):
    chunk = b"spam" * 16384
    while True:
        os.write(1, chunk)  # the protocol channel, behind the SDK's back


run(choose)
