#!/usr/bin/env python3
"""Make a stress set of software-photographed poem pages, with exact ground truth.

usage: python3 scripts/make-stress-set.py OUTDIR [--seeds N] [--first-seed K] [--only COND,...]

Each of the project's poems (SamplePoems/*.txt) is rendered as a printed page and then
"photographed" in software under one condition at a time, for seeds K .. K+N-1 (default 0..5):

  clean-scan        the page as a flat grey scan: nothing to correct (guards against preparation
                    that hurts a page needing none)
  dark-table        the page small in the frame (35-60 % of its width), turned 2-8 degrees, on a
                    dark, noisy table
  textured-table    the page on a wood-grain table, turned, 50-75 % of the frame
  perspective       strong keystone: the page's corners moved 7-15 % of its sides
  curl              an open book's page: lines bend toward the gutter, which is shaded
  shadow            a soft-edged shadow (35-60 % of the light) across part of the page
  dim-warm          dim, warm light (25-45 % gain, orange cast), stronger sensor noise
  local-blur        part of the page out of focus (Gaussian radius 2-3.5 px)
  inverted-heading  a heading printed light on a dark band above the poem
  scene-text        short white lines on a dark blue sign on a stone wall (scene text)
  archive-scan      a typewritten page in faint ink on yellowed paper, scanned on a black ground
                    that shows as a thin margin (the page fills 90-97 % of the frame), turned
                    up to 1 degree

Every condition but clean-scan also gets mild perspective, uneven light, grain and JPEG at phone
quality (60-85). Output: OUTDIR/COND/COND-sNN-POEM.{jpg,png} with COND-sNN-POEM.gt.txt beside it
(the exact text, one printed line per line), so scripts/ocr-benchmark.py can score any OCR
command on it. Everything random comes from
random.Random(f"{cond}:{seed}"), so the same seed gives the same image on the same Pillow/numpy.
Needs Python 3, Pillow and numpy (pip install pillow numpy) and Debian's fonts-dejavu-core.
"""
import argparse
import math
import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
POEMS = os.path.join(HERE, "..", "SamplePoems")
FONTS = "/usr/share/fonts/truetype/dejavu/"
BODY_FONTS = ["DejaVuSerif.ttf", "DejaVuSans.ttf", "DejaVuSerifCondensed.ttf", "DejaVuSansCondensed.ttf"]
CONDITIONS = ["clean-scan", "dark-table", "textured-table", "perspective", "curl", "shadow",
              "dim-warm", "local-blur", "inverted-heading", "scene-text", "archive-scan"]
HEADINGS = ["POÈMES CHOISIS", "FOR LENORE", "CHANSONS D'ÉTÉ", "EVENING SONGS"]


def poems():
    out = []
    for name in sorted(os.listdir(POEMS)):
        if name.endswith(".txt") and name != "README.txt":
            with open(os.path.join(POEMS, name), encoding="utf-8") as f:
                out.append((name[:-4], f.read().rstrip("\n").split("\n")))
    return out


