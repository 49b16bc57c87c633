#!/usr/bin/env python3
"""Every image read with each set of options: what hangs, fails or loses the text.

usage: scripts/option-sweep.py [--lovesnap BIN] [--timeout S] [--jobs N]
                               [--options ARGS ...] DIR...

For every image under each DIR that has IMAGE.gt.txt beside it, runs
  lovesnap ocr ARGS IMAGE
once for each --options ARGS (default: the sets below), N at a time, each with a time limit, and
prints the runs that
  - did not end within the limit (a hang: the OCR run's own --timeout is 300 s),
  - exited with a status other than 0,
  - printed no text where `lovesnap ocr IMAGE` with no options prints some;
then how many runs of each set there were and how many of them were flagged. Exit status 1 when
any run was flagged. Not a timing: the runs share the machine.

Found, each on a few of the stress set's 110 photos: `-l eng` waiting for ever for blocks the
reader was never asked for, and `-l eng` keeping an empty reading over a clear one.

Outputs of -f/-o sets go to a temporary folder, one per run.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

EXT = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".webp", ".pnm", ".ppm", ".pgm", ".pbm")
DEFAULT_SETS = ["", "-l eng", "-l fra", "--threads 1", "--level accurate", "--no-osd", "--psm 6",
                "--binarization sauvola", "--json", "-f txt,hocr,tsv,alto,pdf -o {out}/page"]


def images(dirs):
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                base, ext = os.path.splitext(f)
                if ext.lower() in EXT and os.path.exists(os.path.join(root, base + ".gt.txt")):
                    yield os.path.join(root, f)


def run(binary, options, image, timeout):
    """(status or None on a hang, bytes of text printed or written, stderr's last line)."""
    with tempfile.TemporaryDirectory(prefix="lovesnap-sweep-") as out:
        args = [binary, "ocr"] + [a.replace("{out}", out) for a in options.split()] + [image]
        try:
            p = subprocess.run(args, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None, 0, ""
        written = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out) if f.endswith(".txt"))
        wrote_files = bool(os.listdir(out))
        text = written if wrote_files else len(p.stdout.strip())
        last = p.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        return p.returncode, text, last[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lovesnap", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "lovesnap"))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--options", action="append", help="one set of options (repeatable)")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    sets = a.options or DEFAULT_SETS
    if "" not in sets:
        sets = [""] + sets
    imgs = list(images(a.dirs))
    if not imgs:
        sys.exit("no image with a .gt.txt beside it under " + " ".join(a.dirs))
    jobs = [(s, i) for s in sets for i in imgs]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = dict(zip(jobs, pool.map(lambda j: run(a.lovesnap, j[0], j[1], a.timeout), jobs)))
    flagged = {s: 0 for s in sets}
    for (s, img), (status, text, last) in results.items():
        why = None
        if status is None:
            why = f"no end within {a.timeout:g} s"
        elif status != 0:
            why = f"exit {status}: {last}"
        elif text == 0 and s != "--json" and results[("", img)][1] > 0:
            why = f"no text (without options: {results[('', img)][1]} bytes): {last}"
        if why:
            flagged[s] += 1
            print(f"{s or '(no options)'}\t{img}\t{why}")
    for s in sets:
        print(f"{s or '(no options)'}: {len(imgs)} runs, {flagged[s]} flagged")
    sys.exit(1 if any(flagged.values()) else 0)


if __name__ == "__main__":
    main()
