from protocol.sdk import run

run(lambda observation, legal: "6-6:Z")
