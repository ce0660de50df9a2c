#ifndef CESPEAKNG_SHIM_H
#define CESPEAKNG_SHIM_H
/* eSpeak NG (Debian's libespeak-ng-dev; its voices are espeak-ng-data). Speech synthesises the read-aloud audio
   through the classic speak_lib API in synchronous mode: the samples come back through a callback on the calling
   thread, nothing is played. The library keeps global state and is not thread-safe: Speech calls it from one
   thread only (SpeechSynthesizer).

   The library is opened on the first synthesis, not linked: libespeak-ng brings PulseAudio, ALSA and libsndfile's
   codecs (some twenty libraries) that the dynamic loader would otherwise map and relocate at every start of the
   agent, for read-aloud that many flows never ask for (docs/PERFORMANCE.md, "Start-up and idle memory"). */
#include <espeak-ng/speak_lib.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/* The functions Speech calls, resolved from the opened library. */
typedef struct {
    __typeof__(espeak_Initialize) *_Nonnull initialize;
    __typeof__(espeak_SetSynthCallback) *_Nonnull setSynthCallback;
    __typeof__(espeak_SetVoiceByName) *_Nonnull setVoiceByName;
    __typeof__(espeak_SetParameter) *_Nonnull setParameter;
    __typeof__(espeak_Synth) *_Nonnull synth;
} cespeakng_functions;

/* The functions once resolved (a static of a function, not of the header: Swift emits a header's inline functions
   with their own statics, not the header's variables). */
typedef struct {
    cespeakng_functions functions;
    int loaded;
} cespeakng_state;

static inline cespeakng_state *_Nonnull cespeakng_shared(void) {
    static cespeakng_state state;
    return &state;
}

static inline void cespeakng_load_once(void) {
    cespeakng_state *state = cespeakng_shared();
    void *library = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    void *initialize = dlsym(library, "espeak_Initialize"), *callback = dlsym(library, "espeak_SetSynthCallback");
    void *voice = dlsym(library, "espeak_SetVoiceByName"), *parameter = dlsym(library, "espeak_SetParameter");
    void *synth = dlsym(library, "espeak_Synth");
    if (!initialize || !callback || !voice || !parameter || !synth) return;
    state->functions.initialize = (__typeof__(espeak_Initialize) *)initialize;
    state->functions.setSynthCallback = (__typeof__(espeak_SetSynthCallback) *)callback;
    state->functions.setVoiceByName = (__typeof__(espeak_SetVoiceByName) *)voice;
    state->functions.setParameter = (__typeof__(espeak_SetParameter) *)parameter;
    state->functions.synth = (__typeof__(espeak_Synth) *)synth;
    state->loaded = 1;
}

/* The library's functions, opening it on the first call (once per process, whichever thread asks first); NULL when
   libespeak-ng.so.1 cannot be opened or lacks one of them. The library stays open until the process ends. */
static inline const cespeakng_functions *_Nullable cespeakng_library(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, cespeakng_load_once);
    return cespeakng_shared()->loaded ? &cespeakng_shared()->functions : NULL;
}
#endif
