#ifndef CPOPPLER_SHIM_H
#define CPOPPLER_SHIM_H
/* poppler-glib: reads the signed consent.pdf so that its pages can be drawn again, with the verification mark, onto
   a cairo PDF surface (ConsentPDF's VerificationMark). */
#include <poppler.h>
#include <stddef.h>

/* A document from bytes the caller keeps alive while it is open (poppler reads them lazily); NULL when they are not
   a PDF poppler can open. The GError is freed here: its text may quote the document, and the caller only needs to
   know that it failed. */
static inline PopplerDocument *cpoppler_document_new(const void *bytes, size_t length) {
    GBytes *data = g_bytes_new_static(bytes, length);
    GError *error = NULL;
    PopplerDocument *document = poppler_document_new_from_bytes(data, NULL, &error);
    g_bytes_unref(data);
    if (error) g_error_free(error);
    return document;
}
#endif
