#!/usr/bin/env python3
"""Checks that a reading shared by two engines is the reading of one engine.

Runs `lovesnap ocr --json --threads 1` and `--threads 2` on every image of the given folders
(recursively: .png .jpg .jpeg .tif .tiff .bmp .gif .webp .pgm), one after the other, and
compares the two JSON documents: the text, the mean confidence (0-100) and every word (text,
box in photo pixels, confidence, line). Prints one row per image (whether the page was shared,
from the --verbose diagnostics, the wall time of each run in seconds and their ratio) and, at
the end, the images whose readings differ, with the first difference.

    swift build -c release
    python3 scripts/shared-reading-check.py ../shared/corpus /tmp/stress

Exit status 1 when any reading differs. Writes nothing but its output.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

EXTENSIONS = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp", ".pgm")


def images(folders):
    for folder in folders:
        for root, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if name.lower().endswith(EXTENSIONS):
                    yield os.path.join(root, name)


def run(binary, image, threads):
    start = time.monotonic()
    p = subprocess.run(
        [binary, "ocr", "--json", "--verbose", "--threads", str(threads), "--", image],
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - start
    doc = json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else None
    return doc, wall, p.stderr, p.returncode


def comparable(doc):
    if doc is None:
        return None
    words = [(w["text"], tuple(w["box"]), w["confidence"], w["line"]) for w in doc["words"]]
    return doc["text"], doc["meanConfidence"], words


def first_difference(a, b):
    if a is None or b is None:
        return "one run failed"
    if a[0] != b[0]:
        la, lb = a[0].split("\n"), b[0].split("\n")
        for i, (x, y) in enumerate(zip(la, lb)):
            if x != y:
                return f"text line {i + 1}: {x!r} / {y!r}"
        return f"text: {len(la)} / {len(lb)} lines"
    if a[1] != b[1]:
        return f"mean confidence {a[1]} / {b[1]}"
    for x, y in zip(a[2], b[2]):
        if x != y:
            return f"word {x} / {y}"
    return f"words: {len(a[2])} / {len(b[2])}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--lovesnap", default=".build/release/lovesnap")
    args = ap.parse_args()
    differing = []
    ratios = []
    shared = 0
    total = [0.0, 0.0]
    print(f"{'image':60} {'shared':>14} {'1 engine':>9} {'2':>7} {'ratio':>6}")
    for image in images(args.folders):
        one, t1, _, rc1 = run(args.lovesnap, image, 1)
        two, t2, err, rc2 = run(args.lovesnap, image, 2)
        note = "-"
        for line in err.splitlines():
            if "read by two engines" in line:
                note = line.split("lines ")[-1].split(" by")[0]
                shared += 1
            elif "read by one engine" in line:
                note = "layouts differ"
        total[0] += t1
        total[1] += t2
        ratios.append(t2 / t1)
        name = os.path.relpath(image)
        print(f"{name[-60:]:60} {note:>14} {t1:9.2f} {t2:7.2f} {t2 / t1:6.2f}", flush=True)
        a, b = comparable(one), comparable(two)
        if a != b or rc1 != rc2:
            differing.append((name, first_difference(a, b)))
    n = len(ratios)
    print(f"\n{n} images, {shared} shared; wall {total[0]:.1f} s with one engine, {total[1]:.1f} s with two "
          f"({total[1] / total[0]:.3f}); median ratio {statistics.median(ratios):.3f}")
    print(f"{len(differing)} readings differ")
    for name, why in differing:
        print(f"  {name}: {why}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
