#!/usr/bin/env python3
"""The fault campaign of issue 41: does any fault lose a typed word or a byte of the file?

Runs the real editor (`lovesnap edit`) in tmux on a copy of SamplePoems/kettle.txt, types a
change, and then, at each point tried:

- kill -9 during a save, a hard-linked file's in-place rewrite, a `--backup` save and a recovery
  file's write: strace holds the process at the Nth call of one system call of that work
  (`-e inject=SYSCALL:delay_enter=…:when=N`), the campaign sees it stopped there
  (`/proc/PID/task/*/syscall`) and kills it with SIGKILL;
- kill -9 at 0–400 ms into a replace-all and save of a 20 MiB text (no strace: timed kills);
- two editors on one file, one saving while the other is killed;
- a save's or a recovery file's system call failing with ENOSPC, EIO or EROFS
  (`-e inject=SYSCALL:error=…`, the same as a full disk, a bad disk, a read-only remount).

After each point it looks at what is on disk: the file, every recovery file
(`$XDG_STATE_HOME/lovesnap/`) and every file a save left beside the file (`.NAME.lovesnap-*`,
`NAME.lovesnap-backup-*`). "Typed text lost" is Y when the typed text is in none of them (nor,
for the error faults, still in the editor's buffer); "old text lost" is Y when the file's text
before the save is in none of them while the file does not hold the new text whole.

    python3 scripts/fault-campaign.py [--lovesnap .build/debug/lovesnap] [--markdown]

Needs tmux and strace (`scripts/install-deps.sh` installs both) on x86-64 Linux (the system
call numbers below). It prints one table; docs/measurements/fault-campaign.md keeps the last.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
KETTLE = os.path.join(ROOT, "SamplePoems", "kettle.txt")
# x86-64 system call numbers, for /proc/PID/task/TID/syscall.
SYSCALLS = {"write": 1, "close": 3, "pwrite64": 18, "fsync": 74, "ftruncate": 77, "rename": 82,
            "link": 86, "unlink": 87, "fchmod": 91, "openat": 257}


class Session:
    """One program in a detached tmux session (its own server socket)."""

    def __init__(self, argv, cwd, env, columns=200):
        self.socket = os.path.join(cwd, ".tmux-" + str(time.monotonic_ns()))
        full = dict(os.environ, LANG="C.UTF-8", TERM="xterm-256color", **env)
        full.pop("LC_ALL", None)
        self.run(["new-session", "-d", "-s", "f", "-x", str(columns), "-y", "24", "-c", cwd]
                 + ["env"] + [f"{k}={v}" for k, v in env.items()] + argv, full)
        self.run(["set-option", "-t", "f", "remain-on-exit", "on"], full)

    def run(self, args, env=None):
        return subprocess.run(["tmux", "-S", self.socket] + args, capture_output=True, text=True, env=env)

    def keys(self, *keys):
        self.run(["send-keys", "-t", "f"] + list(keys))

    def type(self, text):
        self.run(["send-keys", "-t", "f", "-l", text])

    def screen(self):
        return self.run(["capture-pane", "-p", "-t", "f"]).stdout.split("\n")

    def wait_for(self, text, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(text in row for row in self.screen()):
                return True
            time.sleep(0.05)
        return False

    def pane_pid(self):
        return int(self.run(["display-message", "-p", "-t", "f", "#{pane_pid}"]).stdout.strip())

    def kill(self):
        self.run(["kill-server"])
        try:
            os.unlink(self.socket)
        except OSError:
            pass


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def stopped_in(pid, number, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/syscall") as f:
                    if f.read().split(" ")[0] == str(number):
                        return True
        except OSError:
            return False
        time.sleep(0.01)
    return False


def gone(pid, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].startswith(" Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.02)
    return False


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


class Point:
    """One fault point's folder: the poem, a state folder, and what is on disk afterwards."""

    def __init__(self, lovesnap, text=None, hard_link=False):
        self.dir = tempfile.mkdtemp(prefix="lsnap-fault-")
        self.file = os.path.join(self.dir, "kettle.txt")
        if text is None:
            shutil.copyfile(KETTLE, self.file)
        else:
            with open(self.file, "wb") as f:
                f.write(text)
        if hard_link:
            os.link(self.file, os.path.join(self.dir, "twin.txt"))
        self.state = os.path.join(self.dir, "state")
        self.old = read(self.file)
        self.lovesnap = lovesnap

    def journals(self):
        folder = os.path.join(self.state, "lovesnap")
        names = os.listdir(folder) if os.path.isdir(folder) else []
        return [os.path.join(folder, n) for n in names if n.endswith(".recovery")]

    def wait_journal(self, holding, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(read(p) == holding for p in self.journals()):
                return True
            time.sleep(0.05)
        return False

    def candidates(self):
        """Every text on disk that a user could get back."""
        found = [read(self.file)] + [read(p) for p in self.journals()]
        for name in os.listdir(self.dir):
            if name.startswith(".kettle.txt.lovesnap-") or name.startswith("kettle.txt.lovesnap-backup-") \
                    or name == "kettle.txt~" or name.startswith("kettle.txt.save"):
                found.append(read(os.path.join(self.dir, name)))
        return [c for c in found if c is not None]

    def verdict(self, new, in_buffer=False):
        """(typed text lost, old text lost) as booleans."""
        found = self.candidates()
        typed_lost = not in_buffer and new not in found
        old_lost = read(self.file) != new and self.old not in found
        return typed_lost, old_lost

    def start(self, extra=(), strace=None, args=()):
        argv = list(strace or []) + [self.lovesnap] + list(args) + ["edit", "kettle.txt"]
        session = Session(argv, self.dir, {"XDG_STATE_HOME": self.state})
        if not session.wait_for("kettle", 30):
            session.kill()
            raise SystemExit("lovesnap did not start: " + " ".join(argv))
        return session

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def cut_first_line(text):
    return text.split(b"\n", 1)[1]


def kill_at(lovesnap, syscall, nth, action, hard_link=False, backup=False):
    """kill -9 when the editor is held at the `nth` call of `syscall` (counted from its start: the
    change is typed and its recovery file written first), during a save (`action` "save") or the
    recovery file's write of a second change ("journal"). Returns (reached, typed lost, old lost)."""
    point = Point(lovesnap, hard_link=hard_link)
    try:
        strace = ["strace", "-f", "-o", "/dev/null", "-e", f"trace={syscall}", "-e",
                  f"inject={syscall}:delay_enter=20000000:when={nth}"]
        session = point.start(strace=strace, args=["--backup"] if backup else [])
        tracer = session.pane_pid()
        editor = (children(tracer) or [0])[0]
        session.keys("C-k")  # the first line cut
        new = cut_first_line(point.old)
        point.wait_journal(new)
        if action == "save":
            session.keys("C-s")
        else:  # a second change, whose recovery file write is held
            session.keys("C-k")
            later = cut_first_line(new)
        reached = stopped_in(editor, SYSCALLS[syscall], 6)
        os.kill(editor, signal.SIGKILL)
        os.kill(tracer, signal.SIGKILL)
        gone(editor)
        session.kill()
        if action == "journal":
            # Typing of the last seconds may go (the documented window); what was kept must stay.
            found = point.candidates()
            return reached, new not in found and later not in found, point.old not in found
        return (reached,) + point.verdict(new)
    finally:
        point.cleanup()


def timed_replace_all(lovesnap, delay):
    """A 20 MiB text: replace-all of every "kettle" then ^S, kill -9 `delay` seconds after ^S."""
    poem = open(KETTLE, "rb").read()
    big = poem * (20 * 1024 * 1024 // len(poem))
    point = Point(lovesnap, text=big)
    try:
        session = point.start()
        session.keys("C-\\")
        session.type("kettle")
        session.keys("Enter")
        session.type("bouilloire")
        session.keys("Enter")
        session.wait_for("Replace this instance?", 30)
        session.type("a")
        replaced = session.wait_for("Replaced ", 120)
        new = big.replace(b"kettle", b"bouilloire")
        journaled = point.wait_journal(new, 60)
        session.keys("C-s")
        time.sleep(delay)
        editor = session.pane_pid()
        os.kill(editor, signal.SIGKILL)
        gone(editor)
        session.kill()
        return (replaced and journaled,) + point.verdict(new)
    finally:
        point.cleanup()


def two_editors(lovesnap):
    """A and B on one file; A types and saves, B types, B is killed; A's save must not take B's text."""
    point = Point(lovesnap)
    try:
        a = point.start()
        a.type("A typed ")
        a_text = b"A typed " + point.old
        point.wait_journal(a_text)
        b = point.start()
        b.wait_for("Recovery file", 10)
        b.type("d")
        b.type("B typed ")
        b_text = b"B typed " + point.old
        point.wait_journal(b_text)
        a.keys("C-s")
        a.wait_for("Wrote", 10)
        a.keys("C-x")
        time.sleep(0.5)
        editor = b.pane_pid()
        os.kill(editor, signal.SIGKILL)
        gone(editor)
        a.kill()
        b.kill()
        found = point.candidates()
        return True, b_text not in found or a_text not in found, False
    finally:
        point.cleanup()


def failing(lovesnap, syscall, error, action):
    """`syscall` fails with `error` during a save or a recovery file's write: the file keeps its
    text, the editor says why and keeps the typed text. Returns (reached, typed lost, old lost, said)."""
    point = Point(lovesnap)
    try:
        strace = ["strace", "-f", "-o", "/dev/null", "-e", f"trace={syscall}", "-e",
                  f"inject={syscall}:error={error}"]
        session = point.start(strace=strace)
        session.keys("C-k")
        new = cut_first_line(point.old)
        if action == "save":
            session.keys("C-s")
        reason = {"ENOSPC": "No space left on device", "EIO": "Input/output error", "EROFS": "Read-only file system"}
        prefix = "Cannot write the recovery file" if action == "journal" else "kettle.txt: "
        said = session.wait_for(reason[error], 8) and any(prefix in row for row in session.screen())
        in_buffer = session.screen()[1].startswith(new.split(b"\n")[0].decode())
        typed_lost, old_lost = point.verdict(new, in_buffer=in_buffer)
        old_lost = old_lost or read(point.file) != point.old
        session.kill()
        return (said, typed_lost, old_lost)
    finally:
        point.cleanup()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lovesnap", default=os.path.join(ROOT, ".build", "debug", "lovesnap"))
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    lovesnap = os.path.abspath(args.lovesnap)
    for tool in ("tmux", "strace"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is not installed (scripts/install-deps.sh installs it)")

    rows = []

    def campaign(name, results):
        results = list(results)
        reached = sum(1 for r in results if r[0])
        typed = any(r[1] for r in results)
        old = any(r[2] for r in results)
        rows.append((name, len(results), reached, "Y" if typed else "N", "Y" if old else "N"))
        print(f"  {name}: {reached}/{len(results)} reached, typed lost {rows[-1][3]}, old lost {rows[-1][4]}",
              file=sys.stderr)

    # The recovery file is written first (fchmod #1, fsync #1 of the file and #2 of the folder,
    # rename #1), so a save's calls come after those.
    campaign("kill -9 in a save (fchmod, fsync of file and folder, rename, the recovery file's unlink)",
             [kill_at(lovesnap, s, n, "save") for s, n in
              [("fchmod", 2), ("fsync", 3), ("rename", 2), ("fsync", 4), ("unlink", 1)]])
    campaign("kill -9 in a hard-linked file's rewrite (backup, folder, pwrite, fsync, ftruncate, unlink)",
             [kill_at(lovesnap, s, n, "save", hard_link=True) for s, n in
              [("fsync", 3), ("fchmod", 2), ("fsync", 4), ("pwrite64", 1), ("fsync", 5), ("ftruncate", 1),
               ("fsync", 6), ("unlink", 1), ("unlink", 2)]])
    campaign("kill -9 in a --backup save (fsync, link, rename of NAME~ and of the file, folder)",
             [kill_at(lovesnap, s, n, "save", backup=True) for s, n in
              [("fsync", 3), ("link", 1), ("rename", 2), ("rename", 3), ("fsync", 4)]])
    campaign("kill -9 in a recovery file's second write (fchmod, fsync of file and folder, rename)",
             [kill_at(lovesnap, s, n, "journal") for s, n in
              [("fchmod", 2), ("fsync", 3), ("rename", 2), ("fsync", 4)]])
    campaign("kill -9 0–400 ms into saving a 20 MiB replace-all",
             [timed_replace_all(lovesnap, d) for d in (0.0, 0.05, 0.1, 0.2, 0.4)])
    campaign("two editors on one file, one saves, the other killed", [two_editors(lovesnap)])
    campaign("a save failing: ENOSPC, EIO (fsync), EROFS (rename)",
             [failing(lovesnap, s, e, "save") for s, e in [("fsync", "ENOSPC"), ("fsync", "EIO"), ("rename", "EROFS")]])
    campaign("a recovery file's write failing: ENOSPC, EIO (fsync), EROFS (rename)",
             [failing(lovesnap, s, e, "journal") for s, e in
              [("fsync", "ENOSPC"), ("fsync", "EIO"), ("rename", "EROFS")]])

    header = ("fault", "points tried", "points reached", "typed text lost", "old text lost")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(str(c) for c in row) + " |")
    else:
        print("\t".join(header))
        for row in rows:
            print("\t".join(str(c) for c in row))
    total = sum(r[1] for r in rows)
    lost = sum(1 for r in rows if "Y" in r[3:])
    print(f"{total} points, {lost} kinds of fault losing text", file=sys.stderr)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
