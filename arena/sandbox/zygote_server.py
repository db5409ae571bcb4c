"""The fork server of one bot (docs/sandbox.md, "The fork server"): run by the bots' own
``/usr/bin/python3`` as root, started and driven by :mod:`arena.sandbox.zygote`. Standard library
only; it never imports the referee and never runs the bot's code.

Once, at start: a mount namespace of its own whose root is a read-only tmpfs showing only what a
bot may see (``/usr`` and its links, a few files of ``/etc``, the bot's folder at ``/bot``, the SDK
at ``/opt/arena/sdk``, a small ``/dev``), then the SDK and the usual standard modules imported.

Per match, on request (a JSON message with four descriptors: the bot's stdin, stdout, stderr and
a status pipe), one process, B, cloned straight into fresh mount, PID, network, IPC and UTS
namespaces, PID 1 there: it joins the bot's memory cgroup and a fresh cgroup namespace, brings the
loopback up, mounts a fresh size-capped tmpfs on ``/tmp`` and ``/dev/shm`` owned by the bot's uid
and its own ``/proc``, sets the rlimits and cores, drops to the bot's uid and into a user
namespace of its own that maps only that uid and allows no nested one (no capabilities,
``no_new_privs``), tells the server it is ready, and then:

- a Python bot (``python3 SCRIPT``): B runs the script itself, in this already-loaded interpreter
  (every other descriptor closed, a clean environment). The bot is PID 1 of its namespace: one
  copy of the interpreter per match instead of two, which is most of what a fork costs. Since the
  kernel spares a namespace's PID 1 the signals it has no handler for, the CPU limit's ``SIGXCPU``
  gets one that ends the bot as the signal would (exit status 128 + N, as bubblewrap reports it);
  the hard limit's ``SIGKILL`` ends it regardless.
- any other command: B forks C, which ``exec``s it in a session of its own, and B reaps orphans
  until C ends and exits with C's status (a signal N as 128 + N, as bubblewrap does).

When PID 1 exits, the kernel kills whatever is left inside.

The server itself holds no bot state: a child is a fresh copy of a process that never ran a bot.
"""
import _signal  # signal.signal without its enum wrapping, which a child pays for in page copies
import atexit
import builtins
import ctypes
import io
import json
import os
import resource
import selectors
import signal
import socket
import struct
import sys
import types
from importlib import machinery

BOT_MOUNT = "/bot"
SDK_MOUNT = "/opt/arena/sdk"
SCRATCH = "/tmp"

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET = 0x08000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
SYS_PIVOT_ROOT, SYS_CLONE = 155, 56  # x86_64
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS = 1, 4, 38
CLONE_NEWUSER = 0x10000000
PR_CAPBSET_DROP = 24
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
SIOCSIFFLAGS, IFF_UP = 0x8914, 1
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
# Modules bots commonly import, loaded once here instead of once per match (no bot code runs).
PRELOAD = ("resource", "random", "math", "itertools", "collections", "functools", "json", "time", "heapq",
           "bisect", "copy", "dataclasses", "typing", "struct", "io", "traceback")

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for _name in ("prctl", "capset", "socket", "ioctl"):  # looked up once here: in a child, a first
    getattr(libc, _name)                                # lookup makes objects, paid in page copies
after_fork_child = ctypes.pythonapi.PyOS_AfterFork_Child
CAP_HEADER, CAP_DATA = ctypes.c_uint32 * 2, ctypes.c_uint32 * 6  # capset(2)'s; types made once here


def check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def mount(source, target, fstype, flags, data=None):
    check(libc.mount(source.encode() if source else None, target.encode(),
                     fstype.encode() if fstype else None, ctypes.c_ulong(flags),
                     data.encode() if data else None), f"mount {target}")


