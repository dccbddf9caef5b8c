#include "util/process_identity.h"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <mutex>
#include <sstream>
#include <vector>

namespace engram {
namespace {

struct ProcStat {
  int64_t pid = 0;
  char state = '?';
  int64_t start_ticks = 0;
};

std::string ReadSmallFile(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return text;
}

std::optional<int64_t> ToInt(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// /proc/<pid>/stat: "pid (comm) state ppid ... starttime ..."; comm may hold spaces and parens, so
// the fields after it are counted from the last ')'. starttime is field 22 (proc(5)).
std::optional<ProcStat> ReadProcStat(const std::string& which) {
  const std::string text = ReadSmallFile("/proc/" + which + "/stat");
  const size_t open = text.find(" (");
  const size_t close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  std::istringstream rest(text.substr(close + 1));
  std::vector<std::string> fields;  // fields[0] is field 3 (state)
  for (std::string f; rest >> f && fields.size() < 20;) fields.push_back(f);
  auto pid = ToInt(std::string_view(text).substr(0, open));
  if (fields.size() < 20 || !pid || fields[0].size() != 1) return std::nullopt;
  auto start = ToInt(fields[19]);
  if (!start) return std::nullopt;
  return ProcStat{*pid, fields[0][0], *start};
}

std::string ReadLink(const char* path) {
  char buf[256];
  ssize_t n = readlink(path, buf, sizeof(buf));
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

std::string HostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "unknown";
  std::string host = buf;
  for (char& c : host) {
    if (std::isspace(static_cast<unsigned char>(c))) c = '_';
  }
  return host.empty() ? "unknown" : host;
}

ProcessIdentity ComputeSelf() {
  ProcessIdentity self;
  self.host = HostName();
  self.pid = getpid();
  auto stat = ReadProcStat("self");
  // /proc must be this pid namespace's: its idea of our pid is ours.
  if (!stat || stat->pid != self.pid) return self;
  self.start_ticks = stat->start_ticks;
  self.boot = ReadSmallFile("/proc/sys/kernel/random/boot_id");
  self.pid_ns = ReadLink("/proc/self/ns/pid");
  if (self.boot.empty() || self.pid_ns.empty()) {
    self.boot.clear();  // half an identity cannot be compared
    self.pid_ns.clear();
  }
  return self;
}

}  // namespace

ProcessIdentity SelfIdentity() {
  static std::mutex mu;
  static ProcessIdentity cached;
  std::lock_guard<std::mutex> lock(mu);
  if (cached.pid != getpid()) cached = ComputeSelf();
  return cached;
}

std::string FormatProcessIdentity(const ProcessIdentity& id) {
  return fmt::format("host={} pid={} start={} boot={} pidns={}", id.host, id.pid, id.start_ticks, id.boot,
                     id.pid_ns);
}

std::optional<ProcessIdentity> ParseProcessIdentity(std::string_view text) {
  ProcessIdentity id;
  int seen = 0;
  std::istringstream in{std::string(text)};
  for (std::string field; in >> field;) {
    const size_t eq = field.find('=');
    if (eq == std::string::npos) return std::nullopt;
    const std::string key = field.substr(0, eq);
    const std::string value = field.substr(eq + 1);
    if (key == "host") {
      id.host = value;
    } else if (key == "boot") {
      id.boot = value;
    } else if (key == "pidns") {
      id.pid_ns = value;
    } else if (key == "pid" || key == "start") {
      auto v = ToInt(value);
      if (!v) return std::nullopt;
      (key == "pid" ? id.pid : id.start_ticks) = *v;
    } else {
      return std::nullopt;
    }
    ++seen;
  }
  if (seen != 5 || id.pid <= 0) return std::nullopt;
  return id;
}

std::string DescribeProcess(const ProcessIdentity& id) { return fmt::format("{} pid {}", id.host, id.pid); }

Liveness CheckLiveness(const ProcessIdentity& owner) {
  const ProcessIdentity self = SelfIdentity();
  if (self.boot.empty() || owner.boot != self.boot || owner.pid_ns != self.pid_ns || owner.pid <= 0) {
    return Liveness::kUnknown;
  }
  if (owner.pid == self.pid) return owner.start_ticks == self.start_ticks ? Liveness::kAlive : Liveness::kDead;
  if (kill(static_cast<pid_t>(owner.pid), 0) != 0 && errno == ESRCH) return Liveness::kDead;
  auto stat = ReadProcStat(std::to_string(owner.pid));
  if (!stat) return Liveness::kAlive;  // it exists (kill said so) but /proc hides it
  if (stat->start_ticks != owner.start_ticks) return Liveness::kDead;  // the pid was reused
  if (stat->state == 'Z' || stat->state == 'X') return Liveness::kDead;
  return Liveness::kAlive;
}

std::string_view LivenessName(Liveness liveness) {
  switch (liveness) {
    case Liveness::kAlive:
      return "alive";
    case Liveness::kDead:
      return "dead";
    case Liveness::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace engram
