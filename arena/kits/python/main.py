"""{{name}}: an arena bot for {{game}}, in Python. arena runs `python3 main.py`.

The SDK (protocol.sdk, on the PYTHONPATH of every bot arena starts) does the framing, the
handshake and the loop; print() goes to stderr, the bot's log (stdout belongs to the protocol).
Replace choose() with your own strategy: see README.md for the observation and the actions.
"""
import sys

from protocol import sdk


def choose(observation, legal):
    """The rule to replace: play the first legal action.

    ``observation`` is a dict (README.md lists its fields: observation["{{field}}"] and so on);
    ``legal`` is a list of strings, never empty. Return one of the strings of ``legal``, exactly.
    """
    action = legal[0]
    print(f"decision: {action} (of {len(legal)} legal)", file=sys.stderr)
    # To say why, for people (kept in the match record, shown by `arena play` and the replay;
    # at most 256 bytes), return the action with a note:
    #     return action, "the first legal action"
    return action


if __name__ == "__main__":
    sdk.run(choose, name="{{name}}")
