#!/usr/bin/env python3
"""The editor on big files, measured, beside GNU nano on the same files in the same run.

    python3 scripts/editor-benchmark.py                 # 1, 10 and 100 MiB; builds the release binaries
    python3 scripts/editor-benchmark.py --sizes 1,10 --no-build

For each size it writes two texts into --folder (default /tmp/lovesnap-editor-bench): the sample
poems repeated as many short lines, and the same bytes as one single long line (the line breaks
made spaces). Then, per file:

* in one process (`lovesnap-bench FILE`: the file read as `lovesnap edit` reads it, each key
  through the editor's `update`, each screen through `render` at 80x24): opening to the first
  screen; typing a character and redrawing, at the start, in the middle (Go To Line) and at the
  end (M-/, End), mean and worst of --keys keystrokes each; replace-all of a frequent word
  ("the" -> "thee", from the top, ^\\ ... A) and its undo (M-U); the peak resident memory.
* the real binaries in a real terminal (tmux, 80x24): `lovesnap edit FILE` and `nano -I FILE`
  (nano without rc files), each timed from the start of the tmux session to the first screen
  showing the file, a keystroke from `send-keys` to the screen showing it (median of 15; tmux's
  own round trip included: one `capture-pane` alone is timed too), replace-all from the answer A
  to "Replaced N occurrences" (nano's search made case-sensitive with M-C, as lovesnap's is),
  undo to its message, and the process's peak resident memory (VmHWM) at the end. Both run under
  an address-space limit (--memory-limit, default 4 GiB: nano keeps a copy of a whole line per
  replacement, 16 GB for replace-all on a 1 MiB line) and every screen is waited for at most
  --timeout seconds; what did not finish says why.

Prints a table (seconds and milliseconds, peak RSS as a multiple of the file size) and the ratios
lovesnap / nano. Needs tmux, and nano for its columns (`apt-get install -y nano`; without it the
nano columns say "-"). Timings are wall-clock on whatever else the machine is doing.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIB = 1024 * 1024


def make_files(folder, sizes):
    """Writes the two texts of each size; returns [(label, path)]."""
    os.makedirs(folder, exist_ok=True)
    poems = []
    for name in ("riviere", "harbour", "fenetre", "kettle"):
        with open(os.path.join(ROOT, "SamplePoems", name + ".txt"), "rb") as f:
            poems.append(f.read().rstrip(b"\n") + b"\n\n")
    block = b"".join(poems)
    files = []
    for size in sizes:
        target = size * MIB
        text = (block * (target // len(block) + 1))[: target - 1]
        text = text[: text.rfind(b"\n") + 1] if b"\n" in text else text
        text += b"x" * (target - len(text) - 1) + b"\n"
        short = os.path.join(folder, f"short-lines-{size}MiB.txt")
        single = os.path.join(folder, f"one-line-{size}MiB.txt")
        for path, data in ((short, text), (single, text[:-1].replace(b"\n", b" ") + b"\n")):
            if not (os.path.exists(path) and os.path.getsize(path) == len(data)):
                with open(path, "wb") as f:
                    f.write(data)
        files.append((f"{size} MiB, short lines", short))
        files.append((f"{size} MiB, one line", single))
    return files


class Tmux:
    """A private tmux server (never the user's) running one program at 80x24."""

    def __init__(self, argv, label):
        self.socket = f"{label}-{uuid.uuid4().hex[:8]}"
        self.argv = argv

    def run(self, *args, check=True):
        env = dict(os.environ, LANG="C.UTF-8")
        env.pop("TMUX", None)
        r = subprocess.run(["tmux", "-u", "-L", self.socket, "-f", "/dev/null", *args],
                           capture_output=True, text=True, env=env)
        if check and r.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {r.stderr.strip()}")
        return r.stdout

    def start(self, memory_limit):
        term = "tmux-256color" if os.path.exists("/usr/share/terminfo/t/tmux-256color") else "screen"
        self.run("start-server", ";", "set-option", "-g", "remain-on-exit", "on", ";",
                 "new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "--",
                 "prlimit", f"--as={memory_limit}", "--",
                 "/usr/bin/env", "-u", "LC_ALL", "LANG=C.UTF-8", f"TERM={term}", *self.argv)

    def screen(self):
        return self.run("capture-pane", "-t", "t", "-p").split("\n")

    def keys(self, *keys, literal=False):
        self.run("send-keys", "-t", "t", *(["-l"] if literal else []), *keys)

    def wait(self, predicate, timeout):
        """Polls the screen until predicate(screen) holds; returns the time it took, or None."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            screen = self.screen()
            if predicate(screen):
                return time.monotonic() - start
            if self.dead():
                return None
            time.sleep(0.002)
        return None

    def dead(self):
        return self.run("display-message", "-p", "-t", "t", "#{pane_dead}", check=False).strip() == "1"

    def pid(self):
        return int(self.run("display-message", "-p", "-t", "t", "#{pane_pid}").strip())

    def kill(self):
        self.run("kill-server", check=False)


def peak_rss(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def cpu_seconds(pid):
    """CPU time of all threads of process `pid` so far, in seconds (the scheduler's nanosecond
    count in /proc/PID/task/*/schedstat), or None."""
    try:
        total = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9
    except (OSError, IndexError, ValueError):
        return None


def status_line(screen):
    return screen[21].strip() if len(screen) > 21 else ""


def in_terminal(argv, label, args, case_key=None):
    """Opens the file in `argv` under tmux and measures it as a user would see it. `case_key`
    is pressed in the search prompt to make the search case-sensitive (nano's default is not)."""
    t = Tmux(argv, label)
    result = {}
    timeout = args.timeout

    def failed(what):
        result["failed"] = f"{what}: " + ("the program ended (out of memory?)" if t.dead() else f"over {timeout:g} s")

    try:
        start = time.monotonic()
        t.start(args.memory_limit * 1024 ** 3)
        opened = t.wait(lambda s: "[ Read " in status_line(s), timeout)
        result["open"] = None if opened is None else time.monotonic() - start
        if opened is None:
            failed("open")
            return result
        pid = t.pid()
        result["openCPU"] = cpu_seconds(pid)
        sent = time.monotonic()
        t.screen()
        result["capture"] = time.monotonic() - sent
        # A keystroke: from send-keys to the screen changing (the first text row, where it is typed).
        times = []
        for i in range(15):
            before = t.screen()[1]
            sent = time.monotonic()
            t.keys("x" if i % 2 == 0 else "y", literal=True)
            if t.wait(lambda s: s[1] != before, timeout) is None:
                failed("keystroke")
                break
            times.append(time.monotonic() - sent)
        result["keystroke"] = sorted(times)[len(times) // 2] if times else None
        after = cpu_seconds(pid)
        if times and after is not None and result["openCPU"] is not None:
            result["keystrokeCPU"] = (after - result["openCPU"]) / len(times)
        result["peakRSSAfterTyping"] = peak_rss(pid)
        # Replace-all from the top (both editors ask "Replace this instance?" and take A).
        t.keys("M-\\")
        t.keys("C-\\")
        t.wait(lambda s: "replace" in status_line(s).lower(), timeout)
        if case_key:
            t.keys(case_key)
            t.wait(lambda s: "Case Sensitive" in status_line(s), timeout)
        t.keys(args.search, literal=True)
        t.keys("Enter")
        t.wait(lambda s: status_line(s).startswith("Replace with"), timeout)
        t.keys(args.replacement, literal=True)
        t.keys("Enter")
        if t.wait(lambda s: "Replace this instance" in status_line(s), timeout) is not None:
            sent = time.monotonic()
            t.keys("a", literal=True)
            done = t.wait(lambda s: "Replaced" in status_line(s), timeout)
            result["replaceAll"] = None if done is None else time.monotonic() - sent
            if done is None:
                failed("replace-all")
            else:
                result["replaced"] = status_line(t.screen())
                sent = time.monotonic()
                t.keys("M-u")
                done = t.wait(lambda s: "Undid" in status_line(s), timeout)
                result["undo"] = None if done is None else time.monotonic() - sent
                result["undone"] = status_line(t.screen())
                if done is None:
                    failed("undo")
        result["peakRSS"] = peak_rss(pid)
        if not t.dead():
            t.keys("C-x")
            if t.wait(lambda s: "Save modified buffer" in status_line(s), 5) is not None:
                t.keys("n", literal=True)
    finally:
        t.kill()
    return result


def ms(x):
    return "-" if x is None else f"{x * 1000:.1f}"


def sec(x):
    return "-" if x is None else f"{x:.2f}"


def per(x, size):
    return "-" if x is None else f"{x / size:.2f}"


def mb(x):
    return "-" if x is None else f"{x / 1e6:.1f} MB"


def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,10,100", help="MiB, comma-separated (default 1,10,100)")
    parser.add_argument("--folder", default="/tmp/lovesnap-editor-bench")
    parser.add_argument("--no-build", action="store_true", help="use the release binaries as they are")
    parser.add_argument("--keys", type=int, default=200, help="keystrokes per place in the in-process run")
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for any one screen")
    parser.add_argument("--memory-limit", type=float, default=4, help="GiB of address space for each editor")
    parser.add_argument("--search", default="the")
    parser.add_argument("--replacement", default="thee")
    parser.add_argument("--json", help="also write every measurement to this file")
    args = parser.parse_args()

    if shutil.which("tmux") is None:
        sys.exit("editor-benchmark: tmux is not installed (apt-get install -y tmux)")
    nano = shutil.which("nano")
    if nano is None:
        print("nano is not installed: its columns stay empty (apt-get install -y nano)", file=sys.stderr)
    if not args.no_build:
        for product in ("lovesnap", "lovesnap-bench"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)
    binaries = os.path.join(ROOT, ".build", "release")
    lovesnap = os.path.join(binaries, "lovesnap")
    bench = os.path.join(binaries, "lovesnap-bench")

    sizes = [int(s) for s in args.sizes.split(",")]
    files = make_files(args.folder, sizes)
    # What each editor holds before any text: its resident set on a one-line file.
    tiny = os.path.join(args.folder, "one-short-line.txt")
    with open(tiny, "wb") as f:
        f.write(b"Lenore\n")
    startup = {"lovesnap": in_terminal([lovesnap, "edit", tiny], "lsnap-bench", args).get("peakRSS"),
               "nano": in_terminal([nano, "-I", tiny], "nano-bench", args).get("peakRSS") if nano else None}
    rows = []
    for label, path in files:
        print(f"{label}: {path}", file=sys.stderr)
        model = json.loads(subprocess.run(
            [bench, path, "--keys", str(args.keys), "--search", args.search, "--replacement", args.replacement],
            capture_output=True, text=True, check=True).stdout)
        ours = in_terminal([lovesnap, "edit", path], "lsnap-bench", args)
        theirs = in_terminal([nano, "-I", path], "nano-bench", args, case_key="M-c") if nano else {}
        rows.append((label, os.path.getsize(path), model, ours, theirs))
        print(json.dumps({"file": label, "model": model, "lovesnap": ours, "nano": theirs}), file=sys.stderr)

    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"file": r[0], "bytes": r[1], "model": r[2], "lovesnap": r[3], "nano": r[4]} for r in rows],
                      f, indent=1)

    print("In one process (lovesnap-bench: update + render at 80x24), per file:")
    print()
    print("| file | open to first screen (s) | keystroke + redraw, start / middle / end: mean (worst), ms "
          "| CPU per keystroke: mean (worst), ms | go to middle / end (s) | replace-all (s) | matches "
          "| undo steps | undo (s) | peak RSS / size | (peak − startup) / size |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, size, m, _, _ in rows:
        k = m["keystroke"]
        keys = " / ".join(f"{ms(k[p]['mean'])} ({ms(k[p]['max'])})" for p in ("start", "middle", "end"))
        cpu = " / ".join(f"{ms(k[p]['cpuMean'])} ({ms(k[p]['cpuMax'])})" for p in ("start", "middle", "end"))
        print(f"| {label} | {sec(m['open'])} | {keys} | {cpu} "
              f"| {sec(m['jump']['middle'])} / {sec(m['jump']['end'])} "
              f"| {sec(m['replaceAll'])} | {m['replaced']} | {m['undoSteps']} | {sec(m['undo'])} "
              f"| {m['peakRSS'] / size:.2f} | {(m['peakRSS'] - m['startRSS']) / size:.2f} |")
    print()
    print("The real binaries in tmux (80x24), lovesnap edit FILE beside nano -I FILE, and lovesnap / nano:")
    print()
    def grown(rss, editor, size):
        base = startup.get(editor)
        return "-" if rss is None or base is None else f"{(rss - base) / size:.2f}"

    print("| file | open (s): lovesnap / nano / ratio | CPU to first screen (s): lovesnap / nano "
          "| keystroke (ms): lovesnap / nano | CPU per keystroke (ms): lovesnap / nano "
          "| replace-all (s): lovesnap / nano | undo (s): lovesnap / nano "
          "| peak RSS / size after open and typing: lovesnap / nano / ratio "
          "| peak RSS / size, whole run: lovesnap / nano | (peak − startup) / size: lovesnap / nano | notes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    captures = []
    for label, size, _, o, n in rows:
        rss_o = o.get("peakRSS")
        rss_n = n.get("peakRSS")
        notes = []
        for name, r in (("lovesnap", o), ("nano", n)):
            if "failed" in r:
                notes.append(f"{name} {r['failed']}")
            if "replaced" in r:
                notes.append(f"{name} {r['replaced'].strip('[] ')}")
            if r.get("capture") is not None:
                captures.append(r["capture"])
        typed_o = o.get("peakRSSAfterTyping")
        typed_n = n.get("peakRSSAfterTyping")
        print(f"| {label} | {sec(o.get('open'))} / {sec(n.get('open'))} / {ratio(o.get('open'), n.get('open'))} "
              f"| {sec(o.get('openCPU'))} / {sec(n.get('openCPU'))} "
              f"| {ms(o.get('keystroke'))} / {ms(n.get('keystroke'))} "
              f"| {ms(o.get('keystrokeCPU'))} / {ms(n.get('keystrokeCPU'))} "
              f"| {sec(o.get('replaceAll'))} / {sec(n.get('replaceAll'))} "
              f"| {sec(o.get('undo'))} / {sec(n.get('undo'))} "
              f"| {per(typed_o, size)} / {per(typed_n, size)} / {ratio(typed_o, typed_n)} "
              f"| {per(rss_o, size)} / {per(rss_n, size)} "
              f"| {grown(rss_o, 'lovesnap', size)} / {grown(rss_n, 'nano', size)} "
              f"| {'; '.join(notes)} |")
    print()
    print(f"Startup resident set (a one-line file): lovesnap {mb(startup['lovesnap'])}, nano {mb(startup['nano'])}.")
    if captures:
        print()
        print(f"(one tmux capture-pane took {ms(sorted(captures)[len(captures) // 2])} ms here: "
              "the terminal keystroke times include a few of them)")


if __name__ == "__main__":
    main()
