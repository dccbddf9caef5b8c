// engram/status.h — the error model of the public API.
//
// No exception crosses the public API. A fallible call returns `Status` (no value) or `Result<T>`
// (a value or a Status). Each StatusCode maps once to an HTTP status and a JSON-RPC error code
// (see HttpStatusFor / JsonRpcCodeFor) so every interface reports the same error the same way.
//
// Thread safety: Status and Result are values; distinct objects may be used from any thread.
#ifndef ENGRAM_INCLUDE_STATUS_H_
#define ENGRAM_INCLUDE_STATUS_H_

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>

namespace engram {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // the caller's input is malformed (bad UTF-8, unknown role, empty content, ...)
  kNotFound,         // the named object does not exist
  kAlreadyExists,    // a unique key is taken by a different object
  kBusy,             // the database stayed locked after every retry
  kIOError,          // the file system or SQLite failed to read or write
  kCorruption,       // stored data failed an integrity check
  kInternal,         // a bug in engram: please report it
  // The call is well formed but the state it needs does not hold: a curated store without room
  // for the entry, a file changed on disk since it was read. Retrying unchanged fails again.
  kFailedPrecondition,
  // Raised by the servers (REST, MCP over HTTP), never by the embedded Engine:
  kUnauthenticated,    // no API key, or one that is unknown or revoked
  kPermissionDenied,   // the key does not grant this access on this namespace
  kResourceExhausted,  // a rate limit or a size limit was hit (the message says which)
  kDeadlineExceeded,   // the request ran out of its time budget
};

class Status {
 public:
  Status() = default;  // OK

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string msg) { return {StatusCode::kInvalidArgument, std::move(msg)}; }
  static Status NotFound(std::string msg) { return {StatusCode::kNotFound, std::move(msg)}; }
  static Status AlreadyExists(std::string msg) { return {StatusCode::kAlreadyExists, std::move(msg)}; }
  static Status Busy(std::string msg) { return {StatusCode::kBusy, std::move(msg)}; }
  static Status IOError(std::string msg) { return {StatusCode::kIOError, std::move(msg)}; }
  static Status Corruption(std::string msg) { return {StatusCode::kCorruption, std::move(msg)}; }
  static Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }
  static Status FailedPrecondition(std::string msg) {
    return {StatusCode::kFailedPrecondition, std::move(msg)};
  }
  static Status Unauthenticated(std::string msg) { return {StatusCode::kUnauthenticated, std::move(msg)}; }
  static Status PermissionDenied(std::string msg) { return {StatusCode::kPermissionDenied, std::move(msg)}; }
  static Status ResourceExhausted(std::string msg) { return {StatusCode::kResourceExhausted, std::move(msg)}; }
  static Status DeadlineExceeded(std::string msg) { return {StatusCode::kDeadlineExceeded, std::move(msg)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "invalid_argument: line 3: field \"role\": unknown role \"bot\"" — stable code name, then message.
  std::string ToString() const;

  // Returns a copy whose message is prefixed with `context` and ": ".
  Status WithContext(std::string_view context) const;

 private:
  Status(StatusCode code, std::string msg) : code_(code), message_(std::move(msg)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Stable snake_case name of a code ("invalid_argument"), used in JSON error bodies.
std::string_view StatusCodeName(StatusCode code);
// HTTP status for a code (400, 401, 403, 404, 408, 409, 429, 503, 500; kFailedPrecondition 409). A face may refine
// kResourceExhausted by the limit hit (413 body, 414 URI) and kDeadlineExceeded (504 upstream).
int HttpStatusFor(StatusCode code);
// JSON-RPC 2.0 error code for a code (-32602 invalid params, -32000.. server errors).
int JsonRpcCodeFor(StatusCode code);
// Process exit code used by the `engram` CLI (0 ok, 2 invalid input, 3 not found, 4 busy, 5 denied
// (unauthenticated or permission), 1 other).
int ExitCodeFor(StatusCode code);

template <typename T>
using Result = tl::expected<T, Status>;

// Wraps a Status as the error of a Result: `return Error(Status::NotFound("..."));`
inline tl::unexpected<Status> Error(Status s) { return tl::unexpected<Status>(std::move(s)); }

}  // namespace engram

namespace engram::internal {
// What ENGRAM_RETURN_IF_ERROR returns: converts to Status or to any Result<T>.
struct ErrorReturn {
  Status status;
  operator Status() const { return status; }  // NOLINT(google-explicit-constructor)
  template <typename T>
  operator Result<T>() const {  // NOLINT(google-explicit-constructor)
    return Error(status);
  }
};
}  // namespace engram::internal

// Returns early with the Status of `expr` (an expression yielding Status) when it is not OK.
// Works in functions returning Status and in functions returning Result<T>.
#define ENGRAM_RETURN_IF_ERROR(expr)                                    \
  do {                                                                  \
    ::engram::Status engram_status_ = (expr);                           \
    if (!engram_status_.ok()) return ::engram::internal::ErrorReturn{engram_status_}; \
  } while (0)

#endif  // ENGRAM_INCLUDE_STATUS_H_
