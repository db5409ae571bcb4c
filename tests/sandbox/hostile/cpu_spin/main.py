from protocol.sdk import run


def choose(observation, legal):
    while True:
        pass


run(choose)
