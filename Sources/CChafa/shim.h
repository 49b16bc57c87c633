// chafa (Debian's libchafa-dev, 1.12): images as terminal graphics — Unicode symbols with
// colours, or the sixel, kitty and iTerm2 protocols — and the terminal's capabilities.
#include <chafa.h>
#include <glib.h>
// g_free/g_string_free are macros or inline in some glib versions: plain functions for Swift.
static inline void cc_string_free(GString *s) { g_string_free(s, TRUE); }
static inline const char *cc_string_bytes(GString *s, size_t *length) { *length = s->len; return s->str; }
