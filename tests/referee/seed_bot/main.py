"""Writes the seed of its hello to stderr, then plays the first legal action."""
import sys

from protocol import sdk


def choose(observation, legal):
    if not getattr(choose, "said", False):
        print(f"seed={sdk.hello.get('seed')!r} seat={sdk.hello['seat']}", file=sys.stderr)
        choose.said = True
    return legal[0]


sdk.run(choose)
