"""The heuristic Thousand bot: the play is in strategy.py; ``--boldness X`` scales its bidding
(default 1.0; a tournament's entrant can add it: ``args = ["--boldness", "1.15"]``)."""
import sys

from strategy import Strategy

from protocol.sdk import run

boldness = 1.0
if "--boldness" in sys.argv:
    boldness = float(sys.argv[sys.argv.index("--boldness") + 1])
run(Strategy(boldness).choose)
