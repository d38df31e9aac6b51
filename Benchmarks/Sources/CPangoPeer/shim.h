// Pango used directly, the peer of textlayout-bench (the main package reaches Pango only through TextLayout).
#include <pango/pangocairo.h>
