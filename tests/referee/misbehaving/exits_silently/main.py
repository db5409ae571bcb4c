import sys

from protocol.sdk import run

run(lambda observation, legal: sys.exit(0))
