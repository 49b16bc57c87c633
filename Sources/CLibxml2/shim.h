// libxml2: parses and edits Tesseract's hOCR and ALTO documents (Debian libxml2-dev).
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with Foundation's own copy of ICU; lovesnap
// never touches the encoding handlers that need it.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// xmlFree is a global function pointer, which Swift 6 refuses to read (not concurrency-safe).
static inline void cx_xmlFree(void *p) { xmlFree(p); }