def ro_bind(source, target):
    mount(source, target, None, MS_BIND | MS_REC)
    mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def build_root(config):
    """A private mount namespace whose root shows only what a bot may see."""
    check(libc.unshare(CLONE_NEWNS), "unshare mount namespace")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    root = config["root"]
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")

    def path(p):
        return root + p

    for folder in ("/usr", "/etc", "/proc", "/tmp", "/dev", "/opt/arena/sdk", BOT_MOUNT):
        os.makedirs(path(folder), exist_ok=True)
    ro_bind("/usr", path("/usr"))
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        here = "/" + name
        if os.path.islink(here):
            os.symlink(os.readlink(here), path(here))
        elif os.path.isdir(here):
            os.makedirs(path(here))
            ro_bind(here, path(here))
    for entry in config["etc"]:
        if os.path.isdir(entry):
            os.makedirs(path(entry))
        else:
            open(path(entry), "w").close()
        ro_bind(entry, path(entry))
    ro_bind(config["sdk"], path(SDK_MOUNT))
    ro_bind(config["bot"], path(BOT_MOUNT))
    mount("tmpfs", path("/dev"), "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for name in DEVICES:
        open(path("/dev/" + name), "w").close()
        mount("/dev/" + name, path("/dev/" + name), None, MS_BIND)
    os.makedirs(path("/dev/shm"))
    for link, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, path("/dev/" + link))
    mount(None, path("/dev"), None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC)
    cgroup_fds = [os.open(p, os.O_RDONLY | os.O_DIRECTORY) for p in config["cgroups"]]
    proc_fd = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)
    os.chdir(root)
    check(libc.syscall(SYS_PIVOT_ROOT, b".", b"."), "pivot_root")
    check(libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    return cgroup_fds, proc_fd


def preload(extra):
    """The standard modules bots commonly import, the SDK, and ``extra`` (arena's engines, for a
    bot that imports them): imported once here instead of once per match. Only arena's own code
    and the standard library run here, never the bot's."""
    import importlib
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass
    for name in ("msgpack", "protocol", "protocol.sdk", *extra):
        try:
            __import__(name)
        except Exception:  # noqa: BLE001 - an import runs code; a bot without the SDK still runs
            pass


# The bot's own Python files, compiled here once (compiling runs none of their code) instead of in
# every match: a bot's folder is read-only and bytecode is never written there, so without this
# each start compiles every module the bot imports (a few ms for a bot of several files).
# path -> (mtime in ns, size, code object); a file changed since is compiled again, as usual.
CODE: dict[str, tuple[int, int, types.CodeType]] = {}
PRECOMPILE_FILES, PRECOMPILE_BYTES = 200, 1 << 20  # at most; the rest is compiled by the bot


def precompile():
    budget = PRECOMPILE_BYTES
    for top, dirs, names in os.walk(BOT_MOUNT):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(n for n in names if n.endswith(".py")):
            path = os.path.join(top, name)
            try:
                st = os.stat(path)
                if len(CODE) >= PRECOMPILE_FILES:
                    return
                if st.st_size > budget:
                    continue
                with open(path, "rb") as f:
                    source = f.read(budget + 1)
                budget -= len(source)
                # as the import system compiles a source file (the bot gets the same code)
                CODE[path] = (st.st_mtime_ns, st.st_size,
                              compile(source, path, "exec", dont_inherit=True))
            except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                continue  # the bot meets the same error when it imports the file, as usual


def compiled(path):
    """The code ``precompile`` made of ``path``, if the file has not changed since, else ``None``."""
    entry = CODE.get(path)
    if entry is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return entry[2] if (st.st_mtime_ns, st.st_size) == entry[:2] else None


class PrecompiledLoader(machinery.SourceFileLoader):
    """Python's own loader of a source file, which takes the code from ``CODE`` when it can."""

    def get_code(self, fullname):
        code = compiled(self.path)
        return code if code is not None else super().get_code(fullname)


def bot_finder(path):
    """A path hook for the bot's folder (and its subfolders): its modules load through
    ``PrecompiledLoader``; any other folder is left to Python's own finders."""
    if path != BOT_MOUNT and not path.startswith(BOT_MOUNT + "/"):
        raise ImportError("not the bot's folder")
    return machinery.FileFinder(
        path, (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
        (PrecompiledLoader, machinery.SOURCE_SUFFIXES),
        (machinery.SourcelessFileLoader, machinery.BYTECODE_SUFFIXES))


# ----- per match ------------------------------------------------------------------------------

LO_UP = struct.pack("16sH14x", b"lo", IFF_UP)  # struct ifreq: "lo", up (the kernel keeps the rest)


def loopback_up():
    """Through libc: a Python socket object costs a child more than the ioctl itself."""
    fd = libc.socket(socket.AF_INET, socket.SOCK_DGRAM, 0)
    check(0 if fd >= 0 else -1, "a socket for the loopback")
    try:
        check(libc.ioctl(fd, SIOCSIFFLAGS, LO_UP), "bring the loopback up")
    finally:
        os.close(fd)


def drop_to(uid, gid):
    """From root to the bot's uid, then into a user namespace of its own that maps only that uid
    and allows no nested one (bubblewrap's --disable-userns), with no capability left anywhere."""
    os.setgroups([gid] if gid is not None and gid != uid else [])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # from root to a non-zero uid: every capability goes
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # the uid change made /proc/self root's
    check(libc.unshare(CLONE_NEWUSER), "unshare the user namespace")
    for name, text in (("setgroups", "deny"), ("gid_map", f"{uid} {uid} 1"),
                       ("uid_map", f"{uid} {uid} 1"), ("sys/user/max_user_namespaces", "0")):
        fd = os.open("/proc/self/" + name if "/" not in name else "/proc/" + name, os.O_WRONLY)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
    for cap in range(64):  # the bounding set too, as bubblewrap leaves it
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            break  # past the last capability this kernel knows
    header = CAP_HEADER(_LINUX_CAPABILITY_VERSION_3, 0)
    data = CAP_DATA()  # effective, permitted, inheritable (x2): all empty
    check(libc.capset(header, data), "drop capabilities")
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # after the uid change, which clears it


def exit_code(status):
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def clone_into_namespaces():
    """``fork`` into fresh mount, PID, network, IPC and UTS namespaces at once: the child is PID 1
    of its namespace (no intermediate process). A raw ``clone`` skips Python's after-fork
    bookkeeping, so the child runs it itself, as ``os.fork`` would: among it, the ``random``
    module draws a fresh seed, so that no two bots share a random state."""
    pid = libc.syscall(SYS_CLONE, CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC
                       | CLONE_NEWUTS | signal.SIGCHLD, 0, 0, 0, 0)
    if pid < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"clone: {os.strerror(err)}")
    if pid == 0:
        after_fork_child()
    return pid


def child_b(request, fds, cgroup_fds, ready):
    """PID 1 of the match's namespaces; runs as root until it drops to the bot's uid, then forks
    the bot and reaps orphans until the bot ends; never returns."""
    try:
        os.setsid()  # PID 1 leads its own session, the bot another one (bubblewrap's --new-session)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        for index, name in request["cgroups"]:  # its memory cgroup, its cpuset
            fd = os.open(name + "/cgroup.procs", os.O_WRONLY, dir_fd=cgroup_fds[index])
            try:
                os.write(fd, b"0")
            finally:
                os.close(fd)
        check(libc.unshare(CLONE_NEWCGROUP), "unshare the cgroup namespace")
        socket.sethostname("arena")
        loopback_up()
        uid = request["uid"]
        size = request["scratch_bytes"]
        for target in (SCRATCH, "/dev/shm"):
            mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV,
                  f"mode=0700,uid={uid},gid={uid},size={size}")
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        for fd, target in zip(fds[:3], (0, 1, 2)):
            os.dup2(fd, target)
        ready = os.dup2(ready, 3)
        os.closerange(4, 1 << 16)  # the control socket, other matches' pipes, the cgroup folder
        for res, soft, hard in request["rlimits"]:
            resource.setrlimit(res, (soft, hard))
        if request["nice"]:
            os.setpriority(os.PRIO_PROCESS, 0, request["nice"])
        cpus = set(request.get("cpus") or ())
        if cpus and cpus != os.sched_getaffinity(0):  # the cores of the thread that asked (a
            os.sched_setaffinity(0, cpus)              # pinned worker's); set only if they differ
        drop_to(uid, request["gid"])
        if request["script"] is not None:  # a Python bot: run it here, as PID 1 (see above)
            os.write(ready, b"1")  # the server answers the referee now: cgroup joined, user dropped
            os.close(ready)
            child_c(request, pid_1=True)
        pid = os.fork()
        if pid == 0:
            os.close(ready)
            child_c(request, pid_1=False)
        os.write(ready, b"1")
        os.close(ready)
        while True:  # PID 1: reap orphans until the bot itself ends
            try:
                got, status = os.wait()
            except ChildProcessError:
                os._exit(1)
            if got == pid:
                os._exit(exit_code(status))
    except BaseException as exc:  # noqa: BLE001
        os.write(2, f"arena sandbox: the fork server could not start the bot: {exc}\n".encode())
        os._exit(127)


