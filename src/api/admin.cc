// The admin group: whole-file operations (counts, integrity, jobs, maintenance, export and
// import, backup). Admin access only.
#include "api/common.h"
#include "api/groups.h"

namespace engram::api {
namespace {

Result<Reply> RunStats(Engine& engine, const Args&, const CallContext&) {
  auto s = engine.Stats();
  if (!s) return Error(s.error());
  return Reply{.body = StatsToJson(*s)};
}

Result<Reply> RunDoctor(Engine& engine, const Args&, const CallContext&) {
  auto d = engine.Doctor();
  if (!d) return Error(d.error());
  return Reply{.body = DoctorReportToJson(*d)};
}

}  // namespace

std::vector<Capability> AdminCapabilities() {
  std::vector<Capability> out;
  out.push_back({.name = "stats",
                 .group = "admin",
                 .description = "Counts and file sizes (bytes) of the database, and what a quick integrity check finds.",
                 .access = Access::kAdmin,
                 .namespaced = false,
                 .result_schema = AnyObject("counts and sizes"),
                 .handler = RunStats,
                 .rest = {"GET", "/v1/admin/stats"}});
  out.push_back({.name = "doctor",
                 .group = "admin",
                 .description = "Check the database's integrity (reads only); problems are reported, not fixed.",
                 .access = Access::kAdmin,
                 .namespaced = false,
                 .result_schema = Object({{"ok", BooleanType()}, {"problems", ArrayOf(StringType())}}, {"ok"}),
                 .handler = RunDoctor,
                 .rest = {"GET", "/v1/admin/doctor"}});
  return out;
}

}  // namespace engram::api
