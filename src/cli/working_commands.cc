// cli/working_commands.cc — `engram working SESSION` (the working_memory capability): the session's
// working memory as an agent's context gets it; `--check FILE` checks a summary made elsewhere and
// exits 1 when it lost a constraint.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/cli_common.h"

namespace engram::cli {
namespace {

void PrintWorking(const OrderedJson& body) {
  std::cout << body["text"].get<std::string>();
  std::cout << fmt::format("({} of {} tokens{}", body["used_tokens"].get<int64_t>(),
                           body["total_tokens"].get<int64_t>(),
                           body["over_budget"].get<bool>() ? "; the constraints alone exceed the budget" : "");
  const size_t retracted = body["retracted"].size();
  std::cout << (retracted > 0 ? fmt::format("; {} constraint(s) retracted)\n", retracted) : std::string(")\n"));
  for (const OrderedJson& m : body["missing"]) std::cout << "missing from the summary: " << m.get<std::string>() << "\n";
}

}  // namespace

void AddWorkingCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  CLI::App* cmd = app.add_subcommand(
      "working", "a session's working memory: goal, the user's constraints verbatim, paths ruled out, newest turns "
                 "under a token budget (docs/working.md)");
  auto args = std::make_shared<CapabilityFlags>(cmd, "working_memory");
  args->Bind({"session_id", "--namespace,-n", "--budget=budget_tokens"});
  auto check = std::make_shared<std::string>();
  cmd->add_option("--check", *check, "a file holding a summary: list the constraints it lost (exit 1 if any)");
  commands.Add(cmd, [&flags, args, check] {
    nlohmann::json a = args->Args();
    if (!check->empty()) {
      std::ifstream in(*check, std::ios::binary);
      if (!in) return Fail(flags, Status::NotFound(fmt::format("field \"check\": cannot read {}", *check)));
      std::stringstream text;
      text << in.rdbuf();
      a["summary"] = text.str();
    }
    Rendering rendering{.text = PrintWorking, .finish = [](const OrderedJson& body) {
                          return body["missing"].empty() ? 0 : 1;
                        }};
    return RunCapability(flags, OpenMode::kReadOnly, "working_memory", a, rendering);
  });
}

}  // namespace engram::cli
