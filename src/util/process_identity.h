// util/process_identity.h — a process named well enough that another process can tell whether it
// is still running: the owner of a lease on an extraction job (store/sqlite/job_store.h).
//
// A pid alone is not enough: it is reused once its process is gone, and it means nothing in
// another pid namespace (a container) or on another machine. So an identity carries the process's
// start time (a reused pid has another one) and where its pid is meaningful: the kernel's boot id
// and the pid namespace. Only a process in the same boot and pid namespace judges liveness; any
// other one says kUnknown and leaves the decision to the lease's expiry time.
#ifndef ENGRAM_UTIL_PROCESS_IDENTITY_H_
#define ENGRAM_UTIL_PROCESS_IDENTITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace engram {

struct ProcessIdentity {
  std::string host;         // gethostname(), for people; never compared for liveness
  std::string boot;         // /proc/sys/kernel/random/boot_id; "" = unknown
  std::string pid_ns;       // the link text of /proc/self/ns/pid ("pid:[4026531836]"); "" = unknown
  int64_t pid = 0;
  int64_t start_ticks = 0;  // start time, clock ticks after boot (field 22 of /proc/<pid>/stat)
  bool operator==(const ProcessIdentity&) const = default;
};

// This process. Computed once per process (again after a fork: a child is another owner).
// boot and pid_ns stay "" when /proc is missing or belongs to another pid namespace. Thread-safe.
ProcessIdentity SelfIdentity();

// The text stored as a lease owner: "host=H pid=P start=T boot=B pidns=N" (single spaces; a host
// name's whitespace becomes '_'). ParseProcessIdentity reads it back; nullopt for other text
// (NULL columns of older rows, hand edits). Thread-safe.
std::string FormatProcessIdentity(const ProcessIdentity& identity);
std::optional<ProcessIdentity> ParseProcessIdentity(std::string_view text);

// "H pid P": how a person is shown the owner.
std::string DescribeProcess(const ProcessIdentity& identity);

enum class Liveness { kAlive, kDead, kUnknown };

// Whether `owner` still runs, judged from this process. kUnknown when either identity lacks its
// boot or pid namespace, or they differ (another machine, boot or container: only the lease expiry
// can tell). kDead when no process has the pid (kill(pid, 0) fails with ESRCH), or the process
// with that pid started at another time (the pid was reused) or is a zombie. kAlive otherwise,
// including a process whose /proc entry is hidden (hidepid). Reads /proc; never blocks.
// Thread-safe.
Liveness CheckLiveness(const ProcessIdentity& owner);

// "alive", "dead", "unknown".
std::string_view LivenessName(Liveness liveness);

}  // namespace engram

#endif  // ENGRAM_UTIL_PROCESS_IDENTITY_H_
