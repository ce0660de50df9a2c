#ifndef CCAIROPANGO_SHIM_H
#define CCAIROPANGO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
/* FcFini: ConsentPDF.FontLibrary.release() frees fontconfig's process-wide state at exit. */
#include <fontconfig/fontconfig.h>
#endif
