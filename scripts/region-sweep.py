#!/usr/bin/env python3
"""How stable `lovesnap ocr --region` is at a region's edges.

usage: scripts/region-sweep.py [--lovesnap BIN] PHOTO X Y W H

Frames the box X,Y,W,H (pixels of the upright photo, tight around some text) with margins of 0,
2, 4, 8 and 16 pixels, each shifted by -4, 0 and +4 pixels in x and in y (45 frames), reads each
with `lovesnap ocr --region`, and prints how many frames gave each text (lines joined by "|"),
the most frequent first, with one frame that gave it.
"""
import argparse
import collections
import subprocess


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lovesnap", default=".build/release/lovesnap")
    parser.add_argument("photo")
    parser.add_argument("box", nargs=4, type=int, metavar="N")
    args = parser.parse_args()
    x, y, w, h = args.box
    texts = collections.Counter()
    example = {}
    for margin in (0, 2, 4, 8, 16):
        for dx in (-4, 0, 4):
            for dy in (-4, 0, 4):
                frame = f"{max(0, x - margin + dx)},{max(0, y - margin + dy)},{w + 2 * margin},{h + 2 * margin}"
                run = subprocess.run(
                    [args.lovesnap, "ocr", "--region", frame, args.photo], capture_output=True, text=True)
                text = "|".join(run.stdout.splitlines()) if run.returncode == 0 else f"(exit {run.returncode})"
                texts[text] += 1
                example.setdefault(text, frame)
    for text, count in texts.most_common():
        print(f"{count:3d}  {text or '(no text)'}   e.g. {example[text]}")


if __name__ == "__main__":
    main()
