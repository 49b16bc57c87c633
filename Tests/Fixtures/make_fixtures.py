#!/usr/bin/env python3
"""Remakes every fixture the tests read from Tests/Fixtures (Python 3 + Pillow: pip install pillow;
the DejaVu fonts, Debian package fonts-dejavu-core).

    python3 Tests/Fixtures/make_fixtures.py

Deterministic: the same Pillow/FreeType/libjpeg/zlib give the same bytes. Every image is a
page of the project's own sample poems (SamplePoems/NAME.txt, rendered in DejaVu Serif like
SamplePoems/make_samples.py does), so the text a test expects is that poem's text, exact;
`numbers-decimal-comma-and-point.png` shows its own .txt. The editor and mail texts are written
here too, each with the result the tests expect after their steps. Nothing here is read from
outside the repository.
"""
import importlib.util
import os
import random
import unicodedata

from PIL import Image, ImageDraw, ImageFont, ImageOps

here = os.path.dirname(os.path.abspath(__file__))
poems = os.path.join(here, "..", "..", "SamplePoems")

_spec = importlib.util.spec_from_file_location("make_samples", os.path.join(poems, "make_samples.py"))
samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(samples)


def out(name):
    return os.path.join(here, name)


# --- The image fixtures made from the clean sample pages --------------------------------------

