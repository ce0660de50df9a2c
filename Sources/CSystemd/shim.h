#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// sd_notify(3) only: consentd tells systemd READY=1, STOPPING=1 and WATCHDOG=1 through libsystemd, which knows every
// NOTIFY_SOCKET form (filesystem path, abstract "@" name, vsock). Socket activation (LISTEN_FDS) is parsed in Swift.
// libsystemd is opened on the first notification, not linked: it brings libgcrypt, liblzma, libzstd, liblz4 and
// libcap, which the dynamic loader would otherwise map and relocate at every start, also of an agent that no service
// manager asked for notifications (docs/PERFORMANCE.md, "Start-up and idle memory").
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

typedef int (*csystemd_sd_notify_function)(int unset_environment, const char *_Nonnull state);

/* sd_notify once resolved (a static of a function, not of the header: Swift emits a header's inline functions with
   their own statics, not the header's variables). */
static inline csystemd_sd_notify_function _Nullable *_Nonnull csystemd_shared(void) {
    static csystemd_sd_notify_function _Nullable sd_notify;
    return &sd_notify;
}

static inline void csystemd_load_once(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library != NULL) *csystemd_shared() = (csystemd_sd_notify_function)dlsym(library, "sd_notify");
}

// sd_notify(0, state), opening libsystemd on the first call (once per process): its result, or -ENOSYS when
// libsystemd.so.0 cannot be opened.
static inline int csystemd_notify(const char *_Nonnull state) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, csystemd_load_once);
    csystemd_sd_notify_function sd_notify = *csystemd_shared();
    return sd_notify != NULL ? sd_notify(0, state) : -ENOSYS;
}
// prctl(2) is variadic, which Swift cannot call: these two fixed-argument wrappers are the whole interface the agent
// needs to keep its memory (names, strokes) out of core dumps and away from same-uid ptrace (PR_SET_DUMPABLE).
#include <sys/prctl.h>
static inline int csystemd_set_dumpable(int dumpable) { return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL); }
static inline int csystemd_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL); }
// mallopt(3) with glibc's M_MMAP_THRESHOLD, which Swift's Glibc module does not import (LargeAllocations.swift).
#include <malloc.h>
static inline int csystemd_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#endif
