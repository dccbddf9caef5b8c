// The lists of every namespace at once (B27): an empty namespace never means "all of them", so
// listing every namespace is its own admin capability, asked for by name — REST under
// /v1/admin/, the CLI's --all-namespaces, and never an MCP tool.
#include "api/common.h"
#include "api/groups.h"
#include "api/page.h"

namespace engram::api {
namespace {

Result<Reply> RunAllSessions(Engine& engine, const Args& args, const CallContext&) {
  return ListSessionsPage(engine, args, /*all_namespaces=*/true);
}

Result<Reply> RunAllTombstones(Engine& engine, const Args& args, const CallContext&) {
  return ListTombstonesPage(engine, args, /*all_namespaces=*/true);
}

}  // namespace

std::vector<Capability> AllNamespacesCapabilities() {
  std::vector<Capability> out;
  out.push_back({.name = "list_all_sessions",
                 .group = "admin",
                 .description = "The sessions of every namespace, newest first (by when they were first written), "
                                "a page at a time; each names its namespace.",
                 .access = Access::kAdmin,
                 .namespaced = false,
                 .params = {LimitParam(20, 1000), CursorParam()},
                 .result_schema = PageSchema(SessionSchema(), /*namespaced=*/false),
                 .handler = RunAllSessions,
                 .rest = {"GET", "/v1/admin/sessions"}});
  out.push_back({.name = "list_all_tombstones",
                 .group = "admin",
                 .description = "What was forgotten in every namespace, newest first, a page at a time: ids and "
                                "hashes, never content.",
                 .access = Access::kAdmin,
                 .namespaced = false,
                 .params = {{.name = "object_id", .description = "only the tombstones of this object",
                             .max_length = kMaxIdLength, .in = ParamIn::kQuery},
                            LimitParam(100, 100000), CursorParam()},
                 .result_schema = PageSchema(TombstoneSchema(), /*namespaced=*/false),
                 .handler = RunAllTombstones,
                 .rest = {"GET", "/v1/admin/tombstones"}});
  return out;
}

}  // namespace engram::api
