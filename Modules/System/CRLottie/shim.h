// rlottie C API (Debian: librlottie-dev).
#include <rlottie_capi.h>
