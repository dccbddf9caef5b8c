#include "server/config.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <charconv>
#include <exception>
#include <sstream>
#include <toml++/toml.h>
#include <variant>
#include <vector>

namespace engram::server {
namespace {

using Member = std::variant<std::string ServerConfig::*, int ServerConfig::*, int64_t ServerConfig::*,
                            bool ServerConfig::*, double ServerConfig::*>;

struct Field {
  const char* section;
  const char* key;
  Member member;
  const char* env;  // nullptr = no variable
  bool secret = false;
};

const std::vector<Field>& Fields() {
  static const std::vector<Field> fields = {
      {"server", "listen", &ServerConfig::listen, "ENGRAM_LISTEN"},
      {"server", "threads", &ServerConfig::threads, "ENGRAM_THREADS"},
      {"server", "readers", &ServerConfig::readers, "ENGRAM_READERS"},
      {"server", "log_requests", &ServerConfig::log_requests, nullptr},
      {"database", "path", &ServerConfig::db_path, "ENGRAM_DB"},
      {"limits", "max_body_bytes", &ServerConfig::max_body_bytes, "ENGRAM_MAX_BODY_BYTES"},
      {"limits", "max_uri_bytes", &ServerConfig::max_uri_bytes, nullptr},
      {"limits", "request_timeout_ms", &ServerConfig::request_timeout_ms, "ENGRAM_REQUEST_TIMEOUT_MS"},
      {"limits", "io_timeout_ms", &ServerConfig::io_timeout_ms, nullptr},
      {"rate_limit", "requests_per_second", &ServerConfig::rate_limit_rps, "ENGRAM_RATE_LIMIT_RPS"},
      {"rate_limit", "burst", &ServerConfig::rate_limit_burst, nullptr},
      {"worker", "enabled", &ServerConfig::worker, "ENGRAM_WORKER"},
      {"worker", "poll_ms", &ServerConfig::worker_poll_ms, nullptr},
      {"worker", "maintain_every_ms", &ServerConfig::maintain_every_ms, nullptr},
      {"rerank", "base_url", &ServerConfig::rerank_base_url, nullptr},
      {"rerank", "model", &ServerConfig::rerank_model, nullptr},
      {"rerank", "api_key", &ServerConfig::rerank_api_key, nullptr, true},
  };
  return fields;
}

std::string Name(const Field& f) { return fmt::format("{}.{}", f.section, f.key); }

Status Bad(const std::string& name, const std::string& what) {
  return Status::InvalidArgument(fmt::format("field \"{}\": {}", name, what));
}

// Sets the field from a TOML node.
Status SetFromToml(const Field& f, const toml::node& node, ServerConfig& c) {
  const std::string name = Name(f);
  return std::visit(
      [&](auto member) -> Status {
        using T = std::remove_reference_t<decltype(c.*member)>;
        if constexpr (std::is_same_v<T, std::string>) {
          auto v = node.value<std::string>();
          if (!v || !node.is_string()) return Bad(name, "expected a string");
          c.*member = *v;
        } else if constexpr (std::is_same_v<T, bool>) {
          if (!node.is_boolean()) return Bad(name, "expected true or false");
          c.*member = *node.value<bool>();
        } else if constexpr (std::is_same_v<T, double>) {
          if (!node.is_number()) return Bad(name, "expected a number");
          c.*member = *node.value<double>();
        } else {
          if (!node.is_integer()) return Bad(name, "expected an integer");
          c.*member = static_cast<T>(*node.value<int64_t>());
        }
        return Status::Ok();
      },
      f.member);
}

// Sets the field from an environment value.
Status SetFromText(const Field& f, const std::string& text, ServerConfig& c) {
  const std::string name = f.env;
  return std::visit(
      [&](auto member) -> Status {
        using T = std::remove_reference_t<decltype(c.*member)>;
        if constexpr (std::is_same_v<T, std::string>) {
          c.*member = text;
        } else if constexpr (std::is_same_v<T, bool>) {
          if (text != "0" && text != "1") return Bad(name, "expected 0 or 1");
          c.*member = text == "1";
        } else {
          T v{};
          auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
          if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
            return Bad(name, "expected a number");
          }
          c.*member = v;
        }
        return Status::Ok();
      },
      f.member);
}

Status ApplyToml(const toml::table& table, ServerConfig& c) {
  for (const auto& [section, node] : table) {
    const toml::table* t = node.as_table();
    bool known_section = false;
    for (const Field& f : Fields()) known_section = known_section || section.str() == f.section;
    if (!known_section || t == nullptr) return Bad(std::string(section.str()), "unknown section");
    for (const auto& [key, value] : *t) {
      const Field* found = nullptr;
      for (const Field& f : Fields()) {
        if (section.str() == f.section && key.str() == f.key) found = &f;
      }
      if (found == nullptr) return Bad(fmt::format("{}.{}", section.str(), key.str()), "unknown key");
      ENGRAM_RETURN_IF_ERROR(SetFromToml(*found, value, c));
    }
  }
  return Status::Ok();
}

bool FileExists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

std::string Quoted(const std::string& s) {
  std::ostringstream out;
  out << toml::value<std::string>(s);
  return out.str();
}

}  // namespace

