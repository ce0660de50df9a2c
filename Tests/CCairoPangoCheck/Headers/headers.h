/* Pango's, GLib's and cairo's real headers, for Check/check.c. */
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
