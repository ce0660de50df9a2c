#ifndef CEVDEV_SHIM_H
#define CEVDEV_SHIM_H
#include <errno.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>

/* The Swift side decodes raw records itself (SignaturePad.RawEventDecoder); make a layout change a build error. */
_Static_assert(sizeof(struct input_event) == 24, "struct input_event must be 24 bytes (64-bit Linux)");
_Static_assert(sizeof(struct input_absinfo) == 24, "struct input_absinfo must be 6 x int32");

/* Function-like ioctl macros do not import into Swift, so wrap them. All helpers return 0 or -errno
 * (the libevdev convention), never a bare -1. */

/* EVIOCGABS(code): one axis's absinfo. */
static inline int cevdev_get_absinfo(int fd, unsigned int code, struct input_absinfo *out) {
    return ioctl(fd, EVIOCGABS(code), out) < 0 ? -errno : 0;
}

/* EVIOCSCLOCKID: deliver event timestamps on CLOCK_MONOTONIC so they share the agent's clock. */
static inline int cevdev_set_clock_monotonic(int fd) {
    int clk = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clk) < 0 ? -errno : 0;
}

/* The microseconds of CLOCK_MONOTONIC, for gaps noticed outside the event stream (unplug). */
static inline long long cevdev_monotonic_usec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* The kernel timestamp of an event in microseconds (input_event_sec/usec are macros and do not import). */
static inline long long cevdev_event_usec(const struct input_event *ev) {
    return (long long)ev->time.tv_sec * 1000000LL + ev->time.tv_usec;
}
#endif
