// LMDB (Debian: liblmdb-dev) for the hot-key experiment; not part of the product (see BENCHMARKS.md).
#include <lmdb.h>
