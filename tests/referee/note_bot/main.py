"""Plays the first legal action and sends a note with it, by the decision number modulo 5: a plain
reason, one too long (400 bytes of 'é'), one with control characters, a number, and none."""
from protocol import sdk

NOTES = {0: "why: decision {}", 1: "é" * 200, 2: "a\x1b[31mred\nline\x07", 3: 7}


def choose(observation, legal):
    number = sdk.act["decision"]
    note = NOTES.get(number % 5)
    if note is None:
        return legal[0]  # an action as before notes: no note field at all
    return legal[0], note.format(number) if isinstance(note, str) else note


sdk.run(choose)
