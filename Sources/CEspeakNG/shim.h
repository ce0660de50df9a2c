#ifndef CESPEAKNG_SHIM_H
#define CESPEAKNG_SHIM_H
/* eSpeak NG (Debian's libespeak-ng-dev; its voices are espeak-ng-data). Speech synthesises the read-aloud audio
   through the classic speak_lib API in synchronous mode: the samples come back through a callback on the calling
   thread, nothing is played. The library keeps global state and is not thread-safe: Speech calls it from one
   thread only (SpeechSynthesizer). */
#include <espeak-ng/speak_lib.h>
#endif
