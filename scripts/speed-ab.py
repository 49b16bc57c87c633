#!/usr/bin/env python3
"""Two (or more) builds of lovesnap timed against each other, page by page, interleaved.

usage: scripts/speed-ab.py [--runs N] [--only REGEX] [--args ARGS] [--times FILE] NAME=BIN NAME=BIN... -- DIR...

For every image under each DIR that has IMAGE.gt.txt beside it, runs `BIN ocr [ARGS] IMAGE` for
each build in turn, N passes (default 2), the order of the builds reversed on every other pass
(A B, B A, ...), and prints per build the sum over the pages of each page's fastest run and of its
mean run, the ratio of each build to the first, the median over the pages of each build's peak
memory ÷ the first's (the largest single process, lovesnap's or its worker's; the largest run of
a page each), and the pages that moved most. Each run is measured as scripts/speed-benchmark.py
measures it (OMP_THREAD_LIMIT=1, /proc sampled every 50 ms). The machine's own speed drifts by
7-10 % over minutes (see docs/measurements/speed.md); builds run minutes apart in separate benchmark runs
cannot be compared closer than that, builds interleaved on each page can. It checks
that every build printed the same text for each page (the builds compared are meant to read alike:
a scheduling change, not a reading change), and says which pages differ; for a reading change, the
mean CER of each build (as scripts/ocr-benchmark.py scores it) says whether it read better. With
`--args=--json`, the text compared and scored is the JSON document's `text`.

Timings need a quiet machine: run nothing else meanwhile.
"""
import argparse
import glob
import os
import re
import statistics
import sys
import importlib.util
import json

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ocr_benchmark", os.path.join(HERE, "ocr-benchmark.py"))
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
_spec = importlib.util.spec_from_file_location("speed_benchmark", os.path.join(HERE, "speed-benchmark.py"))
speed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(speed)


def text_of(out, as_json):
    """The text a run printed: its output, or with --json the document's `text`."""
    if not as_json:
        return out
    try:
        return json.loads(out.splitlines()[0])["text"]
    except (ValueError, IndexError, KeyError, TypeError):
        return out


def truth_of(image):
    return os.path.splitext(image)[0] + ".gt.txt"


def pages(dirs, only):
    out = []
    for d in dirs:
        for gt in sorted(glob.glob(os.path.join(d, "**", "*.gt.txt"), recursive=True)):
            images = sorted(p for p in glob.glob(gt[: -len(".gt.txt")] + ".*") if not p.endswith(".gt.txt"))
            if images and re.search(only, images[0]):
                out.append(images[0])
    return out


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit(__doc__)
    split = argv.index("--")
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+", help="NAME=BIN")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--only", default="", help="a regular expression the image path must match")
    ap.add_argument("--args", default="--level fast")
    ap.add_argument("--times", help="also write every run's wall time (s), per build and image, to this JSON file")
    args = ap.parse_args(argv[:split])
    dirs = argv[split + 1 :]
    builds = []
    for b in args.builds:
        name, _, path = b.partition("=")
        if not path or not os.access(path, os.X_OK):
            sys.exit(f"speed-ab: {b}: not NAME=EXECUTABLE")
        builds.append((name, path))
    images = pages(dirs, args.only)
    if not images:
        sys.exit("speed-ab: no image with a .gt.txt beside it")
    times = {name: {} for name, _ in builds}
    texts = {name: {} for name, _ in builds}
    peaks = {name: {} for name, _ in builds}
    for i, image in enumerate(images):
        for run in range(args.runs):
            order = builds if run % 2 == 0 else builds[::-1]
            for name, path in order:
                out, wall, _, rss, _ = speed.measure([path, "ocr", *args.args.split(), image])
                times[name].setdefault(image, []).append(wall)
                peaks[name].setdefault(image, []).append(rss / 1024)
                texts[name][image] = text_of(out, "--json" in args.args.split())
        print(f"\r{i + 1}/{len(images)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if args.times:
        with open(args.times, "w", encoding="utf-8") as f:
            json.dump(times, f, indent=1)
    first = builds[0][0]
    base = sum(min(v) for v in times[first].values())
    print(f"{len(images)} pages, {args.runs} runs of each build per page, interleaved")
    truth = {p: open(truth_of(p), encoding="utf-8").read() for p in images}
    cers = {name: {p: bench.cer(texts[name][p], truth[p]) for p in images} for name, _ in builds}
    for name, _ in builds:
        fastest = sum(min(v) for v in times[name].values())
        mean = sum(sum(v) / len(v) for v in times[name].values())
        cer = sum(cers[name].values()) / len(images)
        rss = statistics.median(max(peaks[name][p]) / max(peaks[first][p]) for p in images)
        print(
            f"{name:>16}: sum of fastest {fastest:8.2f} s  sum of means {mean:8.2f} s  ×{fastest / base:.3f}"
            f"  mean CER {cer:.4f}  peak RSS ×{rss:.3f} (median)"
        )
    for name, _ in builds[1:]:
        grew = sorted((max(peaks[name][p]) - max(peaks[first][p]), p) for p in images)
        print(f"{name} against {first}, peak RSS moved most (MiB):")
        for d, p in grew[:3] + grew[-3:] if len(grew) > 6 else grew:
            print(f"  {d:+.1f}  {p}")
        moved = sorted((min(times[name][p]) - min(times[first][p]), p) for p in images)
        shown = moved[:5] + moved[-5:] if len(moved) > 10 else moved
        print(f"{name} against {first}, most moved (s):")
        for d, p in shown:
            print(f"  {d:+.2f}  {p}")
        differ = [p for p in images if texts[name][p] != texts[first][p]]
        print(
            f"{name}: text differs from {first} on {len(differ)} pages"
            + "".join(f"\n  CER {cers[first][p]:.4f} -> {cers[name][p]:.4f}  {p}" for p in differ)
        )


if __name__ == "__main__":
    main()
