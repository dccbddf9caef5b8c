// capture/tap_signals.cc — see tap_signals.h.
#include "capture/tap_signals.h"

#include <signal.h>

#include <initializer_list>

namespace engram::capture {

void HandleTapSignals(void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

}  // namespace engram::capture
