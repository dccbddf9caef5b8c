// capture/tap_signals.h — the signals both faces of `engram mcp-tap` handle: SIGINT, SIGTERM and
// SIGHUP go to `handler` (the stdio tap passes them to its server, the HTTP tap stops), and SIGPIPE
// is ignored (a peer that went away is a write error, not the tap's death). Not thread-safe: call
// it once, from the thread that starts the tap.
#ifndef ENGRAM_CAPTURE_TAP_SIGNALS_H_
#define ENGRAM_CAPTURE_TAP_SIGNALS_H_

namespace engram::capture {

// `handler` must be async-signal-safe. Installed with SA_RESTART.
void HandleTapSignals(void (*handler)(int));

}  // namespace engram::capture

#endif  // ENGRAM_CAPTURE_TAP_SIGNALS_H_
