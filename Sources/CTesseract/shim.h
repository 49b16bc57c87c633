// Leptonica first: it makes `struct Pix` complete, so capi.h's Pix* imports as
// UnsafeMutablePointer<Pix> everywhere (swift-c-interop.md, gotcha T1).
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
