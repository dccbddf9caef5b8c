// cli/list_flags.cc — what every list command shares: the scope (one namespace, or every one only
// with --all-namespaces, B27) and the line that says how to get the next page (B47).
#include <fmt/format.h>

#include <iostream>

#include "cli/cli_common.h"

namespace engram::cli {

std::shared_ptr<bool> AddAllNamespacesFlag(CLI::App* command, const char* what) {
  auto all = std::make_shared<bool>(false);
  command->add_flag("--all-namespaces", *all,
                    fmt::format("{} of every namespace (an empty or missing --namespace never means that)", what));
  return all;
}

Status CheckScope(const nlohmann::json& args, bool all_namespaces) {
  const bool named = args.contains("namespace");
  if (named && all_namespaces) {
    return Status::InvalidArgument("field \"namespace\": --namespace and --all-namespaces exclude each other");
  }
  if (!named && !all_namespaces) {
    return Status::InvalidArgument(
        "field \"namespace\": required: give --namespace NAME (-n), or --all-namespaces for every namespace");
  }
  return Status::Ok();
}

void PrintNextPage(const OrderedJson& body) {
  if (!body.contains("next_cursor") || body["next_cursor"].is_null()) return;
  std::cout << fmt::format("more: --cursor {} (the same command with this flag prints the next page)\n",
                           body["next_cursor"].get<std::string>());
}

}  // namespace engram::cli
