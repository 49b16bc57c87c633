#!/usr/bin/env python3
"""How well lovesnap's uncertain-word marks point at the words OCR got wrong.

usage: scripts/mark-quality.py [--lovesnap BIN] [--cache DIR] [--only SUBSTR] [--half even|odd]
                               [--thresholds 50,60,...] [--per-image] DIR

For every image under DIR with its ground truth beside it (photo.jpg → photo.gt.txt), runs `lovesnap ocr --json IMAGE` once
(`--cache DIR` keeps each JSON output and reuses it), aligns the recognized words with the
ground-truth words, and prints, for several confidence thresholds T:

  recall     share of wrong words that are marked
  precision  share of marked words that are wrong

for the confidence alone (a word is marked when its confidence < T) and for lovesnap's rules
(confidence < T, or any other doubt the JSON lists: readingsDisagree, unknownWord,
unusualCharacters, missingAccent, learnedReadingDiffers; none of them when the learned
recognizer read the word the same way, `learnedAgrees`, and its only doubts are the confidence
and readingsDisagree), then what each other signal adds at the default threshold, and what the
candidate signals not in the rules would add (the other preparation's differing `otherReading`).

Words are tokens between white space, NFC, typographic apostrophes and quotes read as straight
ones; a recognized word is *right* when a word-level Levenshtein alignment (match 0,
substitution, insertion, deletion 1) pairs it with an identical truth word (case and punctuation
count), or, failing that, when an identical truth word is left over that no other recognized word
took (a word read right but in another reading order than the truth's: table cells, columns);
else it is *wrong*. Truth words OCR dropped cannot be marked; they are counted apart.
"""
import argparse, json, os, subprocess, sys, unicodedata
from collections import Counter

EXT = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".webp", ".pnm", ".ppm", ".pgm", ".pbm")
SIGNALS = ["readingsDisagree", "unknownWord", "unusualCharacters", "missingAccent", "learnedReadingDiffers"]
# The doubts a learned reading that agrees lifts (Proofreading.liftedByAgreement), beside a
# confidence under the threshold.
LIFTED = {"readingsDisagree"}


def marked_at(w, t, signals, lifting=True):
    """lovesnap's rule at threshold t with the doubts `signals`: a confidence under t or one of
    the signals, unless the learned recognizer read the word the same way and the word's only
    doubts are Tesseract's hesitation (`lifting`)."""
    doubts = [s for s in w["doubts"] if s in signals]
    if not (w["confidence"] < t or doubts):
        return False
    return not (lifting and w.get("learnedAgrees") and set(doubts) <= LIFTED)
# Signals measured but not in lovesnap's rules: (name, test of a JSON word).
CANDIDATES = [
    # The other preparation (the page read twice) read something else at the word's place.
    ("otherReading differs", lambda w: w.get("otherReading") is not None),
    ("otherReading another word", lambda w: bool(w.get("otherReading"))),
]


def norm(word):
    w = unicodedata.normalize("NFC", word)
    for a, b in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        w = w.replace(a, b)
    return w


def align(ocr, truth):
    """For each OCR token, whether alignment pairs it with an identical truth token."""
    n, m = len(ocr), len(truth)
    # cost[i][j]: edit distance of ocr[:i] and truth[:j]
    cost = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = i
    for j in range(1, m + 1):
        cost[0][j] = j
    for i in range(1, n + 1):
        oi = ocr[i - 1]
        row, prev = cost[i], cost[i - 1]
        for j in range(1, m + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (0 if oi == truth[j - 1] else 1))
    right = [False] * n
    i, j = n, m
    matched = 0
    while i > 0 and j > 0:
        if ocr[i - 1] == truth[j - 1] and cost[i][j] == cost[i - 1][j - 1]:
            right[i - 1] = True
            matched += 1
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j - 1] + 1:
            i, j = i - 1, j - 1
        elif cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
        else:
            j -= 1
    left = Counter(truth)
    for o, r in zip(ocr, right):
        if r:
            left[o] -= 1
    for k, o in enumerate(ocr):
        if not right[k] and left[o] > 0:
            left[o] -= 1
            right[k] = True
    return right, matched


def truth_of(image):
    return os.path.splitext(image)[0] + ".gt.txt"


def images(root, only):
    for d, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            path = os.path.join(d, f)
            if f.lower().endswith(EXT) and os.path.exists(truth_of(path)) and only in path:
                yield path


