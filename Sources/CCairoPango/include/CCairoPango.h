#ifndef CCAIROPANGO_H
#define CCAIROPANGO_H
/* cairo, Pango, fontconfig, libpng and GLib: ConsentPDF draws every PDF, signature image and printed mark with them.

   They are opened when the first PDF or image is made, not linked: together they bring some forty shared objects
   (harfbuzz, freetype, pixman, X11's client libraries, GLib) that the dynamic loader would otherwise map and
   relocate at every start of the agent, about 10 ms before it can accept its first connection, for work no flow
   needs before it signs (docs/PERFORMANCE.md, "Start-up: the PDF libraries opened on first use"). CPoppler and
   CCups are opened the same way.

   Every function is called through one table. cairo's, fontconfig's and libpng's headers are included, and
   their fields have the headers' own types (`__typeof__`), so a call is checked against the prototype as a direct
   call would be; Pango's and GLib's are declared here (below). Nothing may call the libraries
   directly: a direct call would not link, since nothing names them to the linker. The integration test
   `LazyLibraries` checks that a started consentd maps none of them and that its first consent opens them. */
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <fontconfig/fontconfig.h>
#include <png.h>
#include <stddef.h>
#include <stdint.h>

/* Pango's and GLib's headers need pkg-config's include paths, and pkg-config's libraries would link them again
   (SwiftPM passes both), so the few Pango and GLib types used are declared here instead, as CPoppler declares
   poppler's. `Tests/CCairoPangoCheck` compiles this header after the real ones and `_Static_assert`s that every
   prototype of the table is Pango's own and that each stand-in below has Pango's size, layout and values: a
   mismatch fails the build of `make test`, not a consent. */
#define CCAIROPANGO_SCALE 1024
#define CCAIROPANGO_WRAP_WORD_CHAR 2
#define CCAIROPANGO_ALIGN_CENTER 1
struct ccairopango_rectangle { int x, y, width, height; };
/* The leading members of Pango's public PangoLayoutLine, the only ones read. */
struct ccairopango_layout_line_head { void *layout; int start_index; int length; };

#ifndef __PANGO_H__
typedef int gboolean;
typedef uint32_t gunichar;
typedef void *gpointer;
typedef struct _GError GError;
typedef struct _PangoAttrList PangoAttrList;
typedef struct _PangoAttribute PangoAttribute;
typedef struct _PangoContext PangoContext;
typedef struct _PangoFcFontMap PangoFcFontMap;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoLayoutIter PangoLayoutIter;
typedef struct _PangoLayoutLine PangoLayoutLine;
typedef struct ccairopango_rectangle PangoRectangle;
typedef int PangoAlignment;
typedef int PangoWrapMode;
#define PANGO_SCALE CCAIROPANGO_SCALE
#define PANGO_WRAP_WORD_CHAR CCAIROPANGO_WRAP_WORD_CHAR
#define PANGO_ALIGN_CENTER CCAIROPANGO_ALIGN_CENTER
#endif

/* A line's byte range in its layout's text. */
static inline void ccairopango_line_range(const PangoLayoutLine *_Nonnull line, int *_Nonnull start, int *_Nonnull length) {
    const struct ccairopango_layout_line_head *head = (const struct ccairopango_layout_line_head *)(const void *)line;
    *start = head->start_index;
    *length = head->length;
}

