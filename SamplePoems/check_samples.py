#!/usr/bin/env python3
"""Read every sample image back with tesseract and compare with its NAME.txt.

How to run (needs Python 3 + Pillow and tesseract 5 with eng and fra data,
Debian packages `tesseract-ocr tesseract-ocr-eng tesseract-ocr-fra`):

    python3 SamplePoems/check_samples.py             # every image, both language orders
    python3 SamplePoems/check_samples.py kettle      # images whose name contains "kettle"

For each image and each of `-l eng+fra` and `-l fra+eng` (always `--psm 3`,
OMP_THREAD_LIMIT=1) it runs three readings:

  cli    the image file as it is:  tesseract IMG - -l LANGS --psm 3
  otsu   Pillow: EXIF orientation applied, alpha composited on white,
         grayscale, one global Otsu threshold; then tesseract on that
  prod   like the product's preprocessing: EXIF orientation applied, alpha
         composited on white, grayscale, background normalisation (divide
         by a blurred max-filtered background), Otsu; then tesseract

and prints the character error rate (CER) with the rule of
scripts/ocr-benchmark.py: Levenshtein(ocr, truth) / len(truth) after NFC
and collapsing all whitespace to single spaces, plus the word-level
differences as `truth -> ocr`.  Exit status is 0 whatever the scores.
"""
import difflib
import io
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from concurrent.futures import ThreadPoolExecutor

from PIL import Image, ImageFilter, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
LANGS = ("eng+fra", "fra+eng")
SUFFIXES = ("-photo", "-exif6", "-transparent")


# The scoring rule lives in one place: scripts/ocr-benchmark.py.
import importlib.util
_spec = importlib.util.spec_from_file_location("ocr_benchmark", os.path.join(HERE, "..", "scripts", "ocr-benchmark.py"))
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
norm, levenshtein = _bench.norm, _bench.lev


def word_diff(truth, ocr):
    t, o = truth.split(" "), ocr.split(" ")
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, t, o, autojunk=False).get_opcodes():
        if op != "equal":
            out.append(f"{' '.join(t[i1:i2]) or '∅'} -> {' '.join(o[j1:j2]) or '∅'}")
    return out


def upright_gray(path):
    img = ImageOps.exif_transpose(Image.open(path))
    if img.mode in ("RGBA", "LA") or (img.mode == "P" and "transparency" in img.info):
        img = img.convert("RGBA")
        white = Image.new("RGBA", img.size, (255, 255, 255, 255))
        img = Image.alpha_composite(white, img)
    return img.convert("L")


def otsu(gray):
    hist = gray.histogram()
    total = sum(hist)
    sum_all = sum(i * h for i, h in enumerate(hist))
    best, thr, w0, s0 = -1.0, 128, 0, 0
    for t in range(256):
        w0 += hist[t]
        s0 += t * hist[t]
        w1 = total - w0
        if w0 == 0 or w1 == 0:
            continue
        m0, m1 = s0 / w0, (sum_all - s0) / w1
        between = w0 * w1 * (m0 - m1) ** 2
        if between > best:
            best, thr = between, t
    return gray.point(lambda v: 255 if v > thr else 0)


def normalise_background(gray):
    bg = gray.filter(ImageFilter.MaxFilter(15)).filter(ImageFilter.GaussianBlur(25))
    g, b = gray.tobytes(), bg.tobytes()
    out = bytes(min(255, (x * 255) // max(1, y)) for x, y in zip(g, b))
    return Image.frombytes("L", gray.size, out)


def tesseract(path, langs):
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    r = subprocess.run(["tesseract", path, "-", "-l", langs, "--psm", "3"],
                       capture_output=True, env=env)
    return r.stdout.decode("utf-8", "replace")


def truth_for(image_name):
    stem = os.path.splitext(image_name)[0]
    for s in SUFFIXES:
        if stem.endswith(s):
            stem = stem[: -len(s)]
    with open(os.path.join(HERE, stem + ".txt"), encoding="utf-8") as f:
        return f.read()


def main(argv):
    images = sorted(f for f in os.listdir(HERE) if f.endswith((".png", ".jpg"))
                    and (not argv or any(a in f for a in argv)))
    tmp = tempfile.mkdtemp(prefix="samplepoems-")
    jobs = []
    for name in images:
        path = os.path.join(HERE, name)
        gray = upright_gray(path)
        variants = {"cli": path}
        for kind, img in (("otsu", otsu(gray)), ("prod", otsu(normalise_background(gray)))):
            p = os.path.join(tmp, f"{kind}-{os.path.splitext(name)[0]}.png")
            img.save(p)
            variants[kind] = p
        for kind, p in variants.items():
            for langs in LANGS:
                jobs.append((name, kind, langs, p))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda j: tesseract(j[3], j[2]), jobs))
    last = None
    for (name, kind, langs, _), ocr in zip(jobs, results):
        if name != last:
            print(f"\n== {name}")
            last = name
        truth, got = norm(truth_for(name)), norm(ocr)
        cer = levenshtein(got, truth) / max(1, len(truth))
        diffs = word_diff(truth, got)
        status = "exact" if got == truth else "; ".join(diffs)
        print(f"  {kind:4} {langs}  CER {100 * cer:5.2f}%  {status}")


if __name__ == "__main__":
    main(sys.argv[1:])
