// Zstandard (Debian: libzstd-dev): the codec of the animated-sticker frame cache.
#include <zstd.h>
