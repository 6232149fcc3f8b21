#ifndef OFFICER_CSQLITE_SHIM_H
#define OFFICER_CSQLITE_SHIM_H
/* SQLITE_TRANSIENT is a cast macro Swift cannot import; bind calls go through these wrappers. */
#include <sqlite3.h>

static inline int officer_sqlite3_bind_text_transient(sqlite3_stmt *s, int i, const char *v, int n) {
    return sqlite3_bind_text(s, i, v, n, SQLITE_TRANSIENT);
}
static inline int officer_sqlite3_bind_blob_transient(sqlite3_stmt *s, int i, const void *v, int n) {
    return sqlite3_bind_blob(s, i, v, n, SQLITE_TRANSIENT);
}
#endif
