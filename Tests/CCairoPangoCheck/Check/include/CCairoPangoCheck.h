#ifndef CCAIROPANGO_CHECK_H
#define CCAIROPANGO_CHECK_H
/* How many of CCairoPango's Pango and GLib prototypes check.c held to the real headers (all of them, or it would
   not have compiled); ConsentPDFTests calls it so that the check is built with the tests. */
int ccairopango_checked_prototypes(void);
#endif
