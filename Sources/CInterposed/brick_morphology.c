// Tesseract's layout analysis looks for ruling lines (`LineFinder::FindAndRemoveLines`): it
// opens the thresholded page with bricks of a line's least length, 75 pixels long and one wide
// at 300 DPI, each way, and with a square of the thickest line, 15×15 (`pixOpenBrick`). Leptonica
// opens by a brick with one rasterop of the whole page per pixel of the brick, per erosion and
// per dilation: 300 page-sized rasterops for the two long bricks, on every page and for every
// engine that analyses it, 4 to 5 s of the 145 benchmark pages (docs/measurements/speed.md). Leptonica's
// dewarping and skew search make safe closings by long bricks the same way.
//
// A brick of a size that is the product of two factors is the same as a composite one (a brick
// of the first factor, then a comb of the second factor's teeth spaced by the first), which
// takes as many rasterops as the two factors together: 15 + 5 instead of 75. Leptonica makes
// those (`pixOpenCompBrick`, `pixCloseSafeCompBrick`, `pixErodeCompBrick`, `pixDilateCompBrick`)
// for the size `selectComposableSizes` picks, the requested one when it is a product of two of
// its factors. For such sizes the result is the brick's, pixel for pixel (checked with `pixEqual`
// on the pages of the corpus and the stress set, and by the tests); the unsafe closing
// (`pixCloseBrick`) is not, at the page's edges, and is left alone.
//
// This file defines the four brick functions: the executable's definitions come before
// Leptonica's for every library that calls them (ELF symbol interposition; libtesseract's and
// Leptonica's own references are unversioned, so the linker exports them). A 1 bpp image and a
// brick of at least `MIN_COMPOSITE` pixels one way, whose every side is 1 or such a product, are
// made with the composite; everything else goes to Leptonica's own function
// (`dlsym(RTLD_NEXT)`), and so does any call made while one of them runs on that thread.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <leptonica/allheaders.h>
#include "brick_morphology.h"
#include "tuning.h"

// Below this size a composite brick saves little or nothing.
#define MIN_COMPOSITE 8

typedef PIX *(*brick_function)(PIX *, PIX *, l_int32, l_int32);
static brick_function leptonica[4];
static pthread_once_t found_leptonica = PTHREAD_ONCE_INIT;
static void find_leptonica(void) {
    leptonica[0] = (brick_function)dlsym(RTLD_NEXT, "pixOpenBrick");
    leptonica[1] = (brick_function)dlsym(RTLD_NEXT, "pixCloseSafeBrick");
    leptonica[2] = (brick_function)dlsym(RTLD_NEXT, "pixErodeBrick");
    leptonica[3] = (brick_function)dlsym(RTLD_NEXT, "pixDilateBrick");
}

void *brick_morphology_leptonica_function(int kind) {
    pthread_once(&found_leptonica, find_leptonica);
    return kind >= 0 && kind < 4 ? (void *)leptonica[kind] : NULL;
}

static __thread long composite_count;
long brick_morphology_composite_count(void) { return composite_count; }

static __thread int inside;

// Whether a brick side of `size` pixels is made exactly by Leptonica's composite.
static int composable(l_int32 size) {
    if (size == 1) return 1;
    l_int32 first = 0, second = 0;
    if (size < 1 || selectComposableSizes(size, &first, &second) != 0) return 0;
    return first * second == size;
}

static PIX *morph(int kind, brick_function composite, PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    pthread_once(&found_leptonica, find_leptonica);
    if (leptonica[kind] == NULL) return NULL;
    if (!tuning_enabled(TUNING_BRICK_MORPHOLOGY) || inside > 0 || pixs == NULL || pixGetDepth(pixs) != 1 ||
        (hsize < MIN_COMPOSITE && vsize < MIN_COMPOSITE) || !composable(hsize) || !composable(vsize)) {
        return leptonica[kind](pixd, pixs, hsize, vsize);
    }
    inside++;
    PIX *out = composite(pixd, pixs, hsize, vsize);
    inside--;
    composite_count++;
    return out;
}

PIX *pixOpenBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return morph(0, pixOpenCompBrick, pixd, pixs, hsize, vsize);
}
PIX *pixCloseSafeBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return morph(1, pixCloseSafeCompBrick, pixd, pixs, hsize, vsize);
}
PIX *pixErodeBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return morph(2, pixErodeCompBrick, pixd, pixs, hsize, vsize);
}
PIX *pixDilateBrick(PIX *pixd, PIX *pixs, l_int32 hsize, l_int32 vsize) {
    return morph(3, pixDilateCompBrick, pixd, pixs, hsize, vsize);
}
