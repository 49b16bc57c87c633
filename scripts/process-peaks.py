#!/usr/bin/env python3
"""The peak resident memory of each process of a command's tree, by role.

    python3 scripts/process-peaks.py lovesnap ocr PHOTO

Runs the command, samples /proc every 20 ms over its process tree (each task's children list),
and prints each process's largest VmHWM (MiB) with its role: the first argument of the form
`__role` (lovesnap's worker, reader, detector, spelling and orientation processes), else `main`.
A process that lives less than 20 ms may be missed. Linux only.
"""
import os
import subprocess
import sys
import time


def children(pid):
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peaks = {}
    while child.poll() is None:
        todo, seen = [child.pid], set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            todo += children(pid)
            try:
                with open(f"/proc/{pid}/status") as f:
                    status = f.read()
                with open(f"/proc/{pid}/cmdline") as f:
                    argv = f.read().split("\0")
            except OSError:
                continue
            hwm = [line for line in status.splitlines() if line.startswith("VmHWM")]
            if not hwm:
                continue
            role = next((a for a in argv if a.startswith("__")), "main")
            peaks[(pid, role)] = max(peaks.get((pid, role), 0), int(hwm[0].split()[1]) // 1024)
        time.sleep(0.02)
    print(" ".join(f"{role}={mib}" for (pid, role), mib in sorted(peaks.items())))
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
