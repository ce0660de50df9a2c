#ifndef CSIGNALPIPE_H
#define CSIGNALPIPE_H

/// The self-pipe trick (signal-safety(7): a handler may call only async-signal-safe functions): makes a pipe and
/// installs, for each of `signals`, a handler that writes the signal's number as one byte to the pipe. The program
/// reads the returned end, blocking, on a thread of its own. The write end is non-blocking, so with the pipe full a
/// byte is lost (the reader has others waiting) instead of a thread hanging in the handler. Both ends are
/// close-on-exec. Call it once.
///
/// The handlers are in place when this returns, whichever thread the kernel later delivers a signal to.
/// Returns the read end, or -errno of the call that failed.
int consent_signal_pipe_install(const int *signals, int count);

#endif
