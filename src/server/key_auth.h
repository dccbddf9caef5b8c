// server/key_auth.h — authentication by API key (`Authorization: Bearer <secret>`), with the
// keys read from the database (Engine::VerifyApiKey) and cached for `ttl` so that a request costs
// one SHA-256 and a map lookup; a key revoked by `engram keys revoke` stops working within `ttl`.
// While the database holds no active key, every caller is the local owner (the server then listens
// on loopback only; see server/serve.h).
//
// Thread-safe.
#ifndef ENGRAM_SERVER_KEY_AUTH_H_
#define ENGRAM_SERVER_KEY_AUTH_H_

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "api/principal.h"
#include "server/engine_pool.h"

namespace engram::server {

// What a key grants: read/write/admin on each of its namespaces; an admin key on "*" also calls
// whole-file (admin) capabilities.
api::Principal PrincipalOf(const ApiKeyInfo& key);

class KeyAuthenticator {
 public:
  KeyAuthenticator(EnginePool& pool, std::chrono::milliseconds ttl) : pool_(pool), ttl_(ttl) {}

  // Whether the database holds an active key (read at most once per ttl). Errors: the Engine's.
  Result<bool> KeysExist();

  // The caller of a request with this Authorization header value. Errors: kUnauthenticated (no
  // header, not "Bearer", an unknown or revoked key) — only when keys exist; kDeadlineExceeded.
  Result<api::Principal> Authenticate(std::string_view authorization);

 private:
  using Clock = std::chrono::steady_clock;
  struct Cached {
    api::Principal principal;
    Clock::time_point until;
  };
  EnginePool& pool_;
  std::chrono::milliseconds ttl_;
  std::mutex mu_;
  std::map<std::string, Cached> verified_;  // SHA-256 of the secret → principal
  bool keys_exist_ = false;
  Clock::time_point keys_checked_until_{};
};

}  // namespace engram::server

#endif  // ENGRAM_SERVER_KEY_AUTH_H_
