// qpdf's C API: reads Tesseract's PDF pages, replaces their text streams, joins pages
// (Debian libqpdf-dev).
#include <qpdf/qpdf-c.h>
