// SQLCipher used directly, as the limit Postbox's inserts are measured against (same library, no wrapper).
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlcipher/sqlite3.h>
