// server/config.h — the configuration of `engram serve`: one TOML file, then environment
// variables, then command-line flags (each overrides the one before). The file is `--config PATH`,
// or $XDG_CONFIG_HOME/engram/config.toml (~/.config/engram/config.toml) when it exists.
//
//   [server]     listen = "127.0.0.1:8420", threads = 64, readers = 2, log_requests = true
//   [database]   path = "/var/lib/engram/memory.db"
//   [limits]     max_body_bytes = 8388608, max_uri_bytes = 4096, request_timeout_ms = 10000,
//                io_timeout_ms = 10000
//   [rate_limit] requests_per_second = -1 (auto: off on loopback, 100 off loopback; 0 = off),
//                burst = 0 (0 = twice the rate)
//   [worker]     enabled = true, poll_ms = 1000, maintain_every_ms = 3600000 (0 = never)
//   [rerank]     base_url, model, api_key (Options::rerank)
//
// Environment: ENGRAM_LISTEN, ENGRAM_DB, ENGRAM_THREADS, ENGRAM_READERS, ENGRAM_MAX_BODY_BYTES,
// ENGRAM_REQUEST_TIMEOUT_MS, ENGRAM_RATE_LIMIT_RPS, ENGRAM_WORKER (0 or 1).
#ifndef ENGRAM_SERVER_CONFIG_H_
#define ENGRAM_SERVER_CONFIG_H_

#include <cstdint>
#include <functional>
#include <string>

#include "engram/status.h"

namespace engram::server {

struct ServerConfig {
  std::string source;  // the file read ("" = none)
  std::string listen = "127.0.0.1:8420";
  int threads = 64;
  int readers = 2;
  bool log_requests = true;
  std::string db_path;  // "" = the CLI's default
  int64_t max_body_bytes = 8 << 20;
  int64_t max_uri_bytes = 4096;
  int64_t request_timeout_ms = 10000;
  int64_t io_timeout_ms = 10000;
  double rate_limit_rps = -1;
  double rate_limit_burst = 0;
  bool worker = true;
  int64_t worker_poll_ms = 1000;
  int64_t maintain_every_ms = 3600000;
  std::string rerank_base_url;
  std::string rerank_model;
  std::string rerank_api_key;
};

// The variable's value, or nullptr (std::getenv in the binary; a map in tests).
using Getenv = std::function<const char*(const char*)>;

// The default file: $XDG_CONFIG_HOME/engram/config.toml, else $HOME/.config/engram/config.toml.
std::string DefaultConfigPath(const Getenv& getenv);

// Reads `path` (when `path` is "", the default file if it exists; a given path must exist), then
// applies the environment. Errors: kNotFound (a given file is missing), kInvalidArgument (TOML
// syntax with line and column, an unknown section or key, a value of the wrong type or out of
// range, naming the key as "server.threads").
Result<ServerConfig> LoadServerConfig(const std::string& path, const Getenv& getenv);

// Checks ranges (threads 1–1024, readers 0–64, limits positive). Errors: kInvalidArgument naming
// the key.
Status ValidateServerConfig(const ServerConfig& config);

// The effective configuration as TOML, secrets (rerank.api_key) masked as "****".
std::string ShowServerConfig(const ServerConfig& config);

// "host:port" → host and port (1–65535, or 0 for an ephemeral port); "[::1]:8420" for IPv6.
// Errors: kInvalidArgument naming field "listen".
Status ParseListen(const std::string& listen, std::string* host, int* port);

}  // namespace engram::server

#endif  // ENGRAM_SERVER_CONFIG_H_
