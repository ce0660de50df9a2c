#define _GNU_SOURCE  // pipe2
#include "CSignalPipe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// Only loaded in the handler; set before any handler is installed.
static volatile sig_atomic_t write_end = -1;

static void write_signal_number(int number) {
    int saved = errno;  // the interrupted code may be about to read errno
    unsigned char byte = (unsigned char)number;
    ssize_t written;
    do {
        written = write(write_end, &byte, 1);
    } while (written < 0 && errno == EINTR);
    errno = saved;
}

int consent_signal_pipe_install(const int *signals, int count) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -errno;
    int flags = fcntl(ends[1], F_GETFL);
    if (flags < 0 || fcntl(ends[1], F_SETFL, flags | O_NONBLOCK) != 0) {
        int failure = errno;
        close(ends[0]);
        close(ends[1]);
        return -failure;
    }
    write_end = ends[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = write_signal_number;
    sigemptyset(&action.sa_mask);
    // System calls a signal interrupts resume, as with the default disposition.
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -errno;
    }
    return ends[0];
}
