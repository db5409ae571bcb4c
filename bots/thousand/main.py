"""The heuristic Thousand bot: the play is in strategy.py; ``--boldness X`` scales its bidding."""
import sys

from protocol.sdk import run
from strategy import Strategy

boldness = 1.0
if "--boldness" in sys.argv:
    boldness = float(sys.argv[sys.argv.index("--boldness") + 1])
run(Strategy(boldness).choose)