def render_page(lines, rnd, heading=None, typewritten=False):
    """Grey page (numpy float32, 0 = black .. 1 = white) and the printed lines, top to bottom.
    `typewritten`: a monospaced face in faint ink (grey 90-140 of 255)."""
    size = rnd.randint(26, 40)
    font = ImageFont.truetype(FONTS + ("DejaVuSansMono.ttf" if typewritten else rnd.choice(BODY_FONTS)), size)
    pitch = round(size * rnd.uniform(1.4, 1.7))
    margin = round(size * rnd.uniform(2.0, 3.5))
    width = round(max(font.getlength(l) for l in lines) + 2 * margin + size * rnd.uniform(0, 4))
    head_h = 0
    if heading:
        head_font = ImageFont.truetype(FONTS + "DejaVuSans-Bold.ttf", round(size * 1.3))
        width = max(width, round(head_font.getlength(heading) + 2 * margin))
        head_h = round(size * 3.2)
    height = margin * 2 + head_h + pitch * (len(lines) - 1) + size * 2
    ink = rnd.randint(90, 140) if typewritten else rnd.randint(15, 60)
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    if heading:
        band_top, band_bottom = margin - size // 2, margin + head_h - size
        draw.rectangle([margin // 2, band_top, width - margin // 2, band_bottom], fill=ink)
        draw.text((width / 2, (band_top + band_bottom) / 2), heading, font=head_font, fill=245, anchor="mm")
    for i, line in enumerate(lines):
        if line:
            draw.text((margin, margin + head_h + size + i * pitch), line, font=font, fill=ink, anchor="ls")
    printed = ([heading] if heading else []) + lines
    return np.asarray(img, dtype=np.float32) / 255.0, printed


def render_sign(rnd):
    """White bold lines on a dark blue plate (RGB float), and its lines."""
    words = ["RUE DE LA PAIX", "PLACE LENORE", "AVENUE DES ROSES", "QUAI DU PORT", "IMPASSE DU MOULIN",
             "BOULEVARD VICTOR HUGO", "PARC MONCEAU", "SORTIE", "GARE DU NORD"]
    lines = rnd.sample(words, rnd.randint(1, 3))
    size = rnd.randint(48, 80)
    font = ImageFont.truetype(FONTS + rnd.choice(["DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf"]), size)
    pad = size
    width = round(max(font.getlength(l) for l in lines) + 2 * pad)
    height = round(len(lines) * size * 1.4 + pad * 1.2)
    mask = Image.new("L", (width, height), 0)
    d = ImageDraw.Draw(mask)
    for i, l in enumerate(lines):
        d.text((width / 2, pad * 0.6 + size * 1.4 * (i + 0.5)), l, font=font, fill=255, anchor="mm")
    m = np.asarray(mask, dtype=np.float32)[..., None] / 255.0
    blue = np.array([0.08, 0.18, 0.45] if rnd.random() < 0.7 else [0.05, 0.30, 0.18], dtype=np.float32)
    white = np.array([0.93, 0.93, 0.95], dtype=np.float32)
    plate = blue * (1 - m) + white * m
    return plate, lines


def sample(src, xs, ys, fill):
    """Bilinear sampling of src (H×W or H×W×3) at float coordinates; `fill` outside."""
    h, w = src.shape[:2]
    x0, y0 = np.floor(xs).astype(int), np.floor(ys).astype(int)
    fx, fy = xs - x0, ys - y0
    inside = (x0 >= 0) & (y0 >= 0) & (x0 < w - 1) & (y0 < h - 1)
    x0c, y0c = np.clip(x0, 0, w - 2), np.clip(y0, 0, h - 2)
    if src.ndim == 3:
        fx, fy, inside3 = fx[..., None], fy[..., None], inside[..., None]
    else:
        inside3 = inside
    a, b = src[y0c, x0c], src[y0c, x0c + 1]
    c, d = src[y0c + 1, x0c], src[y0c + 1, x0c + 1]
    out = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
    return np.where(inside3, out, fill), inside


def homography(src_pts, dst_pts):
    """3×3 matrix H with H·src ~ dst for four point pairs."""
    a, b = [], []
    for (x, y), (u, v) in zip(src_pts, dst_pts):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    h = np.linalg.solve(np.array(a, dtype=np.float64), np.array(b, dtype=np.float64))
    return np.append(h, 1).reshape(3, 3)


def table(shape, rnd, kind):
    """Background (RGB float) of `shape` (h, w): dark, wood grain, or stone."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    noise = np.asarray(Image.fromarray((np.random.default_rng(rnd.randrange(2**32)).random((h // 8 + 1, w // 8 + 1)) * 255)
                                       .astype(np.uint8)).resize((w, h), Image.BICUBIC), dtype=np.float32) / 255.0
    if kind == "dark":
        base = np.array([rnd.uniform(0.08, 0.25)] * 3, dtype=np.float32) * np.array([1.0, 0.95, 0.9], dtype=np.float32)
        return base * (0.85 + 0.3 * noise[..., None])
    if kind == "wood":
        angle = rnd.uniform(-0.3, 0.3)
        t = (xx * math.sin(angle) + yy * math.cos(angle)) / rnd.uniform(8, 20)
        grain = 0.5 + 0.5 * np.sin(t + 3 * noise * rnd.uniform(1, 3))
        base = np.array([0.55, 0.38, 0.22], dtype=np.float32) * rnd.uniform(0.6, 1.1)
        return base * (0.75 + 0.35 * grain[..., None])
    base = np.array([0.62, 0.58, 0.52], dtype=np.float32)
    return base * (0.6 + 0.6 * noise[..., None])


def light(shape, rnd, low, high):
    """A smooth gain field: a linear fall-off in a random direction."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rnd.uniform(0, 2 * math.pi)
    t = ((xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a)) + 0.5
    return (high - (high - low) * np.clip(t, 0, 1))[..., None]


def photograph(page, rnd, cond):
    """Places the grey page (float H×W) in a photo frame under `cond`; returns RGB uint8."""
    ph, pw = page.shape[:2]
    colour = page.ndim == 3
    paper = np.array([rnd.uniform(0.93, 1.0), rnd.uniform(0.9, 0.98), rnd.uniform(0.82, 0.95)], dtype=np.float32)
    page_rgb = page if colour else page[..., None] * paper
    # (Each condition draws the same numbers as before archive-scan was added: the same images.)
    fill_fraction = {"dark-table": rnd.uniform(0.35, 0.6), "textured-table": rnd.uniform(0.5, 0.75),
                     "scene-text": rnd.uniform(0.45, 0.7)}.get(cond, rnd.uniform(0.8, 0.95))
    if cond == "archive-scan":
        fill_fraction = rnd.uniform(0.93, 0.97)
    frame_w = int(max(1000, min(2400, pw / fill_fraction)))
    scale = frame_w * fill_fraction / pw
    # A scan's margin is as thin at the top and bottom as at the sides.
    frame_h = int(max(ph * scale / fill_fraction * (1.0 if cond == "archive-scan" else 1.05), frame_w * 0.6))
    # Where the page corners land: centred, turned, with perspective.
    turn = math.radians(rnd.uniform(2, 8) * rnd.choice([-1, 1])) if cond in ("dark-table", "textured-table", "scene-text") \
        else math.radians(rnd.uniform(-1, 1)) if cond == "archive-scan" else math.radians(rnd.uniform(-1.5, 1.5))
    keystone = rnd.uniform(0.07, 0.15) if cond == "perspective" else 0.0 if cond == "archive-scan" \
        else rnd.uniform(0.0, 0.03)
    shift = 0.005 if cond == "archive-scan" else 0.05
    cx, cy = frame_w / 2 + rnd.uniform(-shift, shift) * frame_w, frame_h / 2 + rnd.uniform(-shift, shift) * frame_h
    corners = [(-pw / 2, -ph / 2), (pw / 2, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)]
    dst = []
    for i, (x, y) in enumerate(corners):
        x, y = x * scale, y * scale
        top = i < 2
        x *= (1 - keystone) if top == (rnd.random() < 0.5 or cond != "perspective") else 1
        x += rnd.uniform(-1, 1) * keystone * pw * scale * 0.3
        y += rnd.uniform(-1, 1) * keystone * ph * scale * 0.3
        dst.append((cx + x * math.cos(turn) - y * math.sin(turn), cy + x * math.sin(turn) + y * math.cos(turn)))
    inverse = np.linalg.inv(homography([(0, 0), (pw, 0), (pw, ph), (0, ph)], dst))
    yy, xx = np.mgrid[0:frame_h, 0:frame_w].astype(np.float64)
    den = inverse[2, 0] * xx + inverse[2, 1] * yy + inverse[2, 2]
    px = (inverse[0, 0] * xx + inverse[0, 1] * yy + inverse[0, 2]) / den
    py = (inverse[1, 0] * xx + inverse[1, 1] * yy + inverse[1, 2]) / den
    shade = np.ones((frame_h, frame_w, 1), dtype=np.float32)
    if cond == "curl":
        # The gutter on one side: lines sag quadratically and the page foreshortens toward it.
        gutter_left = rnd.random() < 0.5
        u = (px / pw) if gutter_left else (1 - px / pw)          # 0 at the gutter
        depth = np.clip(1 - u / rnd.uniform(0.45, 0.7), 0, 1)
        sag = rnd.uniform(0.05, 0.10) * ph * depth ** 2 * ((py / ph) - 0.5) * 2 * rnd.choice([-1, 1]) \
            + rnd.uniform(0.03, 0.07) * ph * depth ** 2
        py = py + sag
        px = px + (-1 if gutter_left else 1) * rnd.uniform(0.03, 0.06) * pw * depth ** 2
        shade = (1 - rnd.uniform(0.35, 0.6) * depth ** 1.5)[..., None].astype(np.float32)
    photo_page, inside = sample(page_rgb.astype(np.float32), px.astype(np.float32), py.astype(np.float32), 0.0)
    kind = {"dark-table": "dark", "textured-table": "wood", "scene-text": "stone", "archive-scan": "dark"}.get(cond, "dark" if rnd.random() < 0.5 else "wood")
    background = table((frame_h, frame_w), rnd, kind)
    photo = np.where(inside[..., None], photo_page * shade, background)
    if cond == "clean-scan":
        grey = photo_page.mean(axis=2) if colour else page
        return (np.clip(grey, 0, 1) * 255).astype(np.uint8), "L"
    # Light: uneven everywhere; a shadow, dim warm light where asked.
    photo = photo * light((frame_h, frame_w), rnd, rnd.uniform(0.75, 0.9), 1.0)
    if cond == "shadow":
        mask = Image.new("L", (frame_w, frame_h), 0)
        pts = [(rnd.uniform(-0.2, 0.6) * frame_w, -10), (rnd.uniform(0.4, 1.2) * frame_w, -10),
               (rnd.uniform(0.5, 1.2) * frame_w, frame_h + 10), (rnd.uniform(-0.2, 0.5) * frame_w, frame_h + 10)]
        ImageDraw.Draw(mask).polygon(pts if rnd.random() < 0.5 else [(y / frame_h * frame_w, x / frame_w * frame_h) for x, y in pts], fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(rnd.uniform(8, 30)))
        m = np.asarray(mask, dtype=np.float32)[..., None] / 255.0
        photo = photo * (1 - m * rnd.uniform(0.4, 0.65))
    if cond == "dim-warm":
        photo = photo * rnd.uniform(0.25, 0.45) * np.array([1.0, 0.8, 0.55], dtype=np.float32)
    img = Image.fromarray((np.clip(photo, 0, 1) * 255).astype(np.uint8), "RGB")
    img = img.filter(ImageFilter.GaussianBlur(rnd.uniform(0.3, 0.9)))
    if cond == "local-blur":
        blurred = img.filter(ImageFilter.GaussianBlur(rnd.uniform(2.0, 3.5)))
        mask = Image.new("L", img.size, 0)
        x0, y0 = rnd.uniform(0, 0.5) * frame_w, rnd.uniform(0, 0.5) * frame_h
        ImageDraw.Draw(mask).ellipse([x0, y0, x0 + rnd.uniform(0.3, 0.5) * frame_w, y0 + rnd.uniform(0.3, 0.5) * frame_h], fill=255)
        img = Image.composite(blurred, img, mask.filter(ImageFilter.GaussianBlur(20)))
    sigma = 0.05 if cond == "dim-warm" else 0.02
    arr = np.asarray(img, dtype=np.float32) / 255.0
    arr = arr + np.random.default_rng(rnd.randrange(2**32)).normal(0, sigma, arr.shape).astype(np.float32)
    return (np.clip(arr, 0, 1) * 255).astype(np.uint8), "RGB"


def make(outdir, cond, seed, poem_list):
    rnd = random.Random(f"{cond}:{seed}")
    # A page of two to four of the poems, in a random order, a stanza gap between them.
    chosen = rnd.sample(poem_list, rnd.randint(2, len(poem_list)))
    name = chosen[0][0]
    lines = []
    for _, poem in chosen:
        lines += ([""] if lines else []) + poem
    if cond == "scene-text":
        page, printed = render_sign(rnd)
    else:
        page, printed = render_page(lines, rnd, heading=rnd.choice(HEADINGS) if cond == "inverted-heading" else None,
                                    typewritten=cond == "archive-scan")
    pixels, mode = photograph(page, rnd, cond)
    folder = os.path.join(outdir, cond)
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, f"{cond}-s{seed:02d}-{name}")
    img = Image.fromarray(pixels, mode)
    if cond == "clean-scan":
        img.save(base + ".png", optimize=True)
    else:
        img.save(base + ".jpg", quality=rnd.randint(60, 85))
    with open(base + ".gt.txt", "w", encoding="utf-8") as f:
        f.write("\n".join(printed) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--seeds", type=int, default=6)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--only", default="", help="comma-separated conditions")
    a = ap.parse_args()
    conds = [c for c in a.only.split(",") if c] or CONDITIONS
    unknown = set(conds) - set(CONDITIONS)
    if unknown:
        sys.exit(f"unknown condition(s): {', '.join(sorted(unknown))}; known: {', '.join(CONDITIONS)}")
    poem_list = poems()
    for cond in conds:
        for seed in range(a.first_seed, a.first_seed + a.seeds):
            make(a.outdir, cond, seed, poem_list)
        print(f"{cond}: {a.seeds} images", flush=True)


if __name__ == "__main__":
    main()
