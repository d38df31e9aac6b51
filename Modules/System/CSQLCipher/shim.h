// SQLCipher 4 (Debian: libsqlcipher-dev). SQLITE_HAS_CODEC must be defined here: cSettings defines do not
// reach the Swift importer, and without it the sqlite3_key family is not declared.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlcipher/sqlite3.h>