def child_c(request, pid_1):
    """The bot: PID 1 itself (a Python script), or B's child in a session of its own."""
    try:
        if not pid_1:
            os.setsid()  # PID 1 already leads a session of its own
        os.chdir(BOT_MOUNT)
        for sig in (_signal.SIGPIPE, _signal.SIGXFSZ, _signal.SIGCHLD, _signal.SIGINT):
            _signal.signal(sig, _signal.SIG_DFL)
        if not request["same_env"]:  # the server runs in the bots' environment (``main``)
            os.environ.clear()
            os.environ.update(request["env"])
        argv = request["argv"]
        script = request["script"]
        if script is None:
            os.execve(argv[0], argv, request["env"])
        _signal.signal(_signal.SIGPIPE, _signal.SIG_IGN)  # what python3 itself does at start
        _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        if pid_1:  # the kernel would ignore a default SIGXCPU sent to PID 1
            _signal.signal(_signal.SIGXCPU, cpu_limit_reached)
    except BaseException as exc:  # noqa: BLE001
        os.write(2, f"arena sandbox: the bot could not be started: {exc}\n".encode())
        os._exit(127)
    run_script(script, argv[2:])


def own_frames(exc):
    """Leave out of the tracebacks of ``exc`` and of the exceptions it carries the frames of this
    server (its loader among them, ``<stdin>``) and of the import machinery around its loader,
    which ``python3 SCRIPT`` never shows: a bot's traceback starts at its own first frame."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        kept = []
        tb = exc.__traceback__
        while tb is not None:
            name = tb.tb_frame.f_code.co_filename
            if name != run_script.__code__.co_filename and not name.startswith("<frozen importlib"):
                kept.append(tb)
            tb = tb.tb_next
        tb = None
        for frame in reversed(kept):
            tb = types.TracebackType(tb, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
        exc.__traceback__ = tb
        exc = exc.__cause__ or exc.__context__


def cpu_limit_reached(signum, frame):
    """SIGXCPU for a bot that is PID 1: end as the default action would, reported as bubblewrap
    reports a signal (128 + N), with nothing flushed."""
    os._exit(128 + signum)


def run_script(script, args):
    """``python3 SCRIPT ARGS`` in this interpreter, as a cold start would run it."""
    # sys.__stdin__ and the others are final to a type checker; a cold start sets them to the very
    # streams the bot runs on, and so does this one
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)),  # type: ignore[misc]
                                                 encoding="utf-8")
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),  # type: ignore[misc]
                                                   encoding="utf-8")
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)),  # type: ignore[misc]
                                                   encoding="utf-8", errors="backslashreplace",
                                                   line_buffering=True)
    path = os.path.join(BOT_MOUNT, script) if not script.startswith("/") else script
    sys.argv = [script, *args]
    sys.path[:] = [os.path.dirname(path), *BASE_PATH]  # bot_finder is in place (``main``)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins
    main.__cached__ = None
    sys.modules["__main__"] = main
    code = 0
    try:
        program = compiled(path)
        if program is None:
            with open(path, "rb") as f:
                program = compile(f.read(), path, "exec", dont_inherit=True)
        exec(program, main.__dict__)
    except SystemExit as exc:
        code = exc.code
    except BaseException as exc:  # noqa: BLE001
        own_frames(exc)  # as python3 SCRIPT prints it: the script's own frames, none of ours
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001
            code = code or 120
    os._exit(code & 0xFF)


# ----- the server ---------------------------------------------------------------------------

BASE_PATH: list[str] = []
ENV: dict[str, str] = {}  # the environment the server started in: the one the referee gives every bot
SERVER_STDIO: list[io.TextIOWrapper] = []
FDS_PER_REQUEST = 4


def serve(control, cgroup_fds):
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, None)
    while True:
        for key, _ in selector.select():
            if key.data is None:
                try:
                    message, fds, _, _ = socket.recv_fds(control, 1 << 16, FDS_PER_REQUEST)
                except OSError:
                    return
                if not message:
                    return  # the referee is gone: so are its bots (parent-death signals)
                try:
                    request = json.loads(message)
                    request["same_env"] = request["env"] == ENV  # decided here: a child's
                    # every write costs it a copy of a page
                    sync, ready = os.pipe()
                    pid = clone_into_namespaces()
                    if pid == 0:
                        os.close(sync)
                        child_b(request, fds, cgroup_fds, ready)
                    os.close(ready)
                    try:
                        started = os.read(sync, 1) == b"1"  # A is set up, or it failed and exited
                    finally:
                        os.close(sync)
                    pidfd = os.pidfd_open(pid)
                    selector.register(pidfd, selectors.EVENT_READ, (pid, fds[3]))
                    reply = {"pid": pid} if started else {"pid": pid, "failed": True}
                except Exception as exc:  # noqa: BLE001 - the reply says it; the server goes on
                    reply = {"error": str(exc)}
                    if len(fds) > 3:
                        os.close(fds[3])
                for fd in fds[:3]:
                    os.close(fd)
                control.send(json.dumps(reply).encode())
            else:
                pid, status_fd = key.data
                selector.unregister(key.fd)
                os.close(key.fd)
                _, status = os.waitpid(pid, 0)
                try:
                    os.write(status_fd, struct.pack("i", status))
                except OSError:
                    pass
                os.close(status_fd)


CONTROL_FD = None  # set by the referee as it sends this source to ``python3 -``


def main():
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # the server's working folder: nothing a bot should import from
    control = socket.socket(fileno=CONTROL_FD)
    config = json.loads(control.recv(1 << 16))
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    cgroup_fds, proc_fd = build_root(config)
    os.close(proc_fd)
    BASE_PATH[:] = [p for p in sys.path if p]
    preload(config.get("preload", ()))
    if config.get("precompile"):
        precompile()
    # Set once here, not in every child: a child pays for each object it changes with a copy of
    # the memory page it is on (~3 µs). The bot's imports from its folder go through bot_finder;
    # the server itself never imports from there (the folder is not on its path).
    sys.path_hooks.insert(0, bot_finder)
    ENV.update(os.environ)
    SERVER_STDIO.extend((sys.stdin, sys.stdout, sys.stderr))  # a child replaces them: not freed there
    import gc
    gc.freeze()  # a child's collections leave the server's objects (and their pages) alone
    control.send(b'{"ready": true}')
    serve(control, cgroup_fds)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the referee's to handle
    try:
        main()
    except (OSError, KeyboardInterrupt):  # the referee went away: so do we, quietly
        os._exit(0)
