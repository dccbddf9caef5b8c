// cli/forget_commands.cc — `engram forget` (the forget capability), `engram unforget`,
// `engram tombstones` (list_tombstones) and `engram compact`.
#include <fmt/format.h>

#include <iostream>

#include "cli/cli_common.h"
#include "codec/json_codec.h"

namespace engram::cli {
namespace {

// ---- forget ------------------------------------------------------------------------------------

// The forget flags that are no argument of their own. The CLI forgets what it names at once
// (ids, --session, --subject, --before, --all) unless --dry-run; a --query is a preview until
// --yes. The capability's one "confirm" says the same.
struct Confirmation {
  bool yes = false;
  bool dry_run = false;
};

void PrintForgetText(const OrderedJson& r, bool query_unconfirmed) {
  for (const OrderedJson& id : r["already_forgotten"]) std::cout << "already forgotten: " << id.get<std::string>() << "\n";
  if (r["items"].empty()) {
    if (r["already_forgotten"].empty()) std::cout << "nothing to forget\n";
    return;
  }
  if (r["preview"].get<bool>()) {
    std::cout << fmt::format("would forget {} event(s) and {} claim(s):\n", r["events"].get<int64_t>(),
                             r["claims"].get<int64_t>());
    for (const OrderedJson& it : r["items"]) {
      std::cout << fmt::format("  {} {} ({}): {}\n", it["type"].get<std::string>(), it["id"].get<std::string>(),
                               it["why"].get<std::string>(), it.value("text", ""));
    }
    std::cout << (query_unconfirmed ? "nothing changed: run the same command with --yes to forget these\n"
                                    : "dry run: nothing changed\n");
    return;
  }
  std::cout << fmt::format(
      "forgot {} event(s) and {} claim(s); removed {} session(s), {} vector(s), {} job(s); {} tombstone(s), "
      "operation {}\nthe bytes leave the database files at the next `engram compact`\n",
      r["events"].get<int64_t>(), r["claims"].get<int64_t>(), r["sessions"].get<int64_t>(), r["vectors"].get<int64_t>(),
      r["jobs"].get<int64_t>(), r["tombstone_ids"].size(), r["operation_id"].get<std::string>());
}

// `forget ID...` without -n acts in the namespace the ids are of (NamespaceOfIds), never in "any
// namespace"; every selector but ids needs -n, as the capability says.
int RunForget(const GlobalFlags& flags, nlohmann::json args, const Rendering& rendering) {
  if (args.contains("namespace") || !args.contains("ids")) {
    return RunCapability(flags, OpenMode::kReadWrite, "forget", args, rendering);
  }
  nlohmann::json checked = args;
  checked["namespace"] = kNamespaceOfTheId;
  if (Status st = Validate("forget", checked); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, OpenMode::kReadWrite);
  if (!engine) return Fail(flags, engine.error());
  auto ns = NamespaceOfIds(**engine, args["ids"].get<std::vector<std::string>>());
  if (!ns) return Fail(flags, ns.error());
  args["namespace"] = *ns;
  auto reply = Call(**engine, "forget", args);
  if (!reply) return Fail(flags, reply.error());
  return Print(flags, *reply, rendering);
}

void AddForget(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* cmd = app.add_subcommand(
      "forget",
      "forget events and claims for good (episodes and rules too, by id): by id, or one selector of a "
      "namespace; a tombstone keeps the same content from coming back (see docs/forget.md)");
  auto bound = std::make_shared<CapabilityFlags>(cmd, "forget");
  bound->Bind({"ids", "--namespace,-n", "--all", "--session=session_id", "--subject", "--before", "--query",
               "--limit,-k=query_limit", "--reason"});
  auto c = std::make_shared<Confirmation>();
  cmd->add_flag("--yes", c->yes, "--query: forget what the preview lists");
  cmd->add_flag("--dry-run", c->dry_run, "show what would be forgotten; change nothing");
  commands.Add(cmd, [&flags, bound, c] {
    nlohmann::json args = bound->Args();
    const bool query_unconfirmed = args.contains("query") && !c->yes;
    args["confirm"] = !c->dry_run && (!args.contains("query") || c->yes);
    return RunForget(flags, std::move(args),
                     {.text = [query_unconfirmed](const OrderedJson& r) { PrintForgetText(r, query_unconfirmed); }});
  });
}

// ---- unforget, tombstones, compact -------------------------------------------------------------

void PrintUnforgetText(const OrderedJson& r) {
  const OrderedJson& t = r["unforgotten"];
  std::cout << fmt::format("tombstone {} removed: the same content as {} {} may be stored again (what was forgotten "
                           "does not come back by itself)\n",
                           t["id"].get<std::string>(), t["object_type"].get<std::string>(),
                           t["object_id"].get<std::string>());
}

void AddUnforget(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  // --json keeps the CLI's name "removed" for the tombstone.
  AddCapabilityCommand(app, flags, commands, "unforget",
                       "remove a tombstone so that the same content may be stored again (nothing comes back by itself)",
                       "unforget", {"id", "--reason"}, OpenMode::kReadWrite,
                       {.text = PrintUnforgetText, .rename = {"unforgotten", "removed"}});
}

void PrintTombstonesText(const OrderedJson& body) {
  if (body["items"].empty()) std::cout << "no tombstones\n";
  for (const OrderedJson& t : body["items"]) {
    const std::string reason = t["reason"].get<std::string>();
    std::cout << fmt::format("{} {} {} {} {} by {}{}\n", t["id"].get<std::string>(), ShortTime(t["created_at"]),
                             t["namespace"].get<std::string>(), t["object_type"].get<std::string>(),
                             t["object_id"].get<std::string>(), t["actor"].get<std::string>(),
                             reason.empty() ? "" : ": " + reason);
  }
  PrintNextPage(body);
}

// `tombstones -n NAME` is list_tombstones; `tombstones --all-namespaces` the admin
// list_all_tombstones.
void AddTombstones(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* cmd = app.add_subcommand("tombstones", "list what was forgotten (ids and hashes, no content), newest first");
  auto bound = std::make_shared<CapabilityFlags>(cmd, "list_tombstones");
  bound->Bind({"--namespace,-n", "--id=object_id", "--limit,-k", "--cursor"});
  auto all = AddAllNamespacesFlag(cmd, "the tombstones");
  commands.Add(cmd, [&flags, bound, all] {
    nlohmann::json args = bound->Args();
    if (Status st = CheckScope(args, *all); !st.ok()) return Fail(flags, st);
    return RunCapability(flags, OpenMode::kReadOnly, *all ? "list_all_tombstones" : "list_tombstones", args,
                         {.text = PrintTombstonesText});
  });
}

void PrintCompactText(const OrderedJson& r) {
  std::cout << fmt::format("compacted: {} → {} bytes, WAL {}, {:.0f} ms\n", r["file_bytes_before"].get<int64_t>(),
                           r["file_bytes_after"].get<int64_t>(),
                           r["wal_truncated"].get<bool>() ? "truncated" : "not truncated", r["took_ms"].get<double>());
}

void AddCompact(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  AddCapabilityCommand(app, flags, commands, "compact",
                       "merge the full-text indexes, VACUUM and truncate the WAL: forgotten bytes leave the files",
                       "compact", {}, OpenMode::kReadWrite, {.text = PrintCompactText});
}

}  // namespace

void AddForgetCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  for (auto add : {AddForget, AddUnforget, AddTombstones, AddCompact}) add(app, flags, commands);
}

}  // namespace engram::cli
