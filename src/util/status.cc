#include "engram/status.h"

namespace engram {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kInvalidArgument: return "invalid_argument";
    case StatusCode::kNotFound: return "not_found";
    case StatusCode::kAlreadyExists: return "already_exists";
    case StatusCode::kBusy: return "busy";
    case StatusCode::kIOError: return "io_error";
    case StatusCode::kCorruption: return "corruption";
    case StatusCode::kInternal: return "internal";
    case StatusCode::kFailedPrecondition: return "failed_precondition";
    case StatusCode::kUnauthenticated: return "unauthenticated";
    case StatusCode::kPermissionDenied: return "permission_denied";
    case StatusCode::kResourceExhausted: return "resource_exhausted";
    case StatusCode::kDeadlineExceeded: return "deadline_exceeded";
  }
  return "internal";
}

int HttpStatusFor(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return 200;
    case StatusCode::kInvalidArgument: return 400;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kAlreadyExists:
    case StatusCode::kFailedPrecondition: return 409;
    case StatusCode::kBusy: return 503;
    case StatusCode::kIOError:
    case StatusCode::kCorruption:
    case StatusCode::kInternal: return 500;
    case StatusCode::kUnauthenticated: return 401;
    case StatusCode::kPermissionDenied: return 403;
    case StatusCode::kResourceExhausted: return 429;
    case StatusCode::kDeadlineExceeded: return 408;
  }
  return 500;
}

int JsonRpcCodeFor(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return 0;
    case StatusCode::kInvalidArgument: return -32602;
    case StatusCode::kNotFound: return -32001;
    case StatusCode::kAlreadyExists: return -32002;
    case StatusCode::kBusy: return -32003;
    case StatusCode::kIOError: return -32004;
    case StatusCode::kCorruption: return -32005;
    case StatusCode::kInternal: return -32603;
    case StatusCode::kUnauthenticated: return -32006;
    case StatusCode::kPermissionDenied: return -32007;
    case StatusCode::kResourceExhausted: return -32008;
    case StatusCode::kDeadlineExceeded: return -32009;
    case StatusCode::kFailedPrecondition: return -32010;
  }
  return -32603;
}

int ExitCodeFor(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return 0;
    case StatusCode::kInvalidArgument: return 2;
    case StatusCode::kNotFound: return 3;
    case StatusCode::kBusy: return 4;
    case StatusCode::kUnauthenticated:
    case StatusCode::kPermissionDenied: return 5;
    default: return 1;
  }
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out(StatusCodeName(code_));
  out += ": ";
  out += message_;
  return out;
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  std::string msg(context);
  msg += ": ";
  msg += message_;
  return Status(code_, std::move(msg));
}

}  // namespace engram
