// Leptonica first: it makes `struct Pix` complete, so capi.h's Pix* imports as
// UnsafeMutablePointer<Pix> everywhere (with capi.h alone it is an OpaquePointer).
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>
