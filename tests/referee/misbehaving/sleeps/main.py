import time

from protocol.sdk import run


def choose(observation, legal):
    time.sleep(60)

run(choose)
