import ctypes
import os
import random
import sys

from protocol.sdk import run

tag = f"arena-hostile-leftover-{os.getuid()}"
for folder in ("/tmp", "/var/tmp", "/dev/shm"):
    try:
        with open(os.path.join(folder, tag), "w") as f:
            f.write("remember me\n")
        os.chmod(os.path.join(folder, tag), 0o644)
        print(f"WROTE {folder}/{tag}", file=sys.stderr)
    except OSError as exc:
        print(f"DENIED {folder}: {exc.strerror}", file=sys.stderr)
try:
    os.makedirs(f"/tmp/{tag}-dir/deeper")
    with open(f"/tmp/{tag}-dir/deeper/big", "wb") as f:
        f.write(b"x" * 1000)
    os.symlink("/etc/hostname", f"/tmp/{tag}-link")
    os.mkfifo(f"/tmp/{tag}-fifo")
    print("WROTE tree", file=sys.stderr)
except OSError as exc:
    print(f"DENIED tree: {exc.strerror}", file=sys.stderr)
try:
    libc = ctypes.CDLL(None, use_errno=True)
    segment = libc.shmget(0, 4096, 0o1000 | 0o644)  # IPC_PRIVATE, IPC_CREAT
    print(f"SHM {segment}", file=sys.stderr)
except OSError as exc:
    print(f"DENIED shm: {exc}", file=sys.stderr)
sys.stderr.flush()

run(lambda observation, legal: random.choice(legal))
