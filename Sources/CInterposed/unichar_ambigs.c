// Tesseract's `Tesseract::init_tesseract_lang_data` loads, for every language, two tables of
// character ambiguities (`rn` read for `m`, …): the universal ones compiled into the library
// (`UnicharAmbigs::LoadUniversal`: `kUniversalAmbigsFile`, 19007 lines, 167 KiB) and the
// language's own (the traineddata's `unicharambigs` component). Both go through
// `UnicharAmbigs::LoadUnicharAmbigs`, which inserts every entry into a sorted linked list
// (`ELIST::add_sorted`): about 0.1 s for eng+fra, half the tuned CLI's whole run on a clean scan
// (docs/measurements/speed.md). Only the legacy engine uses the tables (the dictionary's dangerous
// ambiguities, adaptive classification); in Tesseract 5 the calls sit under
// `#ifndef DISABLED_LEGACY_ENGINE`, and a build without the legacy engine reads with the LSTM
// engine without them. Debian's build keeps the legacy engine, so it loads them even for
// OEM_LSTM_ONLY.
//
// This file defines `LoadUnicharAmbigs` (its Itanium C++ name; a member function takes `this`
// first): libtesseract calls it through its PLT, so the executable's definition comes first
// (ELF symbol interposition; exported by a linker flag in Package.swift). Inside
// `unichar_ambigs_skip_begin/end` (a thread-local count, set around the LSTM engine's
// `TessBaseAPIInit2`) it returns at once and the tables stay as `InitUnicharAmbigs` made them,
// empty, as for a language without ambiguities. Everything else — orientation detection's
// legacy engine among it — goes to Tesseract's own function (`dlsym(RTLD_NEXT)`).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include "tuning.h"
#include "unichar_ambigs.h"

static __thread int skip_depth;
static __thread long skipped_count;
static __thread long loaded_count;

void unichar_ambigs_skip_begin(void) { tuning_scope_begin(TUNING_UNICHAR_AMBIGS, &skip_depth); }
void unichar_ambigs_skip_end(void) { tuning_scope_end(&skip_depth); }
long unichar_ambigs_skipped_count(void) { return skipped_count; }
long unichar_ambigs_loaded_count(void) { return loaded_count; }

#define LOAD_UNICHAR_AMBIGS \
    _ZN9tesseract13UnicharAmbigs17LoadUnicharAmbigsERKNS_10UNICHARSETEPNS_5TFileEibPS1_
#define STRINGIFY(x) #x
#define NAME_OF(x) STRINGIFY(x)
#define LOAD_UNICHAR_AMBIGS_NAME NAME_OF(LOAD_UNICHAR_AMBIGS)

// void UnicharAmbigs::LoadUnicharAmbigs(const UNICHARSET &encoder_set, TFile *ambigs_file,
//                                       int debug_level, bool use_ambigs_for_adaption,
//                                       UNICHARSET *unicharset)
typedef void (*load_function)(void *, const void *, void *, int, bool, void *);
static load_function tesseract_load;
static pthread_once_t found_tesseract = PTHREAD_ONCE_INIT;
static void find_tesseract(void) {
    tesseract_load = (load_function)dlsym(RTLD_NEXT, LOAD_UNICHAR_AMBIGS_NAME);
}

void LOAD_UNICHAR_AMBIGS(void *self, const void *encoder_set, void *ambigs_file, int debug_level,
                         bool use_ambigs_for_adaption, void *unicharset) {
    if (skip_depth > 0) {
        skipped_count++;
        return;
    }
    pthread_once(&found_tesseract, find_tesseract);
    if (tesseract_load != NULL) {
        loaded_count++;
        tesseract_load(self, encoder_set, ambigs_file, debug_level, use_ambigs_for_adaption, unicharset);
    }
}