/* Pango's and GLib's functions, declared as their headers declare them: return type, name, parameters. */
#define CCAIROPANGO_PANGO_FUNCTIONS(X) \
    X(PangoAttribute *, pango_attr_font_features_new, (const char *features)) \
    X(void, pango_attr_list_insert_before, (PangoAttrList *list, PangoAttribute *attr)) \
    X(PangoAttrList *, pango_attr_list_new, (void)) \
    X(void, pango_attr_list_unref, (PangoAttrList *list)) \
    X(void, pango_cairo_context_set_font_options, (PangoContext *context, const cairo_font_options_t *options)) \
    X(void, pango_cairo_context_set_resolution, (PangoContext *context, double dpi)) \
    X(PangoFontMap *, pango_cairo_font_map_new, (void)) \
    X(void, pango_cairo_show_layout, (cairo_t *cr, PangoLayout *layout)) \
    X(void, pango_cairo_show_layout_line, (cairo_t *cr, PangoLayoutLine *line)) \
    X(void, pango_cairo_update_context, (cairo_t *cr, PangoContext *context)) \
    X(void, pango_context_set_round_glyph_positions, (PangoContext *context, gboolean round_positions)) \
    X(void, pango_fc_font_map_shutdown, (PangoFcFontMap *fcfontmap)) \
    X(void, pango_font_description_free, (PangoFontDescription *desc)) \
    X(PangoFontDescription *, pango_font_description_from_string, (const char *str)) \
    X(PangoFontDescription *, pango_font_description_new, (void)) \
    X(PangoContext *, pango_font_map_create_context, (PangoFontMap *fontmap)) \
    X(void, pango_layout_get_extents, (PangoLayout *layout, PangoRectangle *ink_rect, PangoRectangle *logical_rect)) \
    X(PangoLayoutIter *, pango_layout_get_iter, (PangoLayout *layout)) \
    X(void, pango_layout_iter_free, (PangoLayoutIter *iter)) \
    X(int, pango_layout_iter_get_baseline, (PangoLayoutIter *iter)) \
    X(void, pango_layout_iter_get_line_extents, (PangoLayoutIter *iter, PangoRectangle *ink_rect, PangoRectangle *logical_rect)) \
    X(PangoLayoutLine *, pango_layout_iter_get_line_readonly, (PangoLayoutIter *iter)) \
    X(gboolean, pango_layout_iter_next_line, (PangoLayoutIter *iter)) \
    X(void, pango_layout_line_get_x_ranges, (PangoLayoutLine *line, int start_index, int end_index, int **ranges, int *n_ranges)) \
    X(PangoLayout *, pango_layout_new, (PangoContext *context)) \
    X(void, pango_layout_set_alignment, (PangoLayout *layout, PangoAlignment alignment)) \
    X(void, pango_layout_set_attributes, (PangoLayout *layout, PangoAttrList *attrs)) \
    X(void, pango_layout_set_font_description, (PangoLayout *layout, const PangoFontDescription *desc)) \
    X(void, pango_layout_set_text, (PangoLayout *layout, const char *text, int length)) \
    X(void, pango_layout_set_width, (PangoLayout *layout, int width)) \
    X(void, pango_layout_set_wrap, (PangoLayout *layout, PangoWrapMode wrap)) \
    X(gboolean, pango_parse_markup, (const char *markup_text, int length, gunichar accel_marker, PangoAttrList **attr_list, char **text, gunichar *accel_char, GError **error)) \
    X(void, g_error_free, (GError *error)) \
    X(void, g_free, (gpointer mem)) \
    X(gpointer, g_object_ref, (gpointer object)) \
    X(void, g_object_unref, (gpointer object))

