// ncursesw for the terminal layer (libncursesw5-dev). Imported only by PushboxTerminal.
// The wide-character API needs these before the header (a pkgConfig line would lose them).
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Globals Swift 6 calls "not concurrency-safe", and macros it cannot import: one getter each.
static inline WINDOW *pb_stdscr(void) { return stdscr; }
#include <stdio.h>
static inline FILE *pb_stdout(void) { return stdout; }
static inline FILE *pb_stdin(void) { return stdin; }
static inline int pb_lines(void) { return LINES; }
static inline int pb_cols(void) { return COLS; }
static inline int pb_colors(void) { return COLORS; }
static inline int pb_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t pb_a_bold(void) { return A_BOLD; }
static inline attr_t pb_a_underline(void) { return A_UNDERLINE; }
static inline attr_t pb_a_reverse(void) { return A_REVERSE; }
static inline attr_t pb_a_dim(void) { return A_DIM; }
static inline attr_t pb_color_pair(int n) { return COLOR_PAIR(n); }
static inline mmask_t pb_mouse_mask(void) { return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED; }
static inline int pb_button1(mmask_t m) { return (m & (BUTTON1_CLICKED | BUTTON1_PRESSED)) != 0; }
static inline int pb_wheel_up(mmask_t m) { return (m & BUTTON4_PRESSED) != 0; }
static inline int pb_wheel_down(mmask_t m) { return (m & BUTTON5_PRESSED) != 0; }
// A terminfo string capability, or NULL when the terminal has none (tigetstr's -1 and 0 alike).
static inline const char *pb_capability(const char *name) {
    char *s = tigetstr(name);
    return (s == NULL || s == (char *)-1) ? NULL : s;
}
// tiparm is variadic, which Swift cannot call: one fixed arity each.
static inline const char *pb_tparm1(const char *cap, int a) { return cap ? tiparm(cap, a) : NULL; }
static inline const char *pb_tparm2(const char *cap, int a, int b) { return cap ? tiparm(cap, a, b) : NULL; }
// tigetstr returns (char *)-1 for "not a string capability": true only for a real one.
static inline int pb_has_cursor_addressing(void) { char *cup = tigetstr("cup"); return cup != NULL && cup != (char *)-1; }

// Pseudo-terminals for headless runs (the TUI benchmark): hidden by Swift's Glibc import.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <termios.h>
int posix_openpt(int flags);
int grantpt(int fd);
int unlockpt(int fd);
char *ptsname(int fd);
static inline int pb_set_winsize(int fd, unsigned short rows, unsigned short cols) {
    struct winsize ws = { rows, cols, 0, 0 };
    return ioctl(fd, TIOCSWINSZ, &ws);
}
