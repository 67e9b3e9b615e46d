// SQLite from Debian (libsqlite3-dev). Imported only by PushboxStore.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: it tells SQLite to copy bound bytes.
static inline sqlite3_destructor_type pb_sqlite_transient(void) { return SQLITE_TRANSIENT; }
