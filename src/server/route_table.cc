#include "server/route_table.h"

#include <set>
#include <string_view>

#include "api/registry.h"
#include "server/url.h"

namespace engram::server {
namespace {

// One segment of a path template: a "{name}" parameter (text is the name) or literal text.
struct Segment {
  std::string text;
  bool param = false;
};

struct CompiledRoute {
  const api::Capability* capability = nullptr;
  std::vector<Segment> segments;
  int literals = 0;  // segments that do not start with '{': the more, the more specific
};

// "/v1/a/" → "", "v1", "a", "" (as rest_routes.cc's Split).
std::vector<std::string_view> SplitPath(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

CompiledRoute Compile(const api::Capability& c) {
  CompiledRoute route{.capability = &c};
  for (std::string_view s : SplitPath(c.rest.path)) {
    const bool param = s.size() > 2 && s.front() == '{' && s.back() == '}';
    route.segments.push_back({std::string(param ? s.substr(1, s.size() - 2) : s), param});
    route.literals += s.empty() || s.front() != '{' ? 1 : 0;
  }
  return route;
}

const std::vector<CompiledRoute>& Table() {
  static const std::vector<CompiledRoute> table = [] {
    std::vector<CompiledRoute> out;
    for (const api::Capability& c : api::AllCapabilities()) out.push_back(Compile(c));
    return out;
  }();
  return table;
}

bool Matches(const CompiledRoute& route, const std::vector<std::string>& decoded) {
  if (route.segments.size() != decoded.size()) return false;
  for (size_t i = 0; i < decoded.size(); ++i) {
    if (!route.segments[i].param && route.segments[i].text != decoded[i]) return false;
  }
  return true;
}

}  // namespace

RouteMatch FindRoute(const std::string& method, const std::string& path) {
  std::vector<std::string> decoded;
  for (std::string_view s : SplitPath(path)) decoded.push_back(PercentDecode(s));
  const CompiledRoute* best = nullptr;
  std::set<std::string> allowed;
  for (const CompiledRoute& route : Table()) {
    if (!Matches(route, decoded)) continue;
    allowed.insert(route.capability->rest.method);
    if (route.capability->rest.method != method) continue;
    if (best != nullptr && route.literals <= best->literals) continue;
    best = &route;
  }
  RouteMatch match;
  if (best == nullptr) {
    match.allowed.assign(allowed.begin(), allowed.end());
    return match;
  }
  match.capability = best->capability;
  // An empty segment matches a parameter too: the capability then says the field is required
  // (400), as the CLI does, instead of a 404 that hides the reason.
  for (size_t i = 0; i < decoded.size(); ++i) {
    if (best->segments[i].param) match.params[best->segments[i].text] = decoded[i];
  }
  return match;
}

}  // namespace engram::server
