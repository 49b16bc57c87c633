#!/usr/bin/env python3
"""Make the sample-poem images for LoveInASnap from the poem texts.

How to run (from anywhere; needs Python 3 + Pillow, `pip install pillow`,
and the DejaVu fonts, Debian package `fonts-dejavu-core`):

    python3 SamplePoems/make_samples.py            # rewrite every image
    python3 SamplePoems/make_samples.py kettle     # only the named poem(s)

Input: every `NAME.txt` in this folder (UTF-8, NFC, LF, one final newline).
Output, beside it, for each poem:

    NAME.png             clean page: dark DejaVu Serif 40 px on white, 8-bit
                         grayscale, wide margins
    NAME-photo.jpg       "phone photo" of the printed page: mild perspective
                         warp, paper tint, uneven light + vignette, slight
                         blur, grain, JPEG quality 80

and, for one poem each (see SPECIALS):

    kettle-exif6.jpg         the photo-like image of `kettle`, its pixels stored
                             turned 90 degrees counter-clockwise, with an EXIF
                             APP1 segment holding Orientation (0x0112) = 6, so a
                             viewer that applies the tag shows it upright
    fenetre-transparent.png  RGBA clean page: text opaque dark, background
                             fully transparent (alpha 0, RGB 0,0,0 underneath)

Everything random comes from random.Random seeded with SEED and the poem's
name (crc32, not Python's salted hash()), so a run gives the same pixels on
the same Pillow/FreeType/libjpeg; other versions may differ by a few grey
levels at glyph edges or in JPEG rounding, never in content.
"""
import os
import random
import sys
import unicodedata
import zlib

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20240214
FONT_PATH = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
FONT_SIZE = 40          # px
LINE_HEIGHT = 62        # px, baseline to baseline (~1.55 em)
MARGIN_X = 100          # px, left/right
MARGIN_Y = 100          # px, top/bottom
PAGE_WIDTH = 1100       # px, every clean page is this wide (39 chars fit)
INK = 24                # grey level of the text on the clean page

# Photo-like degradation strength (tuned so plain tesseract stays < 2% CER).
PAPER = (247, 241, 228)         # slightly warm paper
PHOTO_INK = (38, 36, 44)
TABLE = (112, 98, 84)           # what shows around the tilted page
WARP = (0.01, 0.05)           # corner displacement, fraction of the side
LIGHT_MIN, LIGHT_MAX = 0.72, 1.00   # gain range of the uneven light
VIGNETTE = 0.20                 # light lost at the far corners
BLUR = 1.0                      # Gaussian radius, px
GRAIN = 16                      # +- grey levels of the (triangular) noise
JPEG_QUALITY = 80

SPECIALS = {"kettle": "exif6", "fenetre": "transparent"}


def read_poem(name):
    with open(os.path.join(HERE, name + ".txt"), "rb") as f:
        text = f.read().decode("utf-8")
    if unicodedata.normalize("NFC", text) != text or "\r" in text or not text.endswith("\n"):
        raise SystemExit(f"{name}.txt must be NFC UTF-8 with LF line ends and a final newline")
    return text[:-1].split("\n")


def coverage(lines):
    """Glyph coverage mask (L: 0 = paper, 255 = full ink) of the clean page."""
    font = ImageFont.truetype(FONT_PATH, FONT_SIZE)
    widest = max(font.getlength(l) for l in lines)
    if widest > PAGE_WIDTH - 2 * MARGIN_X:
        raise SystemExit(f"line too wide: {widest:.0f} px > {PAGE_WIDTH - 2 * MARGIN_X} px")
    height = 2 * MARGIN_Y + LINE_HEIGHT * (len(lines) - 1) + FONT_SIZE + FONT_SIZE // 3
    mask = Image.new("L", (PAGE_WIDTH, height), 0)
    draw = ImageDraw.Draw(mask)
    for i, line in enumerate(lines):
        # anchor "ls": left edge, baseline; the first baseline sits one em below the top margin
        draw.text((MARGIN_X, MARGIN_Y + FONT_SIZE + i * LINE_HEIGHT), line, font=font,
                  fill=255, anchor="ls")
    return mask


def blend(mask, bg, fg):
    """RGB (or L, for int colours) image that is bg where mask=0 and fg where mask=255."""
    mode = "L" if isinstance(bg, int) else "RGB"
    return Image.composite(Image.new(mode, mask.size, fg), Image.new(mode, mask.size, bg), mask)


def clean_page(mask):
    return blend(mask, 255, INK)


def transparent_page(mask):
    rgb = Image.composite(Image.new("RGB", mask.size, (INK,) * 3), Image.new("RGB", mask.size, 0),
                          mask.point(lambda v: 255 if v else 0))
    rgba = rgb.copy()
    rgba.putalpha(mask)
    return rgba


