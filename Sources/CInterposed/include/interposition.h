#ifndef LOVESNAP_INTERPOSITION_H
#define LOVESNAP_INTERPOSITION_H

// Whether lovesnap's own definitions of library functions (the other files of this module) do
// their work, or pass every call straight to the library's own function: 0 when the environment
// variable LOVESNAP_INTERPOSITION is "off" when first asked, else 1. The one switch for all of
// them; read once per process.
int interposition_enabled(void);

#endif
