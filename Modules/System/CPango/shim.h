// Pango over HarfBuzz, FriBidi and fontconfig, with its cairo font map (Debian: libpango1.0-dev, which brings
// libcairo2-dev, libharfbuzz-dev, libfribidi-dev and libfontconfig-dev; Pango 1.50 on Debian 12).
// API reference: https://docs.gtk.org/Pango/ and https://docs.gtk.org/PangoCairo/
#include <pango/pangocairo.h>