std::string DefaultConfigPath(const Getenv& getenv) {
  const char* xdg = getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/engram/config.toml";
  const char* home = getenv("HOME");
  return std::string(home != nullptr ? home : ".") + "/.config/engram/config.toml";
}

Result<ServerConfig> LoadServerConfig(const std::string& path, const Getenv& getenv) {
  ServerConfig c;
  std::string file = path.empty() ? DefaultConfigPath(getenv) : path;
  if (!FileExists(file)) {
    if (!path.empty()) return Error(Status::NotFound(fmt::format("config file \"{}\" not found", path)));
    file.clear();
  }
  if (!file.empty()) {
    try {
      toml::table table = toml::parse_file(file);
      Status st = ApplyToml(table, c);
      if (!st.ok()) return Error(st.WithContext(fmt::format("config \"{}\"", file)));
    } catch (const toml::parse_error& e) {
      return Error(Status::InvalidArgument(fmt::format("config \"{}\": line {}, column {}: {}", file,
                                                       e.source().begin.line, e.source().begin.column,
                                                       e.description())));
    } catch (const std::exception& e) {
      return Error(Status::InvalidArgument(fmt::format("config \"{}\": {}", file, e.what())));
    }
    c.source = file;
  }
  for (const Field& f : Fields()) {
    const char* v = f.env != nullptr ? getenv(f.env) : nullptr;
    if (v != nullptr && *v != '\0') ENGRAM_RETURN_IF_ERROR(SetFromText(f, v, c));
  }
  return c;
}

Status ValidateServerConfig(const ServerConfig& c) {
  std::string host;
  int port = 0;
  ENGRAM_RETURN_IF_ERROR(ParseListen(c.listen, &host, &port));
  if (c.threads < 1 || c.threads > 1024) return Bad("server.threads", "outside 1–1024");
  if (c.readers < 0 || c.readers > 64) return Bad("server.readers", "outside 0–64");
  if (c.max_body_bytes < 1024) return Bad("limits.max_body_bytes", "below 1024");
  if (c.max_uri_bytes < 256 || c.max_uri_bytes > 8192) return Bad("limits.max_uri_bytes", "outside 256–8192");
  if (c.request_timeout_ms < 1) return Bad("limits.request_timeout_ms", "must be positive");
  if (c.io_timeout_ms < 1) return Bad("limits.io_timeout_ms", "must be positive");
  if (c.rate_limit_burst < 0) return Bad("rate_limit.burst", "must not be negative");
  if (c.worker_poll_ms < 10) return Bad("worker.poll_ms", "below 10");
  if (c.maintain_every_ms < 0) return Bad("worker.maintain_every_ms", "must not be negative");
  return Status::Ok();
}

std::string ShowServerConfig(const ServerConfig& c) {
  std::string out = fmt::format("# engram serve configuration (file: {})\n",
                                c.source.empty() ? std::string("none; defaults and environment") : c.source);
  std::string section;
  for (const Field& f : Fields()) {
    if (section != f.section) {
      section = f.section;
      out += fmt::format("\n[{}]\n", section);
    }
    std::string value = std::visit(
        [&](auto member) -> std::string {
          using T = std::remove_cvref_t<decltype(c.*member)>;
          if constexpr (std::is_same_v<T, std::string>) {
            return Quoted(f.secret && !(c.*member).empty() ? std::string("****") : c.*member);
          } else if constexpr (std::is_same_v<T, bool>) {
            return c.*member ? "true" : "false";
          } else {
            return fmt::format("{}", c.*member);
          }
        },
        f.member);
    out += fmt::format("{} = {}\n", f.key, value);
  }
  return out;
}

Status ParseListen(const std::string& listen, std::string* host, int* port) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Bad("listen", fmt::format("expected host:port, got \"{}\"", listen));
  }
  std::string h = listen.substr(0, colon);
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  const std::string p = listen.substr(colon + 1);
  int n = -1;
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), n);
  if (ec != std::errc() || end != p.data() + p.size() || n < 0 || n > 65535) {
    return Bad("listen", fmt::format("port \"{}\" is not 0–65535", p));
  }
  *host = h;
  *port = n;
  return Status::Ok();
}

}  // namespace engram::server