kettle = Image.open(os.path.join(poems, "kettle.png")).convert("L")
harbour = Image.open(os.path.join(poems, "harbour.png")).convert("L")
# Three frames; Leptonica reads the first.
kettle.save(out("three-frames.gif"), save_all=True, append_images=[harbour, kettle])
# Two pages, 1 bit per pixel, CCITT G4 (a fax-style scan).
pages = [p.point(lambda v: 255 if v > 128 else 0).convert("1") for p in (kettle, harbour)]
pages[0].save(out("two-pages-g4.tif"), save_all=True, append_images=pages[1:], compression="group4")
# 16 bits per grey sample.
kettle.convert("I").point(lambda v: v * 257).convert("I;16").save(out("grey16.png"))
# A palette image.
kettle.convert("P").save(out("palette.png"))
# Mixed polarity: harbour.png with its second stanza as light text in a dark band.
mixed = harbour.copy()
w, h = mixed.size
band = (0, int(h * 0.62), w, h)
mixed.paste(ImageOps.invert(mixed.crop(band)), band[:2])
mixed.save(out("mixed-polarity.png"))
# A dark photo beside the text, as a magazine page prints it: kettle.png widened on the left by a
# dark picture whose few highlights are flecks of every size, scattered (not letters in lines).
rng = random.Random("dark-photo-beside-text")
photo_w = w * 2 // 3
picture = Image.new("L", (photo_w, h * 3 // 4), 0)
draw = ImageDraw.Draw(picture)
for _ in range(400):
    x, y, r = rng.randrange(photo_w), rng.randrange(picture.height), rng.choice((2, 3, 4))
    draw.rectangle((x, y, x + r, y + r), fill=rng.randrange(40, 90))
for _ in range(30):
    x, y, r = rng.randrange(photo_w), rng.randrange(picture.height), rng.randrange(5, 14)
    draw.ellipse((x, y, x + r, y + rng.randrange(5, 14)), fill=235)
beside = Image.new("L", (photo_w + w, h), 255)
beside.paste(picture, (0, h // 8))
beside.paste(kettle, (photo_w, 0))
beside.save(out("dark-photo-beside-text.png"), optimize=True)
# The other formats and colour spaces Leptonica reads, all of kettle.png.
kettle.save(out("kettle.pgm"))
kettle.point(lambda v: 255 if v > 128 else 0).convert("1").save(out("kettle.bmp"))
kettle.convert("RGB").save(out("kettle.webp"), lossless=True)
kettle.convert("CMYK").save(out("kettle-cmyk.tif"), compression="tiff_lzw")
kettle.convert("RGB").save(out("kettle-progressive.jpg"), quality=90, progressive=True)


# --- Pages rendered here from the poem texts ---------------------------------------------------

INK = samples.INK          # grey level of the text on a clean page (24)


def font(size, path=samples.FONT_PATH):
    return ImageFont.truetype(path, size)


def poem_lines(name):
    return samples.read_poem(name)


def poem_text(name):
    return "\n".join(poem_lines(name)) + "\n"


def coverage(lines, size=40, margin=None):
    """Glyph coverage (L: 0 = paper, 255 = full ink) of `lines` in DejaVu Serif `size` px with
    make_samples.py's proportions: 1.55 em line pitch, first baseline one em below the margin
    (default 2.5 em), the page as wide as the widest line plus the margins."""
    f = font(size)
    pitch = round(size * 1.55)
    margin = round(size * 2.5) if margin is None else margin
    width = round(max(f.getlength(l) for l in lines)) + 2 * margin
    height = 2 * margin + pitch * (len(lines) - 1) + size + size // 3
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    for i, line in enumerate(lines):
        draw.text((margin, margin + size + i * pitch), line, font=f, fill=255, anchor="ls")
    return mask


def dark_on_light(mask):
    """Grey page: white paper, ink grey INK where the glyph coverage is full."""
    return samples.blend(mask, 255, INK)


def centred(lines, width, height, size):
    """A width × height white page with `lines` (DejaVu Serif `size` px) in its middle."""
    f = font(size)
    pitch = round(size * 1.55)
    text_width = max(f.getlength(l) for l in lines)
    text_height = pitch * (len(lines) - 1) + size
    x, y = round((width - text_width) / 2), (height - text_height) // 2 + size
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    for i, line in enumerate(lines):
        draw.text((x, y + i * pitch), line, font=f, fill=INK, anchor="ls")
    return page


def bilevel(img):
    return img.point(lambda v: 255 if v > 128 else 0).convert("1")


# Transparency. Every pixel's colour is black; the letters exist only in the alpha channel
# (alpha = glyph coverage), so a loader that drops alpha sees a black page.
k = coverage(poem_lines("kettle"))
black = Image.new("L", k.size, 0)
Image.merge("RGBA", (black, black, black, k)).save(out("text-only-in-alpha.png"), optimize=True)
Image.merge("LA", (black, k)).save(out("text-only-in-alpha-grey.png"), optimize=True)

# A 4-bit palette whose entry 0 is black and fully transparent (tRNS): the background.
f = coverage(poem_lines("fenetre"))
levels = f.point(lambda v: v // 16)                   # 0 = paper … 15 = full ink
palette = [0, 0, 0]
for i in range(1, 16):
    g = round(255 - i * (255 - INK) / 15)
    palette += [g, g, g]
indexed = Image.frombytes("P", levels.size, levels.tobytes())
indexed.putpalette(palette)
indexed.save(out("palette-transparent-background.png"), optimize=True, transparency=0)
check = Image.open(out("palette-transparent-background.png"))
assert check.mode == "P" and check.info.get("transparency") == 0 and check.getpalette()[:3] == [0, 0, 0]

# EXIF orientation 1–8: the same upright page (kettle, 32 px), its pixels stored so that applying
# the tag shows it upright (Pillow's exif_transpose agrees), saved with the tag 0x0112.
T = Image.Transpose
SHOW = {1: None, 2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM,
        5: T.TRANSPOSE, 6: T.ROTATE_270, 7: T.TRANSVERSE, 8: T.ROTATE_90}   # stored → shown
UNDO = {T.ROTATE_270: T.ROTATE_90, T.ROTATE_90: T.ROTATE_270}                # the others undo themselves
upright = dark_on_light(coverage(poem_lines("kettle"), size=32, margin=32))
for orientation, show in SHOW.items():
    stored = upright.transpose(UNDO.get(show, show)) if show is not None else upright
    assert (stored.transpose(show) if show is not None else stored).tobytes() == upright.tobytes()
    exif = Image.Exif()
    exif[0x0112] = orientation
    stored.save(out(f"exif-orientation-{orientation}.jpg"), quality=70, optimize=True, exif=exif.tobytes())
    shown = ImageOps.exif_transpose(Image.open(out(f"exif-orientation-{orientation}.jpg")))
    assert shown.size == upright.size

# Light text on a black page (riviere).
coverage(poem_lines("riviere")).save(out("white-on-black.png"), optimize=True)

# A 4-component CMYK JPEG; Pillow writes it the way Photoshop does: inverted values and an
# Adobe APP14 marker (transform 0).
dark_on_light(coverage(poem_lines("harbour"))).convert("CMYK").save(out("cmyk-adobe.jpg"), quality=55)
assert Image.open(out("cmyk-adobe.jpg")).info.get("adobe") is not None

# Pages with no text at all: 1×1 white, 1×1 black, 2×1 black.
Image.new("L", (1, 1), 255).save(out("white-1x1.png"))
Image.new("L", (1, 1), 0).save(out("black-1x1.png"))
Image.new("L", (2, 1), 0).save(out("black-2x1.jpg"), quality=90)

# Huge but cheap: 40000 × 3000 pixels (120 megapixels), 1 bit each. The poem is set at 40 px on a
# 4000 × 300 page and every pixel made a 10 × 10 block, so the page scaled back to 4000 px is
# that crisp 40 px page again; the file is some 30 KB.
small = bilevel(centred(poem_lines("kettle"), 4000, 300, 40))
small.resize((40000, 3000), Image.NEAREST).save(out("huge-40000x3000.png"), optimize=True)

# A phone-camera-sized JPEG (4032 × 3024): large JPEGs are decoded reduced (1/2, 1/4, 1/8).
centred(poem_lines("kettle"), 4032, 3024, 80).save(out("large-4032x3024.jpg"), quality=50, optimize=True)

# Small print: the poem at 8 and 10 px (x-height about 4 and 5 px) in black.
for size in (8, 10):
    ImageOps.invert(coverage(poem_lines("kettle"), size=size, margin=2 * size)).save(
        out(f"small-text-{size}px.png"), optimize=True)

# A small crop (236 × 63) mixing tiny and large type: harbour's first line as a letter-spaced
# 10 px label over a 32 px line, DejaVu Sans, drawn 4× larger and reduced (Lanczos) as a camera
# would, on tinted paper, JPEG quality 60. Enlarged to the 26 px text height (× 1.44) Tesseract
# reads "arbo" / "go out at tWo,"; at the crop's own size it reads both lines exactly.
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
K, PAD, GAP, TRACK = 4, 6, 8, 1.5
label, line = "The harbour lamps", "go out at two,"
assert label + " " + line == poem_lines("harbour")[0]
small_font, large_font = font(10 * K, SANS), font(32 * K, SANS)
label_width = sum(small_font.getlength(c) + TRACK * K for c in label) - TRACK * K
width = round(max(label_width, large_font.getlength(line))) + 2 * PAD * K
width += -width % K
height = (PAD + 11 + GAP + 32 + PAD) * K
crop = Image.new("RGB", (width, height), (226, 222, 212))
draw = ImageDraw.Draw(crop)
x = PAD * K
for c in label:
    draw.text((x, (PAD + 11) * K), c, font=small_font, fill=(60, 60, 60), anchor="ls")
    x += small_font.getlength(c) + TRACK * K
draw.text((PAD * K, (PAD + 11 + GAP + 32) * K), line, font=large_font, fill=(25, 25, 25), anchor="ls")
crop.resize((width // K, height // K), Image.LANCZOS).save(out("small-label-over-large-line.jpg"), quality=60)

# Numbers with a decimal comma and a decimal point, for the locale tests.
numbers = ["Lenore, 3,14 tasses de café,", "2.718 bateaux au bord de l'eau,", "et 0,5 lune pour deux."]
with open(out("numbers-decimal-comma-and-point.txt"), "w", encoding="utf-8", newline="\n") as t:
    t.write("\n".join(numbers) + "\n")
dark_on_light(coverage(numbers)).save(out("numbers-decimal-comma-and-point.png"), optimize=True)

# A dense page that takes Tesseract several seconds: a 2550 × 3300 letter page at 300 DPI, two
# columns of 34 px type, the four poems over and over (1 bit per pixel).
W, H, MARGIN, GUTTER, SIZE, PITCH = 2550, 3300, 150, 100, 34, 50
verse = []
for name in ("kettle", "harbour", "fenetre", "riviere"):
    verse += poem_lines(name) + [""]
column = (W - 2 * MARGIN - GUTTER) // 2
rows = (H - 2 * MARGIN - SIZE) // PITCH + 1
dense = Image.new("L", (W, H), 255)
draw = ImageDraw.Draw(dense)
for n in range(2 * rows):
    c, r = divmod(n, rows)
    draw.text((MARGIN + c * (column + GUTTER), MARGIN + SIZE + r * PITCH), verse[n % len(verse)],
              font=font(SIZE), fill=0, anchor="ls")
bilevel(dense).save(out("dense-two-columns.png"), optimize=True)

# A tightly set page: one column of 30 px type at a 32 px pitch, no blank line between stanzas
# (each line's image, as Tesseract cuts it, reaches into the next one's), under a ruling and
# beside a black figure: lines of blocks Tesseract finds and does not read.
W, H, MARGIN, SIZE, PITCH = 1700, 2000, 120, 30, 32
prose = [l for name in ("kettle", "harbour", "fenetre", "riviere") for l in poem_lines(name) if l]
tight = Image.new("L", (W, H), 255)
draw = ImageDraw.Draw(tight)
draw.rectangle((MARGIN, MARGIN, W - MARGIN, MARGIN + 4), fill=0)
draw.rectangle((W - MARGIN - 260, MARGIN + 60, W - MARGIN, MARGIN + 380), fill=0)
y = MARGIN + 60 + SIZE
for line in prose * 2:
    if y > H - MARGIN:
        break
    draw.text((MARGIN, y), line, font=font(SIZE), fill=0, anchor="ls")
    y += PITCH
bilevel(tight).save(out("tight-page-with-ruling.png"), optimize=True)


# --- A card-like image for the data detectors ---------------------------------------------------
# A payment card (ISO/IEC 7810 ID-1, 85.60 × 53.98 mm at 300 DPI: 1011 × 638 px) with specimen
# data: a Visa test number that passes the Luhn checksum, a Mastercard one that fails it by one
# digit (…4445 for the valid …4444), an expiry date, an e-mail address and a phone number. The
# card lies on a grey table, as photographed. The .json beside it lists the detections expected.
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SANS_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CARD_LINES = [
    ("LOVEINASNAP BANK", SANS_BOLD, 44, 70),
    ("4111 1111 1111 1111", MONO, 62, 250),
    ("5555 5555 5555 4445", MONO, 46, 340),
    ("VALID THRU 09/27", SANS, 34, 420),
    ("LENORE RAVEN", SANS, 38, 490),
    ("raven@nevermore.org  +33 6 12 34 56 78", SANS, 30, 560),
]
card_w, card_h, table = 1011, 638, 60
card_page = Image.new("RGB", (card_w + 2 * table, card_h + 2 * table), (118, 118, 122))
draw = ImageDraw.Draw(card_page)
draw.rounded_rectangle((table, table, table + card_w, table + card_h), radius=38, fill=(236, 240, 246))
for text, path, size, baseline in CARD_LINES:
    draw.text((table + 70, table + baseline), text, font=ImageFont.truetype(path, size), fill=(20, 28, 48), anchor="ls")
card_page.save(out("card-specimen.png"), optimize=True)
# The same card photographed from three times as far: print 10–20 px high, for a region framed
# tight around the number (too low for its text height to be measured).
card_page.resize((card_page.width // 3, card_page.height // 3), Image.LANCZOS).save(
    out("card-specimen-small.png"), optimize=True)


# --- Texts for the editor and the mail tests ----------------------------------------------------

def write_text(name, text):
    assert unicodedata.is_normalized("NFC", text) or name.startswith("grapheme-cursor")
    with open(out(name), "wb") as t:
        t.write(text.encode("utf-8"))


# Cursor movement by grapheme cluster and columns by wcwidth: a precomposed letter first (NFC),
# the same line decomposed (e + U+0301 …, NFD), wide CJK, an emoji first, a TAB, œ.
grapheme = ("\u00e9cris \u00e0 la fen\u00eatre\n"                 # 18 columns
            "e\u0301cris a\u0300 la fene\u0302tre\n"              # 18 columns, NFD
            "\u6708 lune, \u5fc3 c\u0153ur\n"                     # 月 lune, 心 cœur: 16 columns
            "\U0001F319 la lune brille\n"                         # 🌙: 17 columns
            "pour\tdeux\n"                                        # TAB to column 8: 12 columns
            "Mon c\u0153ur conna\u00eet\n")                       # 16 columns
# After: End and "|" on every line, X after the first character of lines 2 and 4, Backspace
# after the first character of line 1.
grapheme_after = ("cris \u00e0 la fen\u00eatre|\n"
                  "e\u0301Xcris a\u0300 la fene\u0302tre|\n"
                  "\u6708 lune, \u5fc3 c\u0153ur|\n"
                  "\U0001F319X la lune brille|\n"
                  "pour\tdeux|\n"
                  "Mon c\u0153ur conna\u00eet|\n")
write_text("grapheme-cursor.txt", grapheme)
write_text("grapheme-cursor.after-edits.txt", grapheme_after)

# Replace-all whose replacement contains what it searches for (one pass, never rescanning).
lenore = "Lenore, the kettle hums your tune,\nCome home, Lenore, before the frost;\nle vent écrit ton nom, Lenore.\n"
step1 = lenore.replace("Lenore", "Lenore Lenore")                  # 3 replacements
step2 = step1.replace("u", "uu")                                    # 3 replacements
assert lenore.count("Lenore") == 3 and step1.count("u") == 3
write_text("replace-all-self-containing.txt", lenore)
write_text("replace-all-self-containing.step1.txt", step1)
write_text("replace-all-self-containing.step2.txt", step2)

# A file without a final newline whose last characters are a match: "ss" → "ß".
no_newline = "I wrote your name on misted glass\nand watched the quiet minutes pass"
write_text("no-final-newline.txt", no_newline)
write_text("no-final-newline.after-replace.txt", no_newline.replace("ss", "\u00df"))

# Search and replacement are literal: ( . $ & \ are plain characters.
special = "tune(1) June(2)\nle café fume. encore un peu.\nà $5 pour deux\n"
special_after = special.replace("e(", "e(\"").replace(".", "!").replace("$5", "$1&\\n")
assert special_after == "tune(\"1) June(\"2)\nle café fume! encore un peu!\nà $1&\\n pour deux\n"
write_text("literal-special-characters.txt", special)
write_text("literal-special-characters.after-replace.txt", special_after)

# Empty search refused; "en" → "EN" undone; then "en" → "" (an empty replacement deletes).
en = "Lenore, je t'écris à la fenêtre,\nle café fume encore un peu.\n"
assert en.count("en") == 3
write_text("replace-empty-and-undo.txt", en)
write_text("replace-empty-and-undo.after-delete.txt", en.replace("en", ""))

# Forty lines for drawing and resizing: lines over 100 columns, accents, CJK and an emoji.
block = ["Lenore, the kettle hums your tune, the curtains blush with early June. "
         "I wrote your name on misted glass and watched the quiet minutes pass.",
         "The harbour lamps go out at two,",
         "the gulls are sleeping on the pier.",
         "",
         "le café fume encore un peu, mon cœur connaît déjà la leçon \u2014 \u6708 \u8a69 \u5fc3 \U0001F319"]
write_text("long-lines-with-wide-characters.txt", "\n".join(block * 8) + "\n")

# A mail body that needs MIME encoding: accents and œ, an empty line, a line starting "From ",
# a line holding only ".", trailing spaces, a line of 1399 octets (over SMTP's 998), CJK and an
# emoji, and no final newline.
mail = (poem_text("fenetre") + "\n"
        + "From the harbour, Lenore,\n"
        + ".\n"
        + "trailing spaces kept   \n"
        + " ".join(["Lenore"] * 200) + "\n"
        + "fin \u2014 \u8a69 \U0001F319")
assert len((" ".join(["Lenore"] * 200)).encode()) == 1399
write_text("mail-body-needing-encoding.txt", mail)

# --- Phone-photo conditions, photographed in software by scripts/make-stress-set.py ------------
# (needs numpy too). Each is one seed of one condition; its .txt is the exact printed text.
_stress_spec = importlib.util.spec_from_file_location(
    "make_stress_set", os.path.join(here, "..", "..", "scripts", "make-stress-set.py"))
stress = importlib.util.module_from_spec(_stress_spec)
_stress_spec.loader.exec_module(stress)
PHOTOS = {
    # name: (condition, seed)
    "page-on-dark-table": ("dark-table", 0),
    "small-page-on-dark-table": ("dark-table", 2),
    "page-on-wood-table": ("textured-table", 1),
    "curled-page": ("curl", 0),
    "dim-warm-light": ("dim-warm", 4),
    "shadow-across-page": ("shadow", 4),
    "page-mostly-in-shadow": ("shadow", 102),
    "inverted-heading": ("inverted-heading", 0),
    "white-sign-on-blue": ("scene-text", 2),
    "sign-on-stone-wall": ("scene-text", 1),
    "clean-scan-grey": ("clean-scan", 103),
    "scan-on-dark-ground": ("archive-scan", 202),
}
import glob
import shutil
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    for name, (condition, seed) in PHOTOS.items():
        stress.make(tmp, condition, seed, stress.poems())
        made = glob.glob(os.path.join(tmp, condition, f"{condition}-s{seed:02d}-*"))
        image = next(m for m in made if not m.endswith(".gt.txt"))
        truth = next(m for m in made if m.endswith(".gt.txt"))
        shutil.copyfile(image, out(name + os.path.splitext(image)[1]))
        shutil.copyfile(truth, out(name + ".txt"))

# A page filling the frame, its paper brighter in the middle than at the edges (lit from the
# front, as a flash or a lamp above lights it: 247 in the middle, 227 at the edges): paper split
# by its own light is not a page on a table, and the page is read as it is.
import numpy as np
rnd = random.Random("lit-in-the-middle")
page, printed = stress.render_page(
    [line for _, poem in stress.poems()[:2] for line in poem + [""]][:-1], rnd)
h, w = page.shape
yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
# The light falls off toward a rectangle turned by 4° (the lamp is not square to the page).
u, v = xx / w - 0.5, yy / h - 0.5
turn = np.radians(4)
edge = np.maximum(np.abs(u * np.cos(turn) - v * np.sin(turn)), np.abs(u * np.sin(turn) + v * np.cos(turn))) * 2
photo = np.clip(page * (0.97 - 0.08 * np.clip(edge, 0, 1) ** 2) * 255, 0, 255).astype(np.uint8)
Image.fromarray(photo, "L").convert("RGB").save(out("page-lit-in-the-middle.jpg"), quality=90)
write_text("page-lit-in-the-middle.txt", "\n".join(printed) + "\n")

# A crop of small print (DejaVu Serif 10 px, ink on beige paper, grain and a slight blur, a JPEG
# at quality 70): enlarged 2.6× to the target text height, it reads doubtfully (mean confidence
# 70) and the photo as it is reads better; also read at its own size (a crop). 242 × 130 px.
from PIL import ImageFilter
crop_lines = [l for l in open(os.path.join(poems, "harbour.txt"), encoding="utf-8").read().split("\n") if l.strip()][:10]
small = font(10)
crop = Image.new("RGB", (int(max(small.getlength(l) for l in crop_lines)) + 40, int(15 * len(crop_lines)) + 40),
                 (236, 226, 205))
draw = ImageDraw.Draw(crop)
for i, line in enumerate(crop_lines):
    draw.text((20, 20 + 10 + i * 15), line, font=small, fill=(60, 50, 45), anchor="ls")
grain = np.asarray(crop).astype(np.float32) + np.random.default_rng(7).normal(0, 14, (crop.height, crop.width, 3))
crop = Image.fromarray(np.clip(grain, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.1))
crop.save(out("small-print-crop.jpg"), quality=70)
write_text("small-print-crop.txt", "\n".join(crop_lines) + "\n")

# --- Text that only the trained text detector finds (docs/design.md, "How a photo becomes text") ---------

# A receipt whose lower half has faded (thermal paper): the header printed dark, the items and
# prices at grey 195 on paper 250. Tesseract's layout finds the header alone; the detector finds
# every row, and each is read with its price on its line.
mono = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 26)
header = ["CAFE DU PORT", "12 quai de la Fosse", "44000 Nantes", "", "Table 4, couverts 2"]
items = [("Cafe creme", "3,20"), ("Croissant", "1,80"), ("Tartine beurre", "2,50"), ("Jus d'orange", "4,00"),
         ("Chocolat chaud", "3,60"), ("Pain au raisin", "2,10"), ("TOTAL EUR", "17,20"), ("Merci de votre visite", "")]
receipt = Image.new("L", (760, 80 + 44 * (len(header) + len(items)) + 60), 250)
draw = ImageDraw.Draw(receipt)
printed = []
y = 80
for line in header:
    if line:
        draw.text((60, y), line, font=mono, fill=30, anchor="ls")
    printed.append(line)
    y += 44
for name, price in items:
    draw.text((60, y), name, font=mono, fill=195, anchor="ls")
    if price:
        draw.text((700, y), price, font=mono, fill=195, anchor="rs")
    printed.append((name + " " + price).strip())
    y += 44
receipt.convert("RGB").save(out("faded-receipt.jpg"), quality=92)
write_text("faded-receipt.txt", "\n".join(printed) + "\n")

# A poster: the title on a white card with a thin frame, the poem printed in faint grey (118 on
# 150) on the grey paper around it. The page finder takes the card for the page (the poem is too
# faint to count as print outside it) and the title alone reads at 96; the detector finds the poem.
title_font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", 44)
poster = Image.new("RGB", (1200, 1500), (150, 150, 150))
draw = ImageDraw.Draw(poster)
draw.rectangle((120, 90, 1080, 330), fill=(250, 250, 246), outline=(20, 20, 20), width=2)
draw.text((600, 235), "The Harbour", font=title_font, fill=(20, 20, 20), anchor="ms")
y = 430
for line in poem_lines("harbour"):
    if line.strip():
        draw.text((140, y), line, font=font(34), fill=(118, 118, 118), anchor="ls")
    y += 52
poster.save(out("title-card-on-grey-page.jpg"), quality=90)
write_text("title-card-on-grey-page.txt", "The Harbour\n\n" + poem_text("harbour"))

# A card printed light on dark, photographed: light grey letters (228) on a grey card (140)
# whose surface is blotchy, blurred as a phone's lens blurs, turned by 2°, 3672 × 2226 px. Each
# line the detector finds is cut out light on dark; read so with Tesseract's adaptive Otsu
# (`thresholding_method` 1), the name's line read as nothing (its letters and the blotches one
# threshold). Turned dark on light, every line reads.
from PIL import ImageFilter
card_lines = ["Hélène Marchand", "Poèmes et traductions", "", "12 rue des Lilas, 44000 Nantes",
              "Tél. 02 40 12 34 56", "helene.marchand@example.org"]
card = Image.new("RGB", (1200, 700), (140, 140, 142))
draw = ImageDraw.Draw(card)
sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
y = 150
for line, size in zip(card_lines, [58, 36, 0, 32, 32, 32]):
    if line:
        face = ImageFont.truetype(sans.replace("Sans.ttf", "Sans-Bold.ttf") if size == 58 else sans, size)
        draw.text((110, y), line, font=face, fill=(228, 228, 228), anchor="ls")
    y += 30 if not line else int(size * 1.9)
card = card.resize((card.width * 3, card.height * 3), Image.BICUBIC)
card = card.rotate(2, resample=Image.BICUBIC, expand=True, fillcolor=(196, 190, 178))
rng = np.random.default_rng(11)
blotches = Image.fromarray(np.clip(128 + rng.normal(0, 40, (card.height // 6, card.width // 6)), 0, 255)
                           .astype(np.uint8)).resize((card.width, card.height), Image.BICUBIC)
blotches = (np.asarray(blotches).astype(np.float32) - 128) / 40 * 12
photo = (np.asarray(card.filter(ImageFilter.GaussianBlur(2.0))).astype(np.float32) + blotches[:, :, None]
         + rng.normal(0, 5, (card.height, card.width, 3)))
Image.fromarray(np.clip(photo, 0, 255).astype(np.uint8)).save(out("light-print-on-dark-card.jpg"), quality=85)
# The name stands apart from the rest as a stanza does (110 px below it, the lines after 61 px).
write_text("light-print-on-dark-card.txt", "\n".join(card_lines[:1] + [""] + card_lines[1:]) + "\n")

# A French letter photographed whose print lost two accents, as a worn print or a phone's blur
# loses them: "hate" printed for "hâte", "A" for "À". Tesseract reads both as printed, confidently
# ("hate" is an English word); the French dictionary of the line's language knows only "hâte",
# and a lone capital A starting a French sentence is "À" (Accents.respelled).
lost_accents = ["Lettre à Hélène", "", "Ma chère amie, j'ai hate de te revoir,",
                "de marcher avec toi au bord de la rivière", "quand le soleil descend sur les toits.", "",
                "A bientôt, mon amour, je pense à toi", "chaque soir à la fenêtre de ma chambre."]
samples.photo_page(samples.coverage(lost_accents), random.Random("lost-accents")).save(
    out("lost-accents-letter.jpg"), quality=samples.JPEG_QUALITY, optimize=True)
write_text("lost-accents-letter.txt", "\n".join(lost_accents) + "\n")
