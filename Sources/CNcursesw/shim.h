// SwiftPM drops pkg-config's -D_XOPEN_SOURCE, so ask for the wide API explicitly;
// without it get_wch/addwstr/cchar_t are not declared.
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <ncurses.h>
// Macros and C globals re-exported as functions Swift can call.
static inline attr_t cn_A_NORMAL(void)    { return A_NORMAL; }
static inline attr_t cn_A_REVERSE(void)   { return A_REVERSE; }
static inline attr_t cn_A_BOLD(void)      { return A_BOLD; }
static inline attr_t cn_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline WINDOW *cn_stdscr(void)     { return stdscr; }
static inline int cn_lines(void)          { return LINES; }
static inline int cn_cols(void)           { return COLS; }
