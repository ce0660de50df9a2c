#ifndef CEVDEV_SHIM_H
#define CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#endif
