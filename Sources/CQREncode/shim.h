#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H
/* libqrencode: the verification mark's QR code (ConsentPDF's VerificationMark). */
#include <qrencode.h>
#endif
