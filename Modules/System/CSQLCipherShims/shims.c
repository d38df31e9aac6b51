#include "CSQLCipherShims.h"

int telegraph_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 count) {
    return sqlite3_bind_blob64(statement, index, bytes, count, SQLITE_TRANSIENT);
}

int telegraph_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, sqlite3_uint64 count) {
    return sqlite3_bind_text64(statement, index, text, count, SQLITE_TRANSIENT, SQLITE_UTF8);
}

int telegraph_sqlite3_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}
