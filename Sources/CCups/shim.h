#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H
/* libcups (Debian's libcups2-dev, which ships no pkg-config file: hence no pkgConfig in Package.swift). CopyPrinting
   talks IPP to the CUPS server through it; CUPS_SERVER in the environment chooses the server as for lp(1). */
#include <cups/cups.h>
#endif
