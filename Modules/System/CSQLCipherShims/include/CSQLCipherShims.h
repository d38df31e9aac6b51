// Wrappers for what the Swift importer cannot bring in from SQLCipher: the SQLITE_TRANSIENT destructor macro, the
// variadic sqlite3_config, and keying with raw key material through sqlite3_key_v2 / sqlite3_rekey_v2 (so a key never
// appears in SQL text). Imported only by the SQLite module.
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

/// Keys (`rekey` = 0, sqlite3_key_v2) or re-encrypts (`rekey` = 1, sqlite3_rekey_v2) the "main" database with raw
/// key material: `count` bytes (key ‖ salt, at most 64) are passed to SQLCipher as its raw-key form x'<hex>'
/// (SQLCipher API, "PRAGMA key": raw key data). The hex text lives only in a stack buffer that is wiped before
/// returning. Returns SQLCipher's result code; SQLITE_MISUSE when `count` is 0 or over 64.
int telegraph_sqlcipher_key_raw(sqlite3 *db, const unsigned char *material, int count, int rekey);

#endif
