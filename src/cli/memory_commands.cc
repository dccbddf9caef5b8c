// cli/memory_commands.cc — `engram memory`: a namespace's curated memory, MEMORY.md and USER.md
// (read_curated, write_curated, curated_snapshot, bind_curated; docs/curated.md).
#include <fmt/format.h>

#include <iostream>

#include "cli/cli_common.h"

namespace engram::cli {
namespace {

void PrintStores(const OrderedJson& body) {
  for (const char* target : {"memory", "user"}) {
    const OrderedJson& s = body[target];
    std::cout << fmt::format("{} ({}): {}\n", target, s["usage"].get<std::string>(), s["file"].get<std::string>());
    int i = 0;
    for (const OrderedJson& e : s["entries"]) std::cout << fmt::format("  [{}] {}\n", ++i, e.get<std::string>());
  }
}

void PrintWrite(const OrderedJson& body) {
  std::cout << fmt::format("{} {} — {}, {} entries\n", body["target"].get<std::string>(),
                           body["message"].get<std::string>(), body["usage"].get<std::string>(),
                           body["entry_count"].get<int64_t>());
  for (const char* key : {"replaced_entries", "removed_entries"}) {
    for (const auto& [index, text] : body[key].items()) {
      std::cout << fmt::format("  {} (operation {}): {}\n", key[2] == 'p' ? "overwrote" : "removed", index,
                               text.get<std::string>());
    }
  }
  for (const OrderedJson& e : body["near_duplicates"]) {
    std::cout << "  note: reads like an entry already stored: " << e.get<std::string>() << "\n";
  }
}

void PrintSnapshot(const OrderedJson& body) {
  const std::string block = body["block"].get<std::string>();
  std::cout << (block.empty() ? "(both stores are empty)" : block) << "\n";
}

// `memory add|replace|remove TARGET ...`: write_curated with the action fixed.
void AddWrite(CLI::App& memory, const GlobalFlags& flags, Commands& commands, const char* action, const char* help,
              std::initializer_list<std::string_view> positionals) {
  std::vector<std::string_view> bind = {"--namespace,-n", "target"};
  bind.insert(bind.end(), positionals.begin(), positionals.end());
  bind.push_back("--session=session_id");
  bind.push_back("--if-version");
  CLI::App* cmd = memory.add_subcommand(action, help);
  auto args = std::make_shared<CapabilityFlags>(cmd, "write_curated");
  for (std::string_view flag : bind) args->Bind({flag});
  args->Default("action", action);
  commands.Add(cmd, [&flags, args] {
    return RunCapability(flags, OpenMode::kCreate, *args, Rendering{.text = PrintWrite});
  });
}

}  // namespace

void AddMemoryCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  CLI::App* memory = app.add_subcommand(
      "memory", "curated memory of a namespace: MEMORY.md (the agent's notes) and USER.md (who the user is), "
                "Hermes-compatible files (docs/curated.md)");
  memory->require_subcommand(1);
  AddCapabilityCommand(*memory, flags, commands, "list", "both stores, their entries and usage", "read_curated",
                       {"--namespace,-n"}, OpenMode::kReadOnly, Rendering{.text = PrintStores});
  AddWrite(*memory, flags, commands, "add", "add an entry: TARGET (memory or user) CONTENT", {"content"});
  AddWrite(*memory, flags, commands, "replace",
           "replace the entry OLD_TEXT names (the entry itself or a unique part) by CONTENT", {"old_text", "content"});
  AddWrite(*memory, flags, commands, "remove", "remove the entry OLD_TEXT names", {"old_text"});
  AddCapabilityCommand(*memory, flags, commands, "apply",
                       "a batch, all or nothing: --operations '[{\"action\": \"remove\", \"old_text\": ...}, ...]'",
                       "write_curated", {"--namespace,-n", "target", "--operations", "--session=session_id",
                                         "--if-version"},
                       OpenMode::kCreate, Rendering{.text = PrintWrite});
  AddCapabilityCommand(*memory, flags, commands, "snapshot",
                       "the system-prompt block; with --session, frozen at that session's first call",
                       "curated_snapshot", {"--namespace,-n", "--session=session_id"}, OpenMode::kReadOnly,
                       Rendering{.text = PrintSnapshot});
  AddCapabilityCommand(*memory, flags, commands, "bind",
                       "keep the namespace's curated files in FOLDER (e.g. ~/.hermes/memories, used as is)",
                       "bind_curated", {"--namespace,-n", "folder"}, OpenMode::kReadWrite,
                       Rendering{.text = [](const OrderedJson& body) {
                         std::cout << fmt::format("curated memory of {} is now kept in {}\n",
                                                  body["namespace"].get<std::string>(), body["folder"].get<std::string>());
                       }});
}

}  // namespace engram::cli
