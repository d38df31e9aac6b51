// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev; 2.1.x on Debian 12, the tj* functions).
#include <stddef.h>
#include <turbojpeg.h>
