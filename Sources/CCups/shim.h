#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H
/* libcups (Debian's libcups2-dev, which ships no pkg-config file: hence no pkgConfig in Package.swift). CopyPrinting
   talks IPP to the CUPS server through it; CUPS_SERVER in the environment chooses the server as for lp(1). */
#include <cups/cups.h>

/* A connection of its own to the CUPS server lp(1) would use (cupsServer(), ippPort(): CUPS_SERVER, client.conf or
   the local socket), whose every wait is bounded: at most connect_ms to connect, and io_seconds for each read or
   write to make progress, after which the call in progress fails (no timeout callback: httpSetTimeout's waits then
   end in an error). libcups' default connection waits 30 s to connect and without end for a server that accepted
   and never answers; every exchange of CopyPrinting goes through one of these instead, closed with httpClose. */
static inline http_t *ccups_connect(int connect_ms, double io_seconds) {
    http_t *http = httpConnect2(cupsServer(), ippPort(), NULL, AF_UNSPEC, cupsEncryption(), 1, connect_ms, NULL);
    if (http != NULL) httpSetTimeout(http, io_seconds, NULL, NULL);
    return http;
}

/* The printer attributes CopyPrinting reads (Get-Printer-Attributes' requested-attributes). */
static inline void ccups_request_printer_state(ipp_t *request) {
    static const char *const names[] = {"printer-state", "printer-state-reasons", "printer-is-accepting-jobs"};
    ippAddStrings(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", 3, NULL, names);
}

/* The job attribute CopyPrinting reads (Get-Job-Attributes' requested-attributes). */
static inline void ccups_request_job_state(ipp_t *request) {
    ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", NULL, "job-state");
}
#endif
