#!/usr/bin/env python3
"""Remakes the small image fixtures the tests read (Python 3 + Pillow: pip install pillow).
   python3 Tests/Fixtures/make_fixtures.py
Each is built from SamplePoems/kettle.png and harbour.png, so its first frame reads as kettle.txt."""
import os
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
poems = os.path.join(here, "..", "..", "SamplePoems")
kettle = Image.open(os.path.join(poems, "kettle.png")).convert("L")
harbour = Image.open(os.path.join(poems, "harbour.png")).convert("L")
# Three frames; Leptonica reads the first.
kettle.save(os.path.join(here, "three-frames.gif"), save_all=True, append_images=[harbour, kettle])
# Two pages, 1 bit per pixel, CCITT G4 (a fax-style scan).
pages = [p.point(lambda v: 255 if v > 128 else 0).convert("1") for p in (kettle, harbour)]
pages[0].save(os.path.join(here, "two-pages-g4.tif"), save_all=True, append_images=pages[1:], compression="group4")
# 16 bits per grey sample.
kettle.convert("I").point(lambda v: v * 257).convert("I;16").save(os.path.join(here, "grey16.png"))
# A palette image.
kettle.convert("P").save(os.path.join(here, "palette.png"))
# Mixed polarity: harbour.png with its second stanza as light text in a dark band.
from PIL import ImageOps
mixed = harbour.copy()
w, h = mixed.size
band = (0, int(h * 0.62), w, h)
mixed.paste(ImageOps.invert(mixed.crop(band)), band[:2])
mixed.save(os.path.join(here, "mixed-polarity.png"))
# The other formats and colour spaces Leptonica reads, all of kettle.png.
kettle.save(os.path.join(here, "kettle.pgm"))
kettle.point(lambda v: 255 if v > 128 else 0).convert("1").save(os.path.join(here, "kettle.bmp"))
kettle.convert("RGB").save(os.path.join(here, "kettle.webp"), lossless=True)
kettle.convert("CMYK").save(os.path.join(here, "kettle-cmyk.tif"), compression="tiff_lzw")
kettle.convert("RGB").save(os.path.join(here, "kettle-progressive.jpg"), quality=90, progressive=True)
