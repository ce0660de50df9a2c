#ifndef CXML2_SHIM_H
#define CXML2_SHIM_H
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/globals.h>
/* xmlFree is a global function pointer: Swift 6 rejects touching it, so call it through a function. */
static inline void cxml2_free(void *p) { xmlFree(p); }
#endif
