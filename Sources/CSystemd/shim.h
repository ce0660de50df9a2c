#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// sd_notify(3) only: consentd tells systemd READY=1, STOPPING=1 and WATCHDOG=1 through libsystemd, which knows every
// NOTIFY_SOCKET form (filesystem path, abstract "@" name, vsock). Socket activation (LISTEN_FDS) is parsed in Swift.
#include <systemd/sd-daemon.h>
#endif
