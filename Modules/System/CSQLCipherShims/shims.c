#define _DEFAULT_SOURCE 1
#include "CSQLCipherShims.h"

#include <string.h>

int telegraph_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, sqlite3_uint64 count) {
    return sqlite3_bind_blob64(statement, index, bytes, count, SQLITE_TRANSIENT);
}

int telegraph_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, sqlite3_uint64 count) {
    return sqlite3_bind_text64(statement, index, text, count, SQLITE_TRANSIENT, SQLITE_UTF8);
}

int telegraph_sqlite3_config_memstatus(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

int telegraph_sqlcipher_key_raw(sqlite3 *db, const unsigned char *material, int count, int rekey) {
    static const char digits[] = "0123456789abcdef";
    char text[2 * 64 + 3];
    if (count <= 0 || count > 64) return SQLITE_MISUSE;
    int length = 0;
    text[length++] = 'x';
    text[length++] = '\'';
    for (int i = 0; i < count; i++) {
        text[length++] = digits[material[i] >> 4];
        text[length++] = digits[material[i] & 0x0f];
    }
    text[length++] = '\'';
    int result = rekey ? sqlite3_rekey_v2(db, "main", text, length) : sqlite3_key_v2(db, "main", text, length);
    explicit_bzero(text, sizeof text);
    return result;
}
