#ifndef LOVESNAP_UNICHAR_AMBIGS_H
#define LOVESNAP_UNICHAR_AMBIGS_H

/// While the calling thread is between `unichar_ambigs_skip_begin()` and `unichar_ambigs_skip_end()`
/// (they nest), Tesseract's `UnicharAmbigs::LoadUnicharAmbigs` loads nothing: an engine initialised
/// there for the LSTM engine only (OEM 1) gets empty ambiguity tables. See unichar_ambigs.c.
void unichar_ambigs_skip_begin(void);
void unichar_ambigs_skip_end(void);

/// How many ambiguity files the calling thread has left unloaded so far, and how many it has
/// loaded through Tesseract's own function (for tests).
long unichar_ambigs_skipped_count(void);
long unichar_ambigs_loaded_count(void);

#endif
