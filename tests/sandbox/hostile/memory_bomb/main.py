from protocol.sdk import run

hoard = []


def choose(observation, legal):
    while True:
        hoard.append(b"x" * (16 << 20))  # touched pages, not just reserved ones


run(choose)
