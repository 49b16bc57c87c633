#!/usr/bin/env python3
"""Speed and memory of `lovesnap ocr` beside the tuned tesseract CLI, with CER beside them.

usage: scripts/speed-benchmark.py [--lovesnap BIN] [--runs N] [--only SUBSTR] [--args ARGS] DIR...

For every image under each DIR that has IMAGE.gt.txt beside it, runs N times each, alternating,
  tesseract IMAGE - -l eng+fra      (OMP_THREAD_LIMIT=1: the CLI at its best on two cores)
  lovesnap ocr [ARGS] IMAGE         (default ARGS: --level fast)
and prints per image the median wall time, the median CPU time (user + system of the process and
the children it waited for: lovesnap's OCR worker), the peak memory and the CER of each, and the
lovesnap/CLI ratios; then the totals of the medians and their ratios. Peak memory is sampled from
/proc every 50 ms over the process tree (its children lists): "RSS" is the largest single
process's peak (VmHWM, what /usr/bin/time reports for one process), "sum" the largest total of
the tree's resident sets at one moment (lovesnap's parent and its worker together).

Timings need a quiet machine: run nothing else meanwhile. CER as in scripts/ocr-benchmark.py.
Needs Debian's tesseract-ocr (the CLI) besides lovesnap's own packages.
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ocr_benchmark", os.path.join(HERE, "ocr-benchmark.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def tree(pid):
    """pid and its descendants, from the kernel's /proc/PID/task/TID/children lists: a walk of
    the few processes of one run, not of all of /proc (which cost a quarter of a core)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError):
            pass
    return out


def status_kb(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system CPU seconds of pid so far (/proc/PID/stat, fields 14 and 15)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, IndexError, ValueError):
        return None


SAMPLE_SECONDS = 0.05


def measure(cmd):
    """(stdout, wall s, CPU s, peak single-process KB, peak tree-sum KB) of one run of cmd.

    The wall time ends when wait4 returns, on a thread of its own; CPU and the largest process's
    peak come from wait4 too (the process and the descendants it reaped: lovesnap's worker).
    Only the tree's sum of resident sets at one moment needs sampling /proc, every 50 ms: the
    sampler costs about 3 % of a core, taken from whichever program is measured. A descendant
    not reaped by its parent still counts through the last /proc reading of its CPU and VmHWM."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG=os.environ.get("LANG", "C.UTF-8"))
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    ended = {}
    out = []

    def reap():
        _, status, usage = os.wait4(p.pid, 0)
        ended["wall"] = time.monotonic() - t
        ended["usage"] = usage
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again

    def drain():
        out.append(p.stdout.read())

    threads = [threading.Thread(target=reap), threading.Thread(target=drain)]
    for th in threads:
        th.start()
    peak, peak_sum, seen = 0, 0, {}
    while "wall" not in ended:
        pids = tree(p.pid)
        for q in pids:
            c = cpu_seconds(q)
            if c is not None:
                seen[q] = max(seen.get(q, 0.0), c)
        peak = max([peak] + [status_kb(q, "VmHWM") for q in pids])
        peak_sum = max(peak_sum, sum(status_kb(q, "VmRSS") for q in pids))
        threads[0].join(SAMPLE_SECONDS)
    for th in threads:
        th.join()
    usage = ended["usage"]
    cpu = max(usage.ru_utime + usage.ru_stime, sum(seen.values()))
    peak = max(peak, usage.ru_maxrss)
    return out[0].decode("utf-8", "replace"), ended["wall"], cpu, peak, max(peak_sum, peak)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--lovesnap", default=os.path.join(HERE, "..", ".build", "release", "lovesnap"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--args", default="--level fast")
    a = ap.parse_args()
    a.dirs = [os.path.abspath(d) for d in a.dirs]  # commonpath needs them all absolute
    if shutil.which("tesseract") is None:
        sys.exit("speed-benchmark: the tesseract CLI is not installed (Debian: apt-get install tesseract-ocr)")
    imgs = []
    for d in a.dirs:
        imgs += sorted(os.path.join(r, f) for r, _, fs in os.walk(d, followlinks=True) for f in fs
                       if f.lower().endswith(bench.EXT) and a.only in os.path.join(r, f)
                       and os.path.exists(os.path.join(r, os.path.splitext(f)[0] + ".gt.txt")))
    cols = [("cli", lambda i: ["tesseract", i, "-", "-l", "eng+fra"]),
            ("lovesnap", lambda i: [a.lovesnap, "ocr"] + a.args.split() + ["--", i])]
    head = (f"{'image':40} {'CLI s':>6} {'ls s':>6} {'wall×':>6} {'CLI cpu':>7} {'ls cpu':>7} {'cpu×':>5}"
            f" {'CLI MiB':>7} {'ls MiB':>6} {'sum':>5} {'RSS×':>5} {'CLI CER':>7} {'ls CER':>6}")
    print(head)
    totals = {n: [0.0, 0.0] for n, _ in cols}
    peaks = {n: [] for n, _ in cols}
    sums, cers = [], {n: [] for n, _ in cols}
    for img in imgs:
        gt = open(os.path.splitext(img)[0] + ".gt.txt", encoding="utf-8").read()
        runs = {n: [] for n, _ in cols}
        for _ in range(a.runs):
            for n, cmd in cols:
                runs[n].append(measure(cmd(img)))
        med = {}
        for n, _ in cols:
            out = runs[n][0][0]
            wall = statistics.median(r[1] for r in runs[n])
            cpu = statistics.median(r[2] for r in runs[n])
            peak = max(r[3] for r in runs[n]) / 1024
            tree_sum = max(r[4] for r in runs[n]) / 1024
            c = bench.cer(out, gt)
            med[n] = (wall, cpu, peak, tree_sum, c)
            totals[n][0] += wall
            totals[n][1] += cpu
            peaks[n].append(peak)
            cers[n].append(c)
        sums.append(med["lovesnap"][3])
        cw, cc, cp, _, ce = med["cli"]
        lw, lc, lp, ls, le = med["lovesnap"]
        name = os.path.relpath(img, os.path.commonpath(a.dirs) if len(a.dirs) > 1 else a.dirs[0])
        print(f"{name[-40:]:40} {cw:6.2f} {lw:6.2f} {lw / cw:6.2f} {cc:7.2f} {lc:7.2f} {lc / cc:5.2f}"
              f" {cp:7.0f} {lp:6.0f} {ls:5.0f} {lp / cp:5.2f} {ce:7.3f} {le:6.3f}", flush=True)
    (cw, cc), (lw, lc) = totals["cli"], totals["lovesnap"]
    print(f"{'total of medians (' + str(len(imgs)) + ' images)':40} {cw:6.1f} {lw:6.1f} {lw / cw:6.2f}"
          f" {cc:7.1f} {lc:7.1f} {lc / cc:5.2f}")
    ratios = [l / c for l, c in zip(peaks["lovesnap"], peaks["cli"])]
    print(f"peak RSS lovesnap/CLI: median {statistics.median(ratios):.2f}, max {max(ratios):.2f};"
          f" tree sum / CLI median {statistics.median(s / c for s, c in zip(sums, peaks['cli'])):.2f}")
    print(f"mean CER: CLI {statistics.mean(cers['cli']):.4f}, lovesnap {statistics.mean(cers['lovesnap']):.4f}")


if __name__ == "__main__":
    main()
