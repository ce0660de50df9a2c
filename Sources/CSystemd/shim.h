#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// sd_notify(3) only: consentd tells systemd READY=1, STOPPING=1 and WATCHDOG=1 through libsystemd, which knows every
// NOTIFY_SOCKET form (filesystem path, abstract "@" name, vsock). Socket activation (LISTEN_FDS) is parsed in Swift.
#include <systemd/sd-daemon.h>
// prctl(2) is variadic, which Swift cannot call: these two fixed-argument wrappers are the whole interface the agent
// needs to keep its memory (names, strokes) out of core dumps and away from same-uid ptrace (PR_SET_DUMPABLE).
#include <sys/prctl.h>
static inline int csystemd_set_dumpable(int dumpable) { return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL); }
static inline int csystemd_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL); }
// mallopt(3) with glibc's M_MMAP_THRESHOLD, which Swift's Glibc module does not import (LargeAllocations.swift).
#include <malloc.h>
static inline int csystemd_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#endif
