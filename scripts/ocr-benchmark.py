#!/usr/bin/env python3
"""Accuracy and speed of `lovesnap ocr` beside the plain tesseract CLI, in the same run.

usage: scripts/ocr-benchmark.py [--lovesnap BIN] [--only SUBSTR] [--config NAME=ARGS ...]
                                [--peer NAME=COMMAND ...] [--by-folder] DIR

For every image under DIR that has IMAGE.gt.txt beside it (UTF-8 ground truth), runs
  tesseract IMAGE - -l eng+fra                 (with OMP_THREAD_LIMIT=1, as lovesnap's worker)
  COMMAND IMAGE                                (one column per --peer NAME=COMMAND, e.g. a
                                                script printing RapidOCR's lines for IMAGE)
  lovesnap ocr [ARGS] IMAGE                    (one column per --config; default: fast, accurate)
and prints per-image character error rate (CER), then mean and median CER and total wall time
per column, and each column's time as a ratio to the CLI's. --by-folder also prints the mean CER
of each first-level folder (the conditions of a stress set made by scripts/make-stress-set.py),
and how many images each column reads worse than the CLI by more than 0.005.
CER = Levenshtein(ocr, truth) / len(truth) after NFC and collapsing all whitespace to one space.
"""
import argparse, os, re, statistics, subprocess, sys, time, unicodedata

EXT = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".webp", ".pnm", ".ppm", ".pgm", ".pbm")

def norm(s):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", s)).strip()

def lev(a, b):
    if len(a) < len(b): a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]

def cer(ocr, gt):
    o, g = norm(ocr), norm(gt)
    return lev(o, g) / max(1, len(g))

def run(cmd):
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG=os.environ.get("LANG", "C.UTF-8"))
    t = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    return p.stdout.decode("utf-8", "replace"), time.monotonic() - t

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--lovesnap", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "lovesnap"))
    ap.add_argument("--only", default="")
    ap.add_argument("--config", action="append", help="NAME=ARGS for lovesnap ocr, e.g. fast='--level fast'")
    ap.add_argument("--no-cli", action="store_true", help="skip the tesseract CLI column")
    ap.add_argument("--times", action="store_true", help="also print each image's wall seconds per column")
    ap.add_argument("--peer", action="append", default=[], help="NAME=COMMAND run as COMMAND IMAGE (a peer OCR program)")
    ap.add_argument("--by-folder", action="store_true", help="also print mean CER per first-level folder")
    ap.add_argument("--keep", help="write each column's text to KEEP/COLUMN/IMAGE.txt")
    a = ap.parse_args()
    configs = [c.split("=", 1) for c in (a.config or ["fast=--level fast", "accurate=--level accurate"])]
    imgs = sorted(os.path.join(r, f) for r, _, fs in os.walk(a.dir) for f in fs
                  if f.lower().endswith(EXT) and a.only in os.path.join(r, f)
                  and os.path.exists(os.path.join(r, os.path.splitext(f)[0] + ".gt.txt")))
    cols = ([] if a.no_cli else [("tesseract", lambda i: ["tesseract", i, "-", "-l", "eng+fra"])]) + \
           [(n, (lambda c: lambda i: c.split() + [i])(c)) for n, c in (p.split("=", 1) for p in a.peer)] + \
           [(n, (lambda args: lambda i: [a.lovesnap, "ocr"] + args.split() + ["--", i])(args)) for n, args in configs]
    scores = {n: [] for n, _ in cols}
    times = {n: 0.0 for n, _ in cols}
    print(f"{'image':48}" + "".join(f"{n:>12}" for n, _ in cols))
    for img in imgs:
        gt = open(os.path.splitext(img)[0] + ".gt.txt", encoding="utf-8").read()
        row = f"{os.path.relpath(img, a.dir)[:48]:48}"
        for n, cmd in cols:
            out, dt = run(cmd(img))
            if a.keep:
                kept = os.path.join(a.keep, n, os.path.relpath(img, a.dir) + ".txt")
                os.makedirs(os.path.dirname(kept), exist_ok=True)
                with open(kept, "w", encoding="utf-8") as f:
                    f.write(out)
            c = cer(out, gt)
            scores[n].append(c); times[n] += dt
            row += f"{c:12.3f}" + (f" {dt:6.2f}s" if a.times else "")
        print(row, flush=True)
    if a.by_folder:
        folders = sorted({os.path.relpath(i, a.dir).split(os.sep)[0] for i in imgs})
        print()
        for folder in folders:
            idx = [k for k, i in enumerate(imgs) if os.path.relpath(i, a.dir).split(os.sep)[0] == folder]
            print(f"{('mean CER ' + folder + f' ({len(idx)})')[:48]:48}" +
                  "".join(f"{statistics.mean(scores[n][k] for k in idx):12.3f}" for n, _ in cols), flush=True)
        print()
    if not a.no_cli:
        print(f"{'worse than the CLI by > 0.005':48}" + "".join(
            f"{sum(1 for c, t in zip(scores[n], scores['tesseract']) if c > t + 0.005):12d}" for n, _ in cols))
    print(f"{'mean CER':48}" + "".join(f"{statistics.mean(scores[n]):12.3f}" for n, _ in cols))
    print(f"{'median CER':48}" + "".join(f"{statistics.median(scores[n]):12.3f}" for n, _ in cols))
    print(f"{'wall seconds':48}" + "".join(f"{times[n]:12.1f}" for n, _ in cols))
    if not a.no_cli:
        print(f"{'time / tesseract CLI':48}" + "".join(f"{times[n] / times['tesseract']:12.2f}" for n, _ in cols))

if __name__ == "__main__":
    main()
