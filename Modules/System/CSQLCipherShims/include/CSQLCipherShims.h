// Wrappers for what the Swift importer cannot bring in from SQLCipher: the SQLITE_TRANSIENT destructor macro and the
// variadic sqlite3_config. Imported only by the SQLite module.
#ifndef TELEGRAPH_CSQLCIPHER_SHIMS_H
#define TELEGRAPH_CSQLCIPHER_SHIMS_H

#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlcipher/sqlite3.h>

/// sqlite3_bind_blob64 with SQLITE_TRANSIENT (SQLite copies the bytes before returning).
int telegraph_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 count);

/// sqlite3_bind_text64 (UTF-8) with SQLITE_TRANSIENT.
int telegraph_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, sqlite3_uint64 count);

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled): must run before the first connection opens.
int telegraph_sqlite3_config_memstatus(int enabled);

#endif