def solve(a, b):
    """Solve the linear system a x = b (Gaussian elimination, partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def perspective_coeffs(dst, src):
    """Coefficients for Image.transform(PERSPECTIVE): output point dst[i] samples input src[i]."""
    a, b = [], []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    return solve(a, b)


def light_field(size, rnd):
    """Smooth gain image (L, 255 = full light): a tilted light plus a vignette."""
    w, h = 48, max(8, round(48 * size[1] / size[0]))
    ax, ay = rnd.uniform(-1, 1), rnd.uniform(-1, 1)          # direction the light falls off to
    cx, cy = rnd.uniform(0.35, 0.65), rnd.uniform(0.35, 0.65)  # brightest spot
    small = Image.new("L", (w, h))
    px = small.load()
    for j in range(h):
        for i in range(w):
            x, y = i / (w - 1), j / (h - 1)
            tilt = 0.5 + 0.5 * (ax * (x - 0.5) + ay * (y - 0.5)) / max(1e-6, (ax * ax + ay * ay) ** 0.5)
            gain = LIGHT_MAX - (LIGHT_MAX - LIGHT_MIN) * min(1.0, max(0.0, tilt))
            r2 = ((x - cx) ** 2 + (y - cy) ** 2) / 0.5
            gain *= 1.0 - VIGNETTE * min(1.0, r2)
            px[i, j] = round(255 * gain)
    return small.resize(size, Image.BICUBIC)


def grain(size, rnd):
    """Triangular noise centred on 128 with +-GRAIN levels (average of two uniforms)."""
    n = size[0] * size[1]
    n1 = Image.frombytes("L", size, rnd.randbytes(n))
    n2 = Image.frombytes("L", size, rnd.randbytes(n))
    tri = ImageChops.add(n1, n2, scale=2.0)                  # (a+b)/2, 0..255, peak at 127.5
    k = GRAIN / 127.5
    return tri.point(lambda v: round(128 + (v - 127.5) * k))


def photo_page(mask, rnd):
    """RGB phone-photo-like rendering of the page (not yet JPEG-compressed)."""
    page = blend(mask, PAPER, PHOTO_INK)
    w, h = page.size
    # Where the page's corners land in the photo: each pulled inwards a little,
    # differently, which both tilts and keystones the page.
    def jitter(side):
        return rnd.uniform(*WARP) * side
    dst = [(jitter(w), jitter(h)), (w - jitter(w), jitter(h)),
           (w - jitter(w), h - jitter(h)), (jitter(w), h - jitter(h))]
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    photo = page.transform(page.size, Image.PERSPECTIVE, perspective_coeffs(dst, src),
                           resample=Image.BICUBIC, fillcolor=TABLE)
    light = light_field(photo.size, rnd)
    photo = ImageChops.multiply(photo, Image.merge("RGB", (light,) * 3))
    photo = photo.filter(ImageFilter.GaussianBlur(BLUR))
    noise = grain(photo.size, rnd)
    photo = ImageChops.add(photo, Image.merge("RGB", (noise,) * 3), scale=1.0, offset=-128)
    return photo


def exif_orientation6():
    exif = Image.Exif()
    exif[0x0112] = 6
    return exif.tobytes()


def make(name):
    lines = read_poem(name)
    rnd = random.Random(f"{SEED}:{zlib.crc32(name.encode('utf-8'))}")
    mask = coverage(lines)
    out = []

    def save(img, suffix, **kw):
        path = os.path.join(HERE, name + suffix)
        img.save(path, **kw)
        out.append(path)

    save(clean_page(mask), ".png", optimize=True)
    photo = photo_page(mask, rnd)
    save(photo, "-photo.jpg", quality=JPEG_QUALITY, optimize=True)
    special = SPECIALS.get(name)
    if special == "exif6":
        # Orientation 6 = "rotate 90 CW to display", so the stored pixels are
        # the upright picture turned 90 degrees counter-clockwise.
        save(photo.transpose(Image.Transpose.ROTATE_90), "-exif6.jpg",
             quality=JPEG_QUALITY, optimize=True, exif=exif_orientation6())
    elif special == "transparent":
        save(transparent_page(mask), "-transparent.png", optimize=True)
    return out


def main(argv):
    names = argv or sorted(f[:-4] for f in os.listdir(HERE) if f.endswith(".txt"))
    for name in names:
        for path in make(name):
            print(f"wrote {os.path.relpath(path)} ({os.path.getsize(path) // 1024} KiB)")


if __name__ == "__main__":
    main(sys.argv[1:])
