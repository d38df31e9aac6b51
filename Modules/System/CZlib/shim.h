// zlib (Debian: zlib1g-dev).
#include <zlib.h>
