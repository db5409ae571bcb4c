from protocol.sdk import run

run(lambda observation, legal: 0)
