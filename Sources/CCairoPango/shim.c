/* CCairoPango: cairo, Pango and the libraries under them, opened on first use (include/CCairoPango.h says why),
   and the PNG encoder of signature images. */
#include "CCairoPango.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table once filled, and what dlopen or dlsym said when it could not be: one for the process, here and not in
   the header, whose inline functions Swift emits once per file that calls them, each with statics of its own. */
typedef struct {
    ccairopango_functions functions;
    int loaded;
    char failure[256];
} ccairopango_state;

static ccairopango_state state;

/* libpangocairo brings the rest as its dependencies (Pango, PangoFT2, cairo, fontconfig, libpng, GLib), so every
   name is looked up through its handle. RTLD_LOCAL: nothing else in the process resolves against them. */
static void load_once(void) {
    void *library = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(state.failure, sizeof state.failure, "%s", reason ? reason : "libpangocairo-1.0.so.0 not found");
        return;
    }
    void *symbol;
#define CCAIROPANGO_RESOLVE(name) \
    if ((symbol = dlsym(library, #name)) == NULL) { \
        snprintf(state.failure, sizeof state.failure, "libpangocairo-1.0.so.0 and its libraries lack %s", #name); \
        return; \
    } \
    state.functions.name = (__typeof__(name) *)symbol;
    CCAIROPANGO_FUNCTIONS(CCAIROPANGO_RESOLVE)
#undef CCAIROPANGO_RESOLVE
#define CCAIROPANGO_RESOLVE_PANGO(result, name, parameters) \
    if ((symbol = dlsym(library, #name)) == NULL) { \
        snprintf(state.failure, sizeof state.failure, "libpangocairo-1.0.so.0 and its libraries lack %s", #name); \
        return; \
    } \
    state.functions.name = (result (*) parameters)symbol;
    CCAIROPANGO_PANGO_FUNCTIONS(CCAIROPANGO_RESOLVE_PANGO)
#undef CCAIROPANGO_RESOLVE_PANGO
    state.loaded = 1;
}

const ccairopango_functions *ccairopango_library(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load_once);
    return state.loaded ? &state.functions : NULL;
}

const char *ccairopango_failure(void) { return state.failure; }

/* A growing in-memory PNG, filled by libpng's write callback. */
struct ccairopango_png_bytes {
    unsigned char *bytes;
    size_t length, capacity;
    int failed;
};

static void png_append(png_structp png, png_bytep data, png_size_t length) {
    struct ccairopango_png_bytes *out = (struct ccairopango_png_bytes *)state.functions.png_get_io_ptr(png);
    if (out->failed) return;
    if (length > out->capacity - out->length) {
        size_t capacity = out->capacity ? out->capacity : 64 * 1024;
        while (capacity - out->length < length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(out->bytes, capacity);
        if (!grown) { out->failed = 1; return; }
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->length, data, length);
    out->length += length;
}

static void png_flush(png_structp png) { (void)png; }

/* Frees what an encoding that failed had made (any of it may be NULL). */
static void png_abandon(const ccairopango_functions *f, png_structp png, png_infop info, struct ccairopango_png_bytes *out, unsigned char *row) {
    if (png) f->png_destroy_write_struct(&png, info ? &info : NULL);
    if (out) free(out->bytes);
    free(out);
    free(row);
}

/* Encodes a flushed CAIRO_FORMAT_ARGB32 image surface as cairo_surface_write_to_png_stream does (8-bit RGB when
   every pixel is opaque, else RGBA; the premultiplied colours divided out the same way; a white bKGD chunk), so
   the pixels are the same, with one difference: no row filter and zlib level 5, where cairo leaves libpng's
   defaults, which try all five filters on every row and compress at level 6. That took about 120 million
   instructions for a 900 × 300 signature, one per consent, nearly half of the agent's work for it; a signature is
   long runs of white, which deflate finds without a filter: level 5 unfiltered is smaller than cairo's PNG (32.1
   against 33.0 KB for the benchmark's signature) at a fraction of the cost. On success returns 0 and a malloc'd
   buffer the caller frees; -1 when libpng or memory fails. libpng reports errors by longjmp: it only ever jumps
   back here, through its own frames. */
int ccairopango_surface_png(const ccairopango_functions *f, cairo_surface_t *surface, unsigned char **png_bytes, size_t *png_length) {
    if (f->cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32) return -1;
    const int width = f->cairo_image_surface_get_width(surface), height = f->cairo_image_surface_get_height(surface);
    const int stride = f->cairo_image_surface_get_stride(surface);
    const unsigned char *pixels = f->cairo_image_surface_get_data(surface);
    if (!pixels || width <= 0 || height <= 0) return -1;
    int opaque = 1;
    for (int y = 0; y < height && opaque; y++) {
        const uint32_t *line = (const uint32_t *)(pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++) {
            if ((line[x] >> 24) != 0xff) { opaque = 0; break; }
        }
    }
    const int channels = opaque ? 3 : 4;
    /* Everything the error path frees exists before setjmp and is not reassigned after it. */
    unsigned char *row = (unsigned char *)malloc((size_t)width * channels);
    struct ccairopango_png_bytes *out = (struct ccairopango_png_bytes *)calloc(1, sizeof *out);
    png_structp png = f->png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? f->png_create_info_struct(png) : NULL;
    if (!row || !out || !png || !info) {
        png_abandon(f, png, info, out, row);
        return -1;
    }
    if (setjmp(*f->png_set_longjmp_fn(png, longjmp, sizeof(jmp_buf)))) {
        png_abandon(f, png, info, out, row);
        return -1;
    }
    f->png_set_write_fn(png, out, png_append, png_flush);
    f->png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_color_16 white;
    memset(&white, 0, sizeof white);
    white.gray = white.red = white.green = white.blue = 0xff;
    f->png_set_bKGD(png, info, &white);
    f->png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    f->png_set_compression_level(png, 5);
    f->png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        const uint32_t *line = (const uint32_t *)(pixels + (size_t)y * stride);
        unsigned char *b = row;
        for (int x = 0; x < width; x++) {
            const uint32_t pixel = line[x];
            const uint32_t alpha = pixel >> 24;
            uint32_t red = (pixel >> 16) & 0xff, green = (pixel >> 8) & 0xff, blue = pixel & 0xff;
            if (alpha != 0xff) {
                /* cairo's unpremultiply_data: rounded division, transparent pixels all zero. */
                if (alpha == 0) {
                    red = green = blue = 0;
                } else {
                    red = (red * 255 + alpha / 2) / alpha;
                    green = (green * 255 + alpha / 2) / alpha;
                    blue = (blue * 255 + alpha / 2) / alpha;
                }
            }
            *b++ = (unsigned char)red;
            *b++ = (unsigned char)green;
            *b++ = (unsigned char)blue;
            if (!opaque) *b++ = (unsigned char)alpha;
        }
        f->png_write_row(png, row);
    }
    f->png_write_end(png, info);
    f->png_destroy_write_struct(&png, &info);
    free(row);
    if (out->failed) {
        free(out->bytes);
        free(out);
        return -1;
    }
    *png_bytes = out->bytes;
    *png_length = out->length;
    free(out);
    return 0;
}
