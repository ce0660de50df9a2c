#ifndef CPOPPLER_SHIM_H
#define CPOPPLER_SHIM_H
/* poppler-glib: reads the signed consent.pdf so that its pages can be drawn again, with the verification mark, onto
   a cairo PDF surface (ConsentPDF's VerificationMark).

   The library is opened when the first copy is stamped, not linked: poppler brings NSS, OpenJPEG, LittleCMS,
   libtiff and more (some thirty libraries) that the dynamic loader would otherwise map and relocate at every start
   of the agent, for printed copies that most kiosks never make (docs/PERFORMANCE.md, "Start-up and idle memory").
   So poppler.h is not included either: the few functions used are declared here with poppler's own types, which
   stay opaque. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

struct _PopplerDocument;
struct _PopplerPage;
struct _cairo;

/* The functions VerificationMark calls, resolved from the opened library (glib's from its dependencies). */
typedef struct {
    int (*_Nonnull documentPageCount)(struct _PopplerDocument *_Nonnull document);
    struct _PopplerPage *_Nullable (*_Nonnull documentPage)(struct _PopplerDocument *_Nonnull document, int index);
    void (*_Nonnull pageSize)(struct _PopplerPage *_Nonnull page, double *_Nonnull width, double *_Nonnull height);
    void (*_Nonnull pageRender)(struct _PopplerPage *_Nonnull page, struct _cairo *_Nonnull cairo);
    void (*_Nonnull pageRenderForPrinting)(struct _PopplerPage *_Nonnull page, struct _cairo *_Nonnull cairo);
    /* poppler_document_new_from_bytes, g_bytes_new_static, g_bytes_unref, g_error_free: cpoppler_document_new's. */
    void *_Nullable (*_Nonnull documentFromBytes)(void *_Nonnull bytes, const char *_Nullable password, void *_Nullable *_Nullable error);
    void *_Nonnull (*_Nonnull bytesNewStatic)(const void *_Nullable data, size_t size);
    void (*_Nonnull bytesUnref)(void *_Nonnull bytes);
    void (*_Nonnull errorFree)(void *_Nonnull error);
} cpoppler_functions;

/* The functions once resolved (a static of a function, not of the header: Swift emits a header's inline functions
   with their own statics, not the header's variables). */
typedef struct {
    cpoppler_functions functions;
    int loaded;
} cpoppler_state;

static inline cpoppler_state *_Nonnull cpoppler_shared(void) {
    static cpoppler_state state;
    return &state;
}

static inline void cpoppler_load_once(void) {
    cpoppler_state *state = cpoppler_shared();
    void *library = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    void *count = dlsym(library, "poppler_document_get_n_pages"), *page = dlsym(library, "poppler_document_get_page");
    void *size = dlsym(library, "poppler_page_get_size"), *render = dlsym(library, "poppler_page_render");
    void *printing = dlsym(library, "poppler_page_render_for_printing");
    void *fromBytes = dlsym(library, "poppler_document_new_from_bytes");
    void *bytesNew = dlsym(library, "g_bytes_new_static"), *bytesUnref = dlsym(library, "g_bytes_unref");
    void *errorFree = dlsym(library, "g_error_free");
    if (!count || !page || !size || !render || !printing || !fromBytes || !bytesNew || !bytesUnref || !errorFree) return;
    state->functions.documentPageCount = (int (*)(struct _PopplerDocument *))count;
    state->functions.documentPage = (struct _PopplerPage * (*)(struct _PopplerDocument *, int))page;
    state->functions.pageSize = (void (*)(struct _PopplerPage *, double *, double *))size;
    state->functions.pageRender = (void (*)(struct _PopplerPage *, struct _cairo *))render;
    state->functions.pageRenderForPrinting = (void (*)(struct _PopplerPage *, struct _cairo *))printing;
    state->functions.documentFromBytes = (void *(*)(void *, const char *, void **))fromBytes;
    state->functions.bytesNewStatic = (void *(*)(const void *, size_t))bytesNew;
    state->functions.bytesUnref = (void (*)(void *))bytesUnref;
    state->functions.errorFree = (void (*)(void *))errorFree;
    state->loaded = 1;
}

/* poppler-glib's functions, opening it on the first call (once per process, whichever thread asks first); NULL when
   libpoppler-glib.so.8 cannot be opened or lacks one of them. The library stays open until the process ends. */
static inline const cpoppler_functions *_Nullable cpoppler_library(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, cpoppler_load_once);
    return cpoppler_shared()->loaded ? &cpoppler_shared()->functions : NULL;
}

/* A document from bytes the caller keeps alive while it is open (poppler reads them lazily); NULL when they are not
   a PDF poppler can open. The GError is freed here: its text may quote the document, and the caller only needs to
   know that it failed. */
static inline struct _PopplerDocument *_Nullable cpoppler_document_new(
    const cpoppler_functions *_Nonnull poppler, const void *_Nonnull bytes, size_t length) {
    void *data = poppler->bytesNewStatic(bytes, length);
    void *error = NULL;
    void *document = poppler->documentFromBytes(data, NULL, &error);
    poppler->bytesUnref(data);
    if (error) poppler->errorFree(error);
    return (struct _PopplerDocument *)document;
}
#endif