def words_of(lovesnap, image, root, cache):
    cached = os.path.join(cache, os.path.relpath(image, root) + ".json") if cache else None
    if cached and os.path.exists(cached):
        with open(cached, encoding="utf-8") as f:
            return json.load(f)
    env = dict(os.environ, OMP_THREAD_LIMIT="1", LANG=os.environ.get("LANG", "C.UTF-8"))
    p = subprocess.run([lovesnap, "ocr", "--json", image], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    data = json.loads(p.stdout.decode("utf-8") or '{"text": "", "words": []}')
    if cached:
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with open(cached, "w", encoding="utf-8") as f:
            json.dump(data, f)
    return data


def score(words, marked):
    wrong = sum(1 for w in words if not w["right"])
    flagged = [w for w in words if marked(w)]
    hits = sum(1 for w in flagged if not w["right"])
    recall = hits / wrong if wrong else 1.0
    precision = hits / len(flagged) if flagged else 1.0
    return len(flagged), hits, wrong, recall, precision


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--lovesnap", default=os.path.join(here, "..", ".build", "release", "lovesnap"))
    ap.add_argument("--cache", default=None)
    ap.add_argument("--only", default="")
    ap.add_argument("--thresholds", default="0,50,70,80,85,88,90,92,95")
    ap.add_argument("--default", type=int, default=None, help="threshold of the ablation (default: lovesnap's)")
    ap.add_argument("--per-image", action="store_true")
    ap.add_argument("--half", choices=["even", "odd"], help="only the images at even (odd) places in sorted order")
    args = ap.parse_args()

    words, dropped, default = [], 0, None
    for k, image in enumerate(images(args.dir, args.only)):
        if args.half and k % 2 != (0 if args.half == "even" else 1):
            continue
        data = words_of(args.lovesnap, image, args.dir, args.cache)
        default = data.get("uncertainBelow", default)
        with open(truth_of(image), encoding="utf-8") as f:
            truth = [norm(t) for t in f.read().split()]
        ocr = [norm(w["text"]) for w in data["words"]]
        right, matched = align(ocr, truth)
        dropped += len(truth) - matched
        for w, r in zip(data["words"], right):
            w["right"] = r
            w["image"] = image
        if args.per_image:
            wrong = sum(1 for r in right if not r)
            print(f"{os.path.relpath(image, args.dir)}: {len(ocr)} words, {wrong} wrong", file=sys.stderr)
        words += data["words"]
    if args.default is not None:
        default = args.default
    wrong = sum(1 for w in words if not w["right"])
    print(f"{len(words)} recognized words, {wrong} wrong; {dropped} truth words not aligned with an identical word")
    # On a clean set (text printed without a mistake: the stress sets of scripts/make-stress-set.py)
    # every mark on a word read right is a false alarm: how many per 200 correct words.
    false_marks = sum(1 for w in words if w["right"] and w.get("uncertain"))
    right = len(words) - wrong
    if right:
        print(f"words read right but marked (lovesnap's marks as given): {false_marks}, "
              f"{200 * false_marks / right:.2f} per 200 correct words")
    print()
    print("| threshold | confidence only: marked | recall | precision | all signals: marked | recall | precision |")
    print("|---|---|---|---|---|---|---|")
    for t in [int(x) for x in args.thresholds.split(",")]:
        c = score(words, lambda w: w["confidence"] < t)
        a = score(words, lambda w: marked_at(w, t, SIGNALS))
        star = " (default)" if t == default else ""
        print(f"| {t}{star} | {c[0]} | {c[3]:.2f} | {c[4]:.2f} | {a[0]} | {a[3]:.2f} | {a[4]:.2f} |")
    if default is None:
        return
    print()
    print(f"Each signal at threshold {default}:")
    print()
    print("| signals | marked | wrong found | recall | precision |")
    print("|---|---|---|---|---|")
    rows = [("confidence", [], False)] + [("confidence + " + s, [s], False) for s in SIGNALS]
    rows += [("all", SIGNALS, False), ("all, lifted where the learned reading agrees (lovesnap's rule)", SIGNALS, True)]
    rows += [("all but " + s, [x for x in SIGNALS if x != s], True) for s in SIGNALS]
    rows += [("confidence, lifted where the learned reading agrees", [], True)]
    for name, signals, lifting in rows:
        r = score(words, lambda w: marked_at(w, default, signals, lifting))
        print(f"| {name} | {r[0]} | {r[1]} | {r[3]:.2f} | {r[4]:.2f} |")
    # Candidates measured before they join the rules (they are not doubts lovesnap marks by).
    for name, test in CANDIDATES:
        for base, signals in (("confidence", []), ("all", SIGNALS)):
            r = score(
                words,
                lambda w: marked_at(w, default, signals) or test(w),
            )
            print(f"| {base} + {name} (candidate) | {r[0]} | {r[1]} | {r[3]:.2f} | {r[4]:.2f} |")


if __name__ == "__main__":
    main()
