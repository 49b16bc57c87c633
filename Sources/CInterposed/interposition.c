// The one switch for every library function this module interposes on (ELF symbol
// interposition: the executable's definition comes before the library's, and hands the call on
// with `dlsym(RTLD_NEXT)`): Leptonica's `pixWriteMem` and libpng's `png_set_compression_level`
// (line_images.c), Tesseract's `UnicharAmbigs::LoadUnicharAmbigs` (unichar_ambigs.c), libgomp's
// `GOMP_parallel` family (serial_openmp.c) and Leptonica's brick morphology (brick_morphology.c).
// Each is a workaround for time a library wastes, measured in docs/measurements/speed.md; with
// LOVESNAP_INTERPOSITION=off every one passes its calls to the library unchanged, so that the
// libraries' own behaviour can be compared or fallen back to.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "interposition.h"

static int enabled = 1;
static pthread_once_t read_switch_once = PTHREAD_ONCE_INIT;

static void read_switch(void) {
    const char *value = getenv("LOVESNAP_INTERPOSITION");
    enabled = !(value != NULL && strcmp(value, "off") == 0);
}

int interposition_enabled(void) {
    pthread_once(&read_switch_once, read_switch);
    return enabled;
}
