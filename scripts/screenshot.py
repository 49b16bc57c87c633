#!/usr/bin/env python3
"""Renders a terminal capture to a PNG: the text and colours of `tmux capture-pane -e -p` (SGR:
bold, reverse, underline, the 8/16/256 colours and 24-bit RGB), one cell per character in
DejaVu Sans Mono (fonts-dejavu-core), block elements drawn as rectangles so they tile exactly.

    tmux capture-pane -e -p -t SESSION > screen.ansi
    python3 scripts/screenshot.py screen.ansi docs/photo-view.png [--columns 100 --rows 40]

Needs Python 3 with Pillow (pip install pillow). Deterministic: the same capture gives the same PNG.
"""
import argparse
import re
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
CELL_W, CELL_H, SIZE = 10, 20, 16
DEFAULT_FG, DEFAULT_BG = (229, 229, 229), (24, 24, 28)
BASE16 = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188),
          (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67),
          (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255)]


def palette(n):
    """xterm's 256 colours: 16 base, the 6×6×6 cube, 24 greys."""
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[n // 36], levels[(n // 6) % 6], levels[n % 6])
    v = 8 + 10 * (n - 232)
    return (v, v, v)


def cells(lines):
    """Each row as a list of (character, fg, bg, bold, underline). The attributes carry on from one
    row to the next: tmux writes only what changes."""
    out = []
    fg, bg, bold, under, rev = None, None, False, False, False
    for line in lines:
        row = []
        i = 0
        while i < len(line):
            m = re.match(r"\x1b\[([0-9;:]*)m", line[i:])
            if m:
                params = [int(p) if p else 0 for p in re.split("[;:]", m.group(1))] or [0]
                j = 0
                while j < len(params):
                    p = params[j]
                    if p == 0:
                        fg, bg, bold, under, rev = None, None, False, False, False
                    elif p == 1:
                        bold = True
                    elif p == 4:
                        under = True
                    elif p == 7:
                        rev = True
                    elif p == 22:
                        bold = False
                    elif p == 24:
                        under = False
                    elif p == 27:
                        rev = False
                    elif 30 <= p <= 37:
                        fg = palette(p - 30)
                    elif 90 <= p <= 97:
                        fg = palette(p - 90 + 8)
                    elif 40 <= p <= 47:
                        bg = palette(p - 40)
                    elif 100 <= p <= 107:
                        bg = palette(p - 100 + 8)
                    elif p == 39:
                        fg = None
                    elif p == 49:
                        bg = None
                    elif p in (38, 48) and j + 1 < len(params):
                        if params[j + 1] == 5 and j + 2 < len(params):
                            c = palette(params[j + 2])
                            j += 2
                        elif params[j + 1] == 2 and j + 4 < len(params):
                            c = tuple(params[j + 2:j + 5])
                            j += 4
                        else:
                            c = None
                        if p == 38:
                            fg = c
                        else:
                            bg = c
                    j += 1
                i += m.end()
                continue
            if line[i] == "\x1b":  # another sequence: skipped
                i += 1
                continue
            f, b = fg or DEFAULT_FG, bg or DEFAULT_BG
            if rev:
                f, b = b, f
            row.append((line[i], f, b, bold, under))
            i += 1
        out.append(row)
    return out


def block(draw, ch, x, y, colour):
    """Block elements U+2580–U+259F as exact rectangles; True when drawn."""
    o = ord(ch)
    W, H = CELL_W, CELL_H
    rects = []
    if o == 0x2580:
        rects = [(0, 0, W, H / 2)]
    elif 0x2581 <= o <= 0x2588:
        rects = [(0, H - H * (o - 0x2580) / 8, W, H)]
    elif 0x2589 <= o <= 0x258F:
        rects = [(0, 0, W * (0x2590 - o) / 8, H)]
    elif o == 0x2590:
        rects = [(W / 2, 0, W, H)]
    elif o == 0x2594:
        rects = [(0, 0, W, H / 8)]
    elif o == 0x2595:
        rects = [(W - W / 8, 0, W, H)]
    elif 0x2596 <= o <= 0x259F:
        q = {0x2596: "3", 0x2597: "4", 0x2598: "1", 0x2599: "134", 0x259A: "14", 0x259B: "123", 0x259C: "124",
             0x259D: "2", 0x259E: "23", 0x259F: "234"}[o]
        quads = {"1": (0, 0, W / 2, H / 2), "2": (W / 2, 0, W, H / 2), "3": (0, H / 2, W / 2, H),
                 "4": (W / 2, H / 2, W, H)}
        rects = [quads[c] for c in q]
    elif o == 0x2588:
        rects = [(0, 0, W, H)]
    else:
        return False
    for (a, b, c, d) in rects:
        draw.rectangle((x + a, y + b, x + c - 1, y + d - 1), fill=colour)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("capture")
    ap.add_argument("png")
    ap.add_argument("--columns", type=int, default=None)
    ap.add_argument("--rows", type=int, default=None)
    args = ap.parse_args()
    with open(args.capture, encoding="utf-8") as f:
        lines = unicodedata.normalize("NFC", f.read()).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    grid = cells(lines)
    columns = args.columns or max((len(r) for r in grid), default=1)
    rows = args.rows or len(grid)
    image = Image.new("RGB", (columns * CELL_W, rows * CELL_H), DEFAULT_BG)
    draw = ImageDraw.Draw(image)
    regular, bold = ImageFont.truetype(FONT, SIZE), ImageFont.truetype(BOLD, SIZE)
    for r, row in enumerate(grid[:rows]):
        for c, (ch, fg, bg, is_bold, under) in enumerate(row[:columns]):
            x, y = c * CELL_W, r * CELL_H
            draw.rectangle((x, y, x + CELL_W - 1, y + CELL_H - 1), fill=bg)
            if ch != " " and not block(draw, ch, x, y, fg):
                draw.text((x, y + CELL_H - 4), ch, font=bold if is_bold else regular, fill=fg, anchor="ls")
            if under:
                draw.line((x, y + CELL_H - 2, x + CELL_W - 1, y + CELL_H - 2), fill=fg)
    image.save(args.png, optimize=True)


if __name__ == "__main__":
    main()