/* cairo's, fontconfig's and libpng's, whose headers are included: each field takes the header's own type. */
#define CCAIROPANGO_FUNCTIONS(X) \
    X(cairo_arc) X(cairo_create) X(cairo_curve_to) X(cairo_destroy) X(cairo_fill) X(cairo_font_options_create) \
    X(cairo_font_options_destroy) X(cairo_font_options_set_hint_metrics) X(cairo_font_options_set_hint_style) \
    X(cairo_image_surface_create) X(cairo_image_surface_create_from_png_stream) X(cairo_image_surface_get_data) \
    X(cairo_image_surface_get_format) X(cairo_image_surface_get_height) X(cairo_image_surface_get_stride) \
    X(cairo_image_surface_get_width) X(cairo_line_to) X(cairo_move_to) X(cairo_new_sub_path) X(cairo_paint) \
    X(cairo_pdf_surface_create_for_stream) X(cairo_pdf_surface_set_metadata) X(cairo_pdf_surface_set_size) \
    X(cairo_rectangle) X(cairo_restore) X(cairo_save) X(cairo_scale) X(cairo_set_dash) X(cairo_set_line_cap) \
    X(cairo_set_line_join) X(cairo_set_line_width) X(cairo_set_source_rgb) X(cairo_set_source_surface) \
    X(cairo_show_page) X(cairo_status) X(cairo_status_to_string) X(cairo_stroke) X(cairo_surface_destroy) \
    X(cairo_surface_finish) X(cairo_surface_flush) X(cairo_surface_status) X(cairo_surface_write_to_png_stream) \
    X(cairo_tag_begin) X(cairo_tag_end) X(cairo_translate) \
    X(FcFini) \
    X(png_create_info_struct) X(png_create_write_struct) X(png_destroy_write_struct) X(png_get_io_ptr) \
    X(png_set_IHDR) X(png_set_bKGD) X(png_set_compression_level) X(png_set_filter) X(png_set_longjmp_fn) \
    X(png_set_write_fn) X(png_write_end) X(png_write_info) X(png_write_row)

/* The table: one field per function, of the function's own pointer type. */
typedef struct {
#define CCAIROPANGO_FIELD(name) __typeof__(name) *_Nonnull name;
    CCAIROPANGO_FUNCTIONS(CCAIROPANGO_FIELD)
#undef CCAIROPANGO_FIELD
#define CCAIROPANGO_PANGO_FIELD(result, name, parameters) result (*_Nonnull name) parameters;
    CCAIROPANGO_PANGO_FUNCTIONS(CCAIROPANGO_PANGO_FIELD)
#undef CCAIROPANGO_PANGO_FIELD
} ccairopango_functions;

/* The libraries' functions, opening them on the first call (once per process, whichever thread asks first); NULL
   when they cannot be opened (`ccairopango_failure` says why). They stay open until the process ends. */
const ccairopango_functions *_Nullable ccairopango_library(void);

/* Why `ccairopango_library` returned NULL (empty before its first call or when it did not). */
const char *_Nonnull ccairopango_failure(void);

/* Encodes a flushed CAIRO_FORMAT_ARGB32 image surface as PNG (shim.c says how); 0 and a malloc'd buffer the caller
   frees, or -1 when libpng or memory fails. */
int ccairopango_surface_png(const ccairopango_functions *_Nonnull f, cairo_surface_t *_Nonnull surface,
                            unsigned char *_Nullable *_Nonnull png_bytes, size_t *_Nonnull png_length);

/* ConsentPDF's FontLibrary: every PDF is laid out with one font map of its own (Pango's default map is per thread,
   and the cooperative pool renders on several), so that at exit it can be shut down and fontconfig freed. */

/* What pango_cairo_create_context does, with the given map instead of the calling thread's default. */
static inline PangoContext *ccairopango_create_context(const ccairopango_functions *_Nonnull f, PangoFontMap *map, cairo_t *cr) {
    PangoContext *context = f->pango_font_map_create_context(map);
    f->pango_cairo_update_context(cr, context);
    return context;
}

/* Drops the map's fontconfig references (it may outlive this if a context still holds it), then fontconfig's
   configuration and caches. No other map may hold fontconfig patterns: FcFini asserts that every cache is free. */
static inline void ccairopango_release_fonts(const ccairopango_functions *_Nonnull f, PangoFontMap *map) {
    /* A plain cast: PANGO_FC_FONT_MAP would check the type through GLib, linked again. pango_cairo_font_map_new
       makes a PangoCairoFcFontMap, a PangoFcFontMap, on every platform fontconfig serves. */
    f->pango_fc_font_map_shutdown((PangoFcFontMap *)map);
    f->g_object_unref(map);
    f->FcFini();
}

#endif
