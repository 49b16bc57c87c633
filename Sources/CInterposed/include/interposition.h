#ifndef LOVESNAP_INTERPOSITION_H
#define LOVESNAP_INTERPOSITION_H

// Whether lovesnap's own definitions of library functions (the other files of this module) do
// their work, or pass every call straight to the library's own function: 0 when the environment
// variable LOVESNAP_INTERPOSITION is "off" when first asked, else 1. The one switch for all of
// them; read once per process.
int interposition_enabled(void);

// A module's scope in which its definitions do their work (`line_images_store_begin/end`,
// `serial_openmp_inline_begin/end`, `unichar_ambigs_skip_begin/end`): `depth`, the module's
// thread-local count, is raised only while the switch is on, and never falls below 0.
static inline void interposition_scope_begin(int *depth) {
    if (interposition_enabled()) (*depth)++;
}
static inline void interposition_scope_end(int *depth) {
    if (*depth > 0) (*depth)--;
}

#endif
