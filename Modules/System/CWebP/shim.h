// libwebp with its demux and mux libraries (Debian: libwebp-dev).
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#include <webp/mux.h>
