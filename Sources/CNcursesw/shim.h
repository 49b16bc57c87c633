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
static inline int cn_colors(void)         { return COLORS; }
// newterm on the process's stdout and stdin (C globals that Swift 6 treats as shared mutable state).
static inline SCREEN *cn_newterm_stdio(void) { return newterm(NULL, stdout, stdin); }
#include <term.h>
// Whether $TERM can move the cursor (terminfo "cup"; TERM=dumb cannot), asked of the terminfo
// database alone, before newterm, so that nothing reaches the terminal. An unknown TERM answers
// yes: newterm then fails and says so.
static inline int cn_term_can_address_cursor(void) {
    int error = 0;
    if (setupterm(NULL, 1, &error) != OK) return 1;
    char *cup = tigetstr("cup");
    int can = cup != NULL && cup != (char *)-1;
    del_curterm(set_curterm(NULL));
    return can;
}
