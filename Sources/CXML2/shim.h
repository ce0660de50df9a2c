#ifndef CXML2_SHIM_H
#define CXML2_SHIM_H
/* Debian's libxml2 is built with ICU, so <libxml/encoding.h> would include <unicode/ucnv.h>. Its UErrorCode
 * clashes with Foundation's copy of ICU in any Swift module that also imports Foundation ("'UErrorCode' has
 * different definitions in different modules"). Hiding ICU only changes the layout of xmlCharEncodingHandler
 * (its `uconv_t` members), a struct we never touch except through pointers libxml2 owns. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/globals.h>
/* xmlFree is a global function pointer: Swift 6 rejects touching it, so call it through a function. */
static inline void cxml2_free(void *p) { xmlFree(p); }
#endif
