#include "server/key_auth.h"

#include "util/sha256.h"

namespace engram::server {
namespace {

api::Access AccessOf(const std::string& name) {
  if (name == "admin") return api::Access::kAdmin;
  if (name == "write") return api::Access::kWrite;
  return api::Access::kRead;
}

}  // namespace

api::Principal PrincipalOf(const ApiKeyInfo& key) {
  api::Principal p{.key_id = key.id};
  for (const std::string& ns : key.namespaces) {
    p.grants[ns] = AccessOf(key.access);
    if (ns == "*" && key.access == "admin") p.admin = true;
  }
  return p;
}

Result<bool> KeyAuthenticator::KeysExist() {
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = Clock::now();
  if (now < keys_checked_until_) return keys_exist_;
  Result<std::vector<ApiKeyInfo>> keys = Error(Status::Busy("no reader"));
  Status ran = pool_.Run(/*write=*/false, std::chrono::milliseconds(5000),
                         [&](Engine& engine) { keys = engine.ListApiKeys(/*include_revoked=*/false); });
  if (!ran.ok()) return Error(ran);
  if (!keys) return Error(keys.error());
  keys_exist_ = !keys->empty();
  keys_checked_until_ = now + ttl_;
  if (verified_.size() > 10000) verified_.clear();
  return keys_exist_;
}

Result<api::Principal> KeyAuthenticator::Authenticate(std::string_view authorization) {
  auto exist = KeysExist();
  if (!exist) return Error(exist.error());
  if (!*exist) return api::Principal::Owner();
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.substr(0, kBearer.size()) != kBearer) {
    return Error(Status::Unauthenticated("an API key is required: Authorization: Bearer <key>"));
  }
  const std::string_view secret = authorization.substr(kBearer.size());
  const std::string digest = Sha256Hex(secret);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = verified_.find(digest);
    if (it != verified_.end() && Clock::now() < it->second.until) return it->second.principal;
  }
  Result<ApiKeyInfo> key = Error(Status::Busy("no reader"));
  Status ran = pool_.Run(/*write=*/false, std::chrono::milliseconds(5000),
                         [&](Engine& engine) { key = engine.VerifyApiKey(secret); });
  if (!ran.ok()) return Error(ran);
  if (!key) return Error(key.error());
  api::Principal principal = PrincipalOf(*key);
  std::lock_guard<std::mutex> lock(mu_);
  verified_[digest] = {principal, Clock::now() + ttl_};
  return principal;
}

}  // namespace engram::server
