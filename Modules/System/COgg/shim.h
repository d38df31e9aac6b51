// libogg (Debian: libogg-dev).
#include <ogg/ogg.h>
