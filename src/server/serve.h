// server/serve.h — `engram serve`: the REST routes (/v1/), the operations routes and, later, /mcp
// on one listener, with the extraction worker and maintenance on a thread of the same process.
//
// Without any API key in the database the server listens on loopback only, says so in a log
// line and treats every caller as the local owner; a non-loopback listen address without keys is
// refused. SIGTERM or SIGINT stops accepting, finishes the requests in flight, stops the worker
// and returns OK (exit 0).
#ifndef ENGRAM_SERVER_SERVE_H_
#define ENGRAM_SERVER_SERVE_H_

#include <functional>
#include <string>

#include "engram/options.h"
#include "server/config.h"

namespace engram::server {

class EnginePool;
class HttpServer;

struct ServeOptions {
  ServerConfig config;
  Options engine;          // the writer's options (open_mode kReadWrite or kCreate)
  std::string port_file;   // when not empty, the bound port is written there (tests, port 0)
  // Mounts further handlers before the listener binds (the CLI mounts MCP at /mcp: the server
  // layer does not depend on mcp). Called once, on the serving thread.
  std::function<void(HttpServer&, EnginePool&)> mount;
};

// Serves until SIGTERM/SIGINT. Errors: kInvalidArgument (config; a rule distiller that cannot be
// set up, Engine::ValidateDistiller; non-loopback without keys), Engine::Open's, kIOError (cannot
// listen).
Status Serve(const ServeOptions& options);

}  // namespace engram::server

#endif  // ENGRAM_SERVER_SERVE_H_
