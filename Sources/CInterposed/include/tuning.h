#ifndef LOVESNAP_TUNING_H
#define LOVESNAP_TUNING_H

// The one switch for every library function this module defines in lovesnap's place (ELF symbol
// interposition). See tuning.c.

/// The workarounds, each named in LOVESNAP_NO_TUNING by `tuning_name`.
enum tuning_kind {
    TUNING_LINE_IMAGES = 0,      // line_images.c: "line-images"
    TUNING_UNICHAR_AMBIGS = 1,   // unichar_ambigs.c: "unichar-ambigs"
    TUNING_SERIAL_OPENMP = 2,    // serial_openmp.c: "serial-openmp"
    TUNING_BRICK_MORPHOLOGY = 3, // brick_morphology.c: "brick-morphology"
    TUNING_KINDS = 4
};

/// Turns this process's tuning on: called once by the OCR worker and its reader and orientation
/// processes before their first engine. Before it (the editor, the detector, a test that does
/// not call it) every definition passes its calls to the library unchanged.
void tuning_activate(void);

/// Whether `kind` does its work: activated in this process, not named in LOVESNAP_NO_TUNING
/// ("1" or "all" names every kind; otherwise a comma-separated list of `tuning_name`s, blanks
/// around each ignored, read once), and every library it depends on is a version it was verified against
/// (`tuning_library_problem`). 1 or 0.
int tuning_enabled(enum tuning_kind kind);

/// The items of LOVESNAP_NO_TUNING that name no workaround, comma-separated ("" when none).
const char *tuning_unknown_names(void);

/// The kind's name in LOVESNAP_NO_TUNING and in `lovesnap --version`; NULL past the last.
const char *tuning_name(enum tuning_kind kind);

/// Why `kind` is off in a process that activated tuning, as a short phrase ("off by
/// LOVESNAP_NO_TUNING", "Tesseract 5.4.1 is not the verified 5.3"), or NULL when it is on there.
/// Reads the switch and checks the libraries if not done yet; does not activate.
const char *tuning_state_when_active(enum tuning_kind kind);

/// Whether `version`, as the library reports it (`TessVersion`, `getLeptonicaVersion`,
/// libpng's `png_get_libpng_ver`), is one the workarounds were verified against: Tesseract 5.3.x,
/// Leptonica 1.82.x, libpng 1.6.x (Debian 12's). `library` is "tesseract", "leptonica" or
/// "libpng". 1 or 0; pure, for tests.
int tuning_version_verified(const char *library, const char *version);

/// A scope in which one kind's definition does its work (`line_images_store_begin/end`, …):
/// `depth`, the kind's thread-local count, is raised only while the kind is enabled, and never
/// falls below 0.
static inline void tuning_scope_begin(enum tuning_kind kind, int *depth) {
    if (tuning_enabled(kind)) (*depth)++;
}
static inline void tuning_scope_end(int *depth) {
    if (*depth > 0) (*depth)--;
}

#endif
