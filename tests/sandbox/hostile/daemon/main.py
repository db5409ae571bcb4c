import os
import random
import sys

from protocol.sdk import run

MARKER = "arena-hostile-daemon"
DAEMON = """
import signal, time
for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(s, signal.SIG_IGN)
while True:
    time.sleep(1)
"""

ready, told = os.pipe()
child = os.fork()
if child == 0:  # the classic double fork: new session, orphaned grandchild, no shared pipes
    os.setsid()
    if os.fork() == 0:
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.write(told, b"up")
        os.execv(sys.executable, [sys.executable, "-c", DAEMON, MARKER])
    os._exit(0)
os.waitpid(child, 0)
os.close(told)
print(f"daemon started: {os.read(ready, 2)!r}", file=sys.stderr, flush=True)

run(lambda observation, legal: random.choice(legal))
