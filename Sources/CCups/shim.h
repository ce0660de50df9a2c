#ifndef CCUPS_SHIM_H
#define CCUPS_SHIM_H
/* libcups (Debian's libcups2-dev, which ships no pkg-config file). CopyPrinting talks IPP to the CUPS server through
   it; CUPS_SERVER in the environment chooses the server as for lp(1).

   The library is opened on the first exchange with CUPS, not linked: libcups brings GnuTLS, Kerberos, Avahi and
   D-Bus (some twenty libraries) that the dynamic loader would otherwise map and relocate at every start of the
   agent, for a printer that most kiosks do not have (docs/PERFORMANCE.md, "Start-up and idle memory"). The header
   gives the types and constants; the functions are called through `ccups_functions`, named as libcups names them. */
#include <cups/cups.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/* Every libcups function CopyPrinting and this shim call. */
#define CCUPS_FUNCTIONS(F) \
    F(httpConnect2) F(httpSetTimeout) F(httpClose) F(httpAssembleURI) F(cupsServer) F(cupsEncryption) F(cupsUser) \
    F(cupsDoRequest) F(cupsStartDocument) F(cupsWriteRequestData) F(cupsFinishDocument) F(cupsCancelJob2) \
    F(cupsLastError) F(ippPort) F(ippNewRequest) F(ippAddString) F(ippAddStrings) F(ippAddInteger) F(ippDelete) \
    F(ippErrorString) F(ippFindAttribute) F(ippGetStatusCode) F(ippGetInteger) F(ippGetBoolean) F(ippGetCount) \
    F(ippGetString)

typedef struct {
#define CCUPS_FIELD(name) __typeof__(name) *_Nonnull name;
    CCUPS_FUNCTIONS(CCUPS_FIELD)
#undef CCUPS_FIELD
} ccups_functions;

/* The functions once resolved (a static of a function, not of the header: Swift emits a header's inline functions
   with their own statics, not the header's variables). */
typedef struct {
    ccups_functions functions;
    int loaded;
} ccups_state;

static inline ccups_state *_Nonnull ccups_shared(void) {
    static ccups_state state;
    return &state;
}

static inline void ccups_load_once(void) {
    ccups_state *state = ccups_shared();
    void *library = dlopen("libcups.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define CCUPS_RESOLVE(name) \
    if ((state->functions.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) return;
    CCUPS_FUNCTIONS(CCUPS_RESOLVE)
#undef CCUPS_RESOLVE
    state->loaded = 1;
}

/* libcups' functions, opening it on the first call (once per process, whichever thread asks first); NULL when
   libcups.so.2 cannot be opened or lacks one of them. The library stays open until the process ends. */
static inline const ccups_functions *_Nullable ccups_library(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ccups_load_once);
    return ccups_shared()->loaded ? &ccups_shared()->functions : NULL;
}

/* A connection of its own to the CUPS server lp(1) would use (cupsServer(), ippPort(): CUPS_SERVER, client.conf or
   the local socket), whose every wait is bounded: at most connect_ms to connect, and io_seconds for each read or
   write to make progress, after which the call in progress fails (no timeout callback: httpSetTimeout's waits then
   end in an error). libcups' default connection waits 30 s to connect and without end for a server that accepted
   and never answers; every exchange of CopyPrinting goes through one of these instead, closed with httpClose. */
static inline http_t *_Nullable ccups_connect(const ccups_functions *_Nonnull cups, int connect_ms, double io_seconds) {
    http_t *http = cups->httpConnect2(
        cups->cupsServer(), cups->ippPort(), NULL, AF_UNSPEC, cups->cupsEncryption(), 1, connect_ms, NULL);
    if (http != NULL) cups->httpSetTimeout(http, io_seconds, NULL, NULL);
    return http;
}

/* The printer attributes CopyPrinting reads (Get-Printer-Attributes' requested-attributes). */
static inline void ccups_request_printer_state(const ccups_functions *_Nonnull cups, ipp_t *_Nonnull request) {
    static const char *const names[] = {"printer-state", "printer-state-reasons", "printer-is-accepting-jobs"};
    cups->ippAddStrings(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", 3, NULL, names);
}

/* The job attribute CopyPrinting reads (Get-Job-Attributes' requested-attributes). */
static inline void ccups_request_job_state(const ccups_functions *_Nonnull cups, ipp_t *_Nonnull request) {
    cups->ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, "requested-attributes", NULL, "job-state");
}
#endif
