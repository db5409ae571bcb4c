import os
import random
import sys
import time

from protocol.sdk import run

CHILDREN, CHUNKS, MiB = 8, 5, 1 << 20

ready, told = os.pipe()
pids = []
for _ in range(CHILDREN):
    pid = os.fork()
    if pid == 0:
        os.close(ready)
        hoard = [b"x" * (16 * MiB) for _ in range(CHUNKS)]  # touched pages: real memory
        os.write(told, b"!")
        time.sleep(3600)
    pids.append(pid)
os.close(told)

holding, finished, deadline = 0, set(), time.monotonic() + 3
while holding + len(finished) < CHILDREN and time.monotonic() < deadline:
    os.set_blocking(ready, False)
    try:
        holding += len(os.read(ready, 64))
    except BlockingIOError:
        pass
    finished.update(pid for pid in pids if pid not in finished and os.waitpid(pid, os.WNOHANG)[0])
    time.sleep(0.01)
alive = sum(1 for pid in pids if pid not in finished and os.waitpid(pid, os.WNOHANG)[0] == 0)
print(f"children holding {CHUNKS * 16} MiB: {alive} of {CHILDREN} ({len(finished)} killed)",
      file=sys.stderr, flush=True)

run(lambda observation, legal: random.choice(legal))
