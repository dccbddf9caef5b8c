#include "server/rest_routes.h"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <cctype>
#include <charconv>
#include <set>

#include "api/principal.h"
#include "api/registry.h"
#include "server/problem.h"
#include "server/route_table.h"
#include "server/url.h"

namespace engram::server {
namespace {

std::vector<std::string> Split(const std::string& path) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

const api::ParamSpec* FindSpec(const api::Capability& c, const std::string& name) {
  for (const api::ParamSpec& p : c.params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Status BadField(const std::string& field, const std::string& what) {
  return Status::InvalidArgument(fmt::format("field \"{}\": {}", field, what));
}

// `text` read whole as a T (no space or "+" around it), else 400 naming the field.
template <typename T>
Result<nlohmann::json> Whole(const std::string& field, const std::string& text, const char* expected) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return Error(BadField(field, expected));
  return nlohmann::json(value);
}

// A query value as its ParamSpec's JSON type.
Result<nlohmann::json> QueryValue(const api::ParamSpec& spec, const std::vector<std::string>& values) {
  if (spec.type == api::ParamType::kStringArray) {
    nlohmann::json out = nlohmann::json::array();
    for (const std::string& v : values) out.push_back(v);
    return out;
  }
  if (values.size() > 1) return Error(BadField(spec.name, "given more than once"));
  const std::string& v = values.front();
  switch (spec.type) {
    case api::ParamType::kInteger: return Whole<int64_t>(spec.name, v, "expected an integer");
    case api::ParamType::kNumber: return Whole<double>(spec.name, v, "expected a number");
    case api::ParamType::kBoolean:
      if (v == "true" || v == "1") return nlohmann::json(true);
      if (v == "false" || v == "0") return nlohmann::json(false);
      return Error(BadField(spec.name, "expected true or false"));
    case api::ParamType::kObject:
    case api::ParamType::kArray: return Error(BadField(spec.name, "cannot be given as a query parameter"));
    default: return nlohmann::json(v);
  }
}

Status AddQuery(const api::Capability& c, const HttpRequest& request, nlohmann::json& args) {
  std::set<std::string> names;
  for (const auto& [name, value] : request.query) names.insert(name);
  for (const std::string& name : names) {
    const api::ParamSpec* spec = FindSpec(c, name);
    if (spec == nullptr || spec->in != api::ParamIn::kQuery) return BadField(name, "unknown query parameter");
    std::vector<std::string> values;
    auto [lo, hi] = request.query.equal_range(name);
    for (auto it = lo; it != hi; ++it) values.push_back(it->second);
    auto value = QueryValue(*spec, values);
    if (!value) return value.error();
    args[name] = std::move(*value);
  }
  return Status::Ok();
}

Status AddBody(const api::Capability& c, const HttpRequest& request, nlohmann::json& args) {
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return Status::Ok();
  if (request.method == "GET" || request.method == "DELETE") {
    return BadField("body", fmt::format("a {} request takes no body", request.method));
  }
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return BadField("body", "not valid JSON");
  if (!body.is_object()) return BadField("body", "expected a JSON object");
  for (auto& [name, value] : body.items()) {
    const api::ParamSpec* spec = FindSpec(c, name);
    if (spec != nullptr && spec->in == api::ParamIn::kPath) return BadField(name, "given in the path, not the body");
    if (spec != nullptr && spec->in == api::ParamIn::kHeader) {
      return BadField(name, fmt::format("given in the {} header, not the body", spec->header));
    }
    if (spec != nullptr && spec->in == api::ParamIn::kQuery) return BadField(name, "a query parameter");
    args[name] = std::move(value);
  }
  return Status::Ok();
}

std::string Lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

bool MatchPathTemplate(const std::string& path_template, const std::string& path,
                       std::map<std::string, std::string>* params) {
  const std::vector<std::string> want = Split(path_template);
  const std::vector<std::string> got = Split(path);
  if (want.size() != got.size()) return false;
  std::map<std::string, std::string> found;
  for (size_t i = 0; i < want.size(); ++i) {
    const std::string& w = want[i];
    if (w.size() > 2 && w.front() == '{' && w.back() == '}') {
      // An empty segment matches too: the capability then says the field is required (400),
      // as the CLI does, instead of a 404 that hides the reason.
      found[w.substr(1, w.size() - 2)] = PercentDecode(got[i]);
    } else if (w != PercentDecode(got[i])) {
      return false;
    }
  }
  *params = std::move(found);
  return true;
}

Result<nlohmann::json> GatherArgs(const api::Capability& capability, const HttpRequest& request) {
  nlohmann::json args = nlohmann::json::object();
  ENGRAM_RETURN_IF_ERROR(AddBody(capability, request, args));
  ENGRAM_RETURN_IF_ERROR(AddQuery(capability, request, args));
  for (const api::ParamSpec& spec : capability.params) {
    if (spec.in != api::ParamIn::kHeader) continue;
    std::string value = request.Header(Lower(spec.header));
    if (!value.empty()) args[spec.name] = value;
  }
  for (const auto& [name, value] : request.path_params) args[name] = value;
  return args;
}

HttpResponse RestRoutes::Handle(const HttpRequest& request) const {
  RouteMatch m = FindRoute(request.method, request.path);
  if (m.capability == nullptr && m.allowed.empty()) {
    return ProblemResponse(Status::NotFound(fmt::format("no route {} {}", request.method, request.path)),
                           request.request_id);
  }
  if (m.capability == nullptr) {
    std::string allow = fmt::format("{}", fmt::join(m.allowed, ", "));
    HttpResponse r = ProblemResponse(
        Status::InvalidArgument(fmt::format("method {} is not allowed here (allowed: {})", request.method, allow)),
        request.request_id, 405);
    r.headers.emplace_back("Allow", allow);
    return r;
  }
  const api::Capability& c = *m.capability;
  HttpRequest matched = request;
  matched.path_params = std::move(m.params);
  auto args = GatherArgs(c, matched);
  if (!args) return ProblemResponse(args.error(), request.request_id);
  const std::string ns = c.namespaced ? args->value("namespace", std::string()) : std::string();
  Status allowed = api::Authorize(request.principal, c, ns);
  if (!allowed.ok()) return ProblemResponse(allowed, request.request_id);
  const api::CallContext context{
      .actor = "rest:" + (request.principal.key_id.empty() ? std::string("owner") : request.principal.key_id),
      .request_id = request.request_id,
      .file_root = file_root_};
  HttpResponse response;
  Status ran = pool_.Run(c.access != api::Access::kRead, budget_, [&](Engine& engine) {
    auto reply = api::Invoke(engine, c, *args, api::ArgsMode::kStrict, context);
    if (!reply) {
      response = ProblemResponse(reply.error(), request.request_id);
    } else if (!reply->raw.empty()) {
      response = {.status = reply->http_status, .content_type = reply->content_type, .body = std::move(reply->raw)};
    } else {
      response = {.status = reply->http_status, .body = Dump(reply->body)};
    }
  });
  if (!ran.ok()) return ProblemResponse(ran, request.request_id);
  return response;
}

std::string RestRoutes::RouteOf(const std::string& method, const std::string& path) {
  RouteMatch m = FindRoute(method, path);
  return m.capability == nullptr ? std::string() : m.capability->rest.method + " " + m.capability->rest.path;
}

std::vector<std::string> RestRoutes::Routes() {
  std::vector<std::string> out;
  for (const api::Capability& c : api::AllCapabilities()) out.push_back(c.rest.method + " " + c.rest.path);
  return out;
}

}  // namespace engram::server
