// Hunspell's C API (Debian libhunspell-dev): Hunspell_create, Hunspell_spell, Hunspell_destroy.
#include <hunspell/hunspell.h>
