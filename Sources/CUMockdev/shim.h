#ifndef CUMOCKDEV_SHIM_H
#define CUMOCKDEV_SHIM_H
#include <umockdev.h>
#endif
