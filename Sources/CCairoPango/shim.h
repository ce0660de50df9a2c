#ifndef CCAIROPANGO_SHIM_H
#define CCAIROPANGO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>

/* ConsentPDF's FontLibrary: every PDF is laid out with one font map of its own (Pango's default map is per thread,
   and the cooperative pool renders on several), so that at exit it can be shut down and fontconfig freed. */

/* What pango_cairo_create_context does, with the given map instead of the calling thread's default. */
static inline PangoContext *ccairopango_create_context(PangoFontMap *map, cairo_t *cr) {
    PangoContext *context = pango_font_map_create_context(map);
    pango_cairo_update_context(cr, context);
    return context;
}

/* Drops the map's fontconfig references (it may outlive this if a context still holds it), then fontconfig's
   configuration and caches. No other map may hold fontconfig patterns: FcFini asserts that every cache is free. */
static inline void ccairopango_release_fonts(PangoFontMap *map) {
    pango_fc_font_map_shutdown(PANGO_FC_FONT_MAP(map));
    g_object_unref(map);
    FcFini();
}
#endif
