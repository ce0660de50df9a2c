/* CCairoPango declares Pango's and GLib's types and prototypes itself, so that consentd need not link them
   (Sources/CCairoPango/include/CCairoPango.h says why). Here the real headers come first; CCairoPango's header
   then keeps its own stand-ins out (they are inside `#ifndef __PANGO_H__`) and its prototypes name the real types,
   so each is compared with the library's own declaration, and each stand-in with what it stands for. A
   difference fails the build. */
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
/* The shim marks only the pointers Swift must see as non-optional; clang would ask for a mark on every other. */
#pragma clang diagnostic ignored "-Wnullability-completeness"
#include "../../../Sources/CCairoPango/include/CCairoPango.h"
#include "CCairoPangoCheck.h"

#define CHECK_PROTOTYPE(result, name, parameters) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), result (*) parameters), \
                   "CCairoPango declares " #name " unlike Pango's or GLib's header");
CCAIROPANGO_PANGO_FUNCTIONS(CHECK_PROTOTYPE)

/* The stand-ins the Swift side sees when the real headers are absent. */
_Static_assert(__builtin_types_compatible_p(gboolean, int), "gboolean is int");
_Static_assert(__builtin_types_compatible_p(gunichar, uint32_t), "gunichar is uint32_t");
_Static_assert(sizeof(PangoAlignment) == sizeof(int) && sizeof(PangoWrapMode) == sizeof(int), "Pango's enums are ints");
_Static_assert(CCAIROPANGO_SCALE == PANGO_SCALE, "PANGO_SCALE");
_Static_assert(CCAIROPANGO_WRAP_WORD_CHAR == PANGO_WRAP_WORD_CHAR, "PANGO_WRAP_WORD_CHAR");
_Static_assert(CCAIROPANGO_ALIGN_CENTER == PANGO_ALIGN_CENTER, "PANGO_ALIGN_CENTER");
_Static_assert(sizeof(struct ccairopango_rectangle) == sizeof(PangoRectangle), "PangoRectangle's size");
_Static_assert(offsetof(struct ccairopango_rectangle, x) == offsetof(PangoRectangle, x), "PangoRectangle.x");
_Static_assert(offsetof(struct ccairopango_rectangle, y) == offsetof(PangoRectangle, y), "PangoRectangle.y");
_Static_assert(offsetof(struct ccairopango_rectangle, width) == offsetof(PangoRectangle, width), "PangoRectangle.width");
_Static_assert(offsetof(struct ccairopango_rectangle, height) == offsetof(PangoRectangle, height), "PangoRectangle.height");
_Static_assert(offsetof(struct ccairopango_layout_line_head, start_index) == offsetof(PangoLayoutLine, start_index),
               "PangoLayoutLine.start_index");
_Static_assert(offsetof(struct ccairopango_layout_line_head, length) == offsetof(PangoLayoutLine, length),
               "PangoLayoutLine.length");
_Static_assert(sizeof(((PangoLayoutLine *)0)->start_index) == sizeof(int) && sizeof(((PangoLayoutLine *)0)->length) == sizeof(int),
               "PangoLayoutLine's indices are ints");

#define COUNT_PROTOTYPE(result, name, parameters) +1
int ccairopango_checked_prototypes(void) { return 0 CCAIROPANGO_PANGO_FUNCTIONS(COUNT_PROTOTYPE); }
