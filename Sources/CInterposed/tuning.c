// The one switch for the workarounds lovesnap applies to the libraries it reads with, each for
// time a library wastes and each keeping the text identical (docs/measurements/speed.md):
// Leptonica's `pixWriteMem` and libpng's `png_set_compression_level` (line_images.c),
// Tesseract's `UnicharAmbigs::LoadUnicharAmbigs` (unichar_ambigs.c), libgomp's `GOMP_parallel`
// family (serial_openmp.c) and Leptonica's brick morphology (brick_morphology.c), each defined in
// the executable in the library's place (ELF symbol interposition) and handing calls on with
// `dlsym(RTLD_NEXT)`. Each was kept because it saves 5 % or more of the speed benchmark's
// wall time (docs/measurements/speed.md, session 25); one that saved less (image memory written
// before Leptonica reads it, in CPixMemory) was removed.
//
// Each does its work only:
// - in a process that called `tuning_activate` (the OCR worker, its reader, its orientation
//   process), never in the editor or in a host that merely links the module;
// - when LOVESNAP_NO_TUNING does not name it ("1" or "all": every one);
// - when the libraries it relies on report a version it was verified against (Debian 12's:
//   Tesseract 5.3, Leptonica 1.82, libpng 1.6, libgomp's GOMP_4.0 interface), since each depends
//   on how that version calls or lays out the function it replaces. Otherwise the library is
//   left to do its own work.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <leptonica/allheaders.h>
#include "tuning.h"

static const char *const names[TUNING_KINDS] = {
    "line-images", "unichar-ambigs", "serial-openmp", "brick-morphology",
};

const char *tuning_name(enum tuning_kind kind) {
    return (unsigned)kind < TUNING_KINDS ? names[kind] : NULL;
}

static int activated;
static int switched_off[TUNING_KINDS];
// The first library found unverified for each kind, as a phrase; NULL when all are verified.
static char *unverified[TUNING_KINDS];
static pthread_once_t settled = PTHREAD_ONCE_INIT;
static void settle(void);

int tuning_version_verified(const char *library, const char *version) {
    if (library == NULL || version == NULL) return 0;
    const char *prefix = strcmp(library, "tesseract") == 0   ? "5.3."
                         : strcmp(library, "leptonica") == 0 ? "leptonica-1.82."
                         : strcmp(library, "libpng") == 0    ? "1.6."
                                                             : NULL;
    return prefix != NULL && strncmp(version, prefix, strlen(prefix)) == 0;
}

// The names in LOVESNAP_NO_TUNING that name no workaround, comma-separated ("" when none).
static char unknown_names[256];

static void read_switch(void) {
    const char *value = getenv("LOVESNAP_NO_TUNING");
    if (value == NULL || value[0] == '\0' || strcmp(value, "0") == 0) return;
    if (strcmp(value, "1") == 0 || strcmp(value, "all") == 0) {
        for (int kind = 0; kind < TUNING_KINDS; kind++) switched_off[kind] = 1;
        return;
    }
    // A comma-separated list of names, blanks around each ignored.
    for (const char *at = value; at != NULL;) {
        const char *end = strchr(at, ',');
        const char *stop = end != NULL ? end : at + strlen(at);
        while (at < stop && (*at == ' ' || *at == '\t')) at++;
        while (stop > at && (stop[-1] == ' ' || stop[-1] == '\t')) stop--;
        size_t length = (size_t)(stop - at);
        int known = length == 0;
        for (int kind = 0; kind < TUNING_KINDS; kind++) {
            if (length == strlen(names[kind]) && strncmp(at, names[kind], length) == 0) {
                switched_off[kind] = 1;
                known = 1;
            }
        }
        size_t used = strlen(unknown_names);
        if (!known && used + length + 2 < sizeof unknown_names) {
            if (used > 0) strcat(unknown_names, ",");
            strncat(unknown_names, at, length);
        }
        at = end != NULL ? end + 1 : NULL;
    }
}

const char *tuning_unknown_names(void) {
    pthread_once(&settled, settle);
    return unknown_names;
}

// A phrase naming `library`'s `version` when it is not the verified one; NULL when it is.
static char *problem(const char *library, const char *shown, const char *version, const char *verified) {
    if (tuning_version_verified(library, version)) return NULL;
    char *text = NULL;
    if (asprintf(&text, "%s %s is not the verified %s", shown, version != NULL ? version : "(not found)",
                 verified) < 0) {
        return NULL;
    }
    return text;
}

static void check_libraries(void) {
    const char *(*tess_version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "TessVersion");
    const char *(*png_version)(void *) = (const char *(*)(void *))dlsym(RTLD_DEFAULT, "png_get_libpng_ver");
    char *leptonica_version = getLeptonicaVersion();
    char *tesseract = problem("tesseract", "Tesseract", tess_version != NULL ? tess_version() : NULL, "5.3");
    char *leptonica = problem("leptonica", "Leptonica", leptonica_version, "1.82");
    char *libpng = problem("libpng", "libpng", png_version != NULL ? png_version(NULL) : NULL, "1.6");
    lept_free(leptonica_version);
    // libgomp has no version number; the interface the replaced functions belong to has one.
    char *libgomp = NULL;
    if (dlvsym(RTLD_DEFAULT, "GOMP_parallel", "GOMP_4.0") == NULL ||
        dlvsym(RTLD_DEFAULT, "GOMP_parallel_sections", "GOMP_4.0") == NULL ||
        dlvsym(RTLD_DEFAULT, "GOMP_sections_next", "GOMP_1.0") == NULL) {
        libgomp = strdup("libgomp's GOMP_4.0 interface is not there");
    }
    char *needs[TUNING_KINDS][3] = {
        [TUNING_LINE_IMAGES] = {tesseract, leptonica, libpng},
        [TUNING_UNICHAR_AMBIGS] = {tesseract, NULL, NULL},
        [TUNING_SERIAL_OPENMP] = {tesseract, libgomp, NULL},
        [TUNING_BRICK_MORPHOLOGY] = {leptonica, NULL, NULL},
    };
    for (int kind = 0; kind < TUNING_KINDS; kind++) {
        for (int i = 0; i < 3 && unverified[kind] == NULL; i++) {
            if (needs[kind][i] != NULL) unverified[kind] = needs[kind][i];
        }
    }
    // The phrases are kept for the process's life (`tuning_state_when_active` hands them out).
}

static void settle(void) {
    read_switch();
    check_libraries();
}

void tuning_activate(void) {
    pthread_once(&settled, settle);
    __atomic_store_n(&activated, 1, __ATOMIC_RELEASE);
}

const char *tuning_state_when_active(enum tuning_kind kind) {
    if ((unsigned)kind >= TUNING_KINDS) return "unknown";
    pthread_once(&settled, settle);
    if (switched_off[kind]) return "off by LOVESNAP_NO_TUNING";
    return unverified[kind];
}

int tuning_enabled(enum tuning_kind kind) {
    return __atomic_load_n(&activated, __ATOMIC_ACQUIRE) && tuning_state_when_active(kind) == NULL;
}
