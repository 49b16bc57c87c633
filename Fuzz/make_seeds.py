#!/usr/bin/env python3
"""Writes the fuzz seed corpus into Fuzz/seeds/ (deterministic; Pillow only).

Small images in every format Leptonica 1.82 reads, covering the loader's branches: grey, RGB,
palette, RGBA and grey+alpha, 16-bit, 1-bit, tiny sizes, EXIF orientation 1-8 on JPEG, and a
light-on-dark page, a 2-frame GIF and a 2-page TIFF. Each has a few glyph-like strokes so that the preprocessor's text-height
and skew probes have components to measure.
"""
import io, os
from PIL import Image, ImageDraw, ImageFont

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
os.makedirs(OUT, exist_ok=True)

def page(w=96, h=48, text="Lenore", fg=24, bg=250, mode="L"):
    im = Image.new(mode, (w, h), bg if mode == "L" else (bg, bg, bg))
    d = ImageDraw.Draw(im)
    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", max(8, h // 3))
    except OSError:
        font = ImageFont.load_default()
    d.text((4, h // 4), text, fill=fg if mode == "L" else (fg, fg, fg), font=font)
    return im

def exif_bytes(orientation):
    e = Image.Exif()
    e[0x0112] = orientation
    return e.tobytes()

def save(name, im, **kw):
    im.save(os.path.join(OUT, name), **kw)

g = page()
rgb = page(mode="RGB")
save("gray.png", g)
save("rgb.png", rgb)
save("palette.png", rgb.convert("P", palette=Image.ADAPTIVE, colors=4))
rgba = Image.new("RGBA", g.size, (0, 0, 0, 0)); rgba.putalpha(Image.eval(g, lambda v: 255 - v))
save("rgba-transparent.png", rgba)
la = Image.merge("LA", (Image.new("L", g.size, 0), Image.eval(g, lambda v: 255 - v)))
save("gray-alpha.png", la)
save("gray16.png", g.point(lambda v: v * 257, "I").convert("I;16"))
save("bilevel.png", g.point(lambda v: 255 if v > 128 else 0, "1"))
save("tiny-1x1.png", Image.new("L", (1, 1), 0))
save("tiny-3x2.png", Image.new("RGB", (3, 2), (10, 200, 30)))
save("dark.png", page(fg=230, bg=20))
save("gray.jpg", g, quality=60)
save("rgb.jpg", rgb, quality=60)
for o in range(1, 9):
    save(f"exif-{o}.jpg", page(w=48, h=24, mode="RGB"), quality=50, exif=exif_bytes(o))
save("cmyk.jpg", rgb.convert("CMYK"), quality=50)
save("progressive.jpg", rgb, quality=50, progressive=True)
save("gray.tif", g, compression="tiff_lzw")
save("bilevel-g4.tif", g.point(lambda v: 255 if v > 128 else 0, "1"), compression="group4")
save("rgb-packbits.tif", rgb, compression="packbits")
save("rgba.tif", rgba)
save("palette.gif", rgb.convert("P", palette=Image.ADAPTIVE, colors=8))
save("rgb.bmp", rgb)
save("bilevel.bmp", g.point(lambda v: 255 if v > 128 else 0, "1"))
save("gray.pgm", g)
save("rgb.ppm", rgb)
save("bilevel.pbm", g.point(lambda v: 255 if v > 128 else 0, "1"))
wide = Image.new("1", (5000, 200), 1)                      # long side above the 4000 px bound
dw = ImageDraw.Draw(wide)
for x in range(0, 5000, 40):
    dw.rectangle([x, 80, x + 20, 110], fill=0)
save("wide-1bit.png", wide, optimize=True)
small = page(w=48, h=24)                                   # multi-frame: the loader counts frames
save("frames.gif", small, save_all=True, append_images=[Image.eval(small, lambda v: 255 - v)])
save("pages.tif", small, save_all=True, append_images=[Image.eval(small, lambda v: 255 - v)])
try:
    save("rgb.webp", rgb, quality=50)
    save("rgba.webp", rgba, lossless=True)
except (OSError, KeyError) as e:
    print("no WebP in this Pillow:", e)
try:
    save("gray.jp2", g)
except (OSError, KeyError) as e:
    print("no JPEG 2000 in this Pillow:", e)
total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
print(f"{len(os.listdir(OUT))} seeds, {total} bytes")
