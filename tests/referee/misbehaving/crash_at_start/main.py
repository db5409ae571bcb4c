import sys

print("loading my model...", file=sys.stderr)
raise RuntimeError("model file not found")
