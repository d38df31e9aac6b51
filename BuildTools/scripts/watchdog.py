#!/usr/bin/env python3
"""Runs one step of `make test` under a time limit, and fails it if it leaves processes running.

Usage: watchdog.py --limit SECONDS --name STEP -- COMMAND [ARGUMENT...]

The step runs in its own process group. Still running after SECONDS, it is reported (its name, the limit, every
process under it with state, CPU seconds and command line), sent SIGTERM, then SIGKILL 15 s later, and the watchdog
exits 124. The watchdog is a child subreaper (prctl PR_SET_CHILD_SUBREAPER, see prctl(2)): whatever the step or a
test process started and left behind is re-parented to it, so when the step ends those processes are listed,
killed, and the step fails even if its tests passed. Otherwise the step's exit status is the watchdog's.
"""
import argparse
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def descendants(root):
    """(pid, state, cpu seconds, command line) of every process below `root`, parents first."""
    children = {}
    info = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: the fields after it are fixed.
        fields = stat[stat.rindex(")") + 2:].split()
        pid, parent = int(entry), int(fields[1])
        cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        info[pid] = (pid, fields[0], cpu, command or stat[stat.index("(") + 1:stat.rindex(")")])
        children.setdefault(parent, []).append(pid)
    found, queue = [], list(children.get(root, []))
    while queue:
        pid = queue.pop(0)
        found.append(info[pid])
        queue.extend(children.get(pid, []))
    return found


def has_command_line(pid):
    """Whether `pid` has exec'd (its command line is readable and not empty); false once it is gone."""
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            return bool(f.read())
    except OSError:
        return False


def describe(processes):
    return "\n".join("  %7d %s %8.1f s cpu  %s" % (pid, state, cpu, command[:200])
                     for pid, state, cpu, command in processes)


def end(processes, grace):
    """SIGTERM, then SIGKILL after `grace` seconds, to each process still there; reaps what was re-parented."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid, *_ in processes:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and descendants(os.getpid()):
            reap()
            time.sleep(0.1)
        reap()
        processes = descendants(os.getpid())
        if not processes:
            return


def reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    step = subprocess.Popen(command, process_group=0)

    def forward(number, _):
        # Ctrl-C reaches the terminal's foreground group; pass it on to the step's own group.
        try:
            os.killpg(step.pid, number)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, forward)
    try:
        status = step.wait(timeout=args.limit)
    except subprocess.TimeoutExpired:
        running = descendants(os.getpid())
        print("make: '%s' still running after %g s (the limit, TEST_TIMEOUT): killed. Still running:\n%s"
              % (args.name, args.limit, describe(running)), file=sys.stderr, flush=True)
        end(running, grace=15)
        return 124
    status = 128 - status if status < 0 else status  # killed by a signal: the shell's convention
    reap()
    left = descendants(os.getpid())
    # A process caught inside execve has its new name but no command line yet (the kernel sets the argument range
    # after mapping the program): read again, for up to 5 s, so that the report names what it runs. Seen under load:
    # a bare `sleep` for `sleep 58.2`, still so after 1 s on CI's two busy cores.
    deadline = time.monotonic() + 5
    while left and not all(has_command_line(pid) for pid, _, _, _ in left) and time.monotonic() < deadline:
        time.sleep(0.05)
        left = descendants(os.getpid())
    if left:
        print("make: '%s' ended and left %d process(es) running (a test must end what it starts); killed:\n%s"
              % (args.name, len(left), describe(left)), file=sys.stderr, flush=True)
        end(left, grace=5)
        return status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
