// cli/claims_commands.cc — `engram remember` (the remember capability), `engram claims`
// (list_claims, a page at a time), `engram explain claim` (explain_claim) and `engram history`
// (claim_history; for a forgotten id, audit_trail).
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "api/common.h"
#include "cli/cli_common.h"
#include "codec/json_codec.h"
#include "util/utf8.h"

namespace engram::cli {
namespace {

// ---- remember ----------------------------------------------------------------------------------

// What a remember decision did, in words ("superseded" → "new claim, replacing <id>").
std::string DecisionText(const std::string& decision, const OrderedJson& claim) {
  if (decision == "created") return "new claim";
  if (decision == "superseded") return "new claim, replacing " + claim.value("supersedes_id", OrderedJson("")).dump();
  if (decision == "duplicate") return "already known, evidence added to";
  if (decision == "merged") return "near-copy, evidence added to";
  if (decision == "disputed") return "disputed claim (review it)";
  if (decision == "backfill") return "older fact, stored as history";
  return decision;
}

void PrintRememberText(const OrderedJson& r) {
  const std::string event_id = r["event"]["id"].get<std::string>();
  if (r["duplicate"].get<bool>()) {
    std::cout << "already remembered (event " << event_id << "); nothing changed\n";
    return;
  }
  if (r["forgotten"].get<bool>()) {
    const std::string tombstone = r["tombstone_id"].get<std::string>();
    std::cout << "not stored: this was forgotten (tombstone " << tombstone << "); `engram unforget " << tombstone
              << "` allows it again\n";
    return;
  }
  std::cout << "event " << event_id << "\n";
  size_t ci = 0;
  for (const OrderedJson& d : r["decisions"]) {
    const std::string decision = d.get<std::string>();
    if (decision.rfind("rejected:", 0) == 0) {
      std::cout << "  not stored as a claim: " << decision.substr(9) << "\n";
    } else if (ci < r["claims"].size()) {
      const OrderedJson& c = r["claims"][ci++];
      std::cout << fmt::format("  {} {}: {}\n", DecisionText(decision, c), c["id"].get<std::string>(),
                               c["text"].get<std::string>());
    }
  }
}

void AddRemember(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  AddCapabilityCommand(app, flags, commands, "remember", "store an explicit memory (an event and its claims)",
                       "remember",
                       {"text", "--namespace,-n", "--subject", "--predicate", "--value", "--at", "--idempotency-key",
                        "--session=session_id", "--speaker"},
                       OpenMode::kCreate, {.text = PrintRememberText});
}

// ---- claims ------------------------------------------------------------------------------------

// --limit may exceed a page of list_claims (kMaxPageSize): the CLI then asks for pages until it
// has that many, each validated and read by the capability; next_cursor is the last page's.
constexpr int64_t kMaxClaimsLimit = 100000;

// list_claims with `args`; a limit over one page is read a page at a time (following next_cursor)
// into one reply of the same shape.
Result<api::Reply> ListClaims(Engine& engine, nlohmann::json args) {
  const nlohmann::json& limit = args.contains("limit") ? args["limit"] : nlohmann::json();
  int64_t wanted = limit.is_number_integer() ? limit.get<int64_t>() : 0;  // 0: the capability's default page
  if (wanted <= api::kMaxPageSize) return Call(engine, "list_claims", args);
  api::Reply all{.body = {{"namespace", args["namespace"]}, {"items", OrderedJson::array()}, {"next_cursor", nullptr}}};
  while (wanted > 0) {
    args["limit"] = std::min(wanted, api::kMaxPageSize);
    auto page = Call(engine, "list_claims", args);
    if (!page) return page;
    for (OrderedJson& c : page->body["items"]) all.body["items"].push_back(std::move(c));
    wanted -= args["limit"].get<int64_t>();
    all.body["next_cursor"] = page->body["next_cursor"];
    if (page->body["next_cursor"].is_null()) break;
    args["cursor"] = page->body["next_cursor"];
  }
  return all;
}

void PrintClaimsText(const OrderedJson& body) {
  if (body["items"].empty()) std::cout << "no claims\n";
  for (const OrderedJson& c : body["items"]) {
    std::string quals;
    for (const OrderedJson& q : c["qualifiers"]) quals += " [" + q.get<std::string>() + "]";
    std::cout << fmt::format("{} {:10s} {} → {}{}  {}\n", c["id"].get<std::string>(), c["status"].get<std::string>(),
                             Day(c["valid_from"]), Day(c["valid_to"]), quals, c["text"].get<std::string>());
  }
  PrintNextPage(body);
}

int RunClaims(const GlobalFlags& flags, const CapabilityFlags& bound) {
  nlohmann::json args = bound.Args();
  // The first page's arguments are validated before the file is opened.
  nlohmann::json first = args;
  if (auto limit = args.find("limit"); limit != args.end() && limit->is_number_integer()) {
    if (limit->get<int64_t>() > kMaxClaimsLimit) {
      return Fail(flags, Status::InvalidArgument(fmt::format("field \"limit\": {} is outside 1–{}",
                                                             limit->get<int64_t>(), kMaxClaimsLimit)));
    }
    first["limit"] = std::min(limit->get<int64_t>(), api::kMaxPageSize);
  }
  if (Status st = Validate("list_claims", first); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto reply = ListClaims(**engine, args);
  if (!reply) return Fail(flags, reply.error());
  return Print(flags, *reply, {.text = PrintClaimsText});
}

void AddClaims(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto* cmd = app.add_subcommand("claims", "list the claims of a namespace, oldest first, a page at a time");
  auto bound = std::make_shared<CapabilityFlags>(cmd, "list_claims");
  bound->Bind({"--namespace,-n", "--subject", "--include-history", "--limit,-k", "--cursor"});
  cmd->get_option("--limit")->description("at most this many, 1-100000 (over 100: read 100 a page); default 50");
  commands.Add(cmd, [&flags, bound] { return RunClaims(flags, *bound); });
}

// ---- explain, history --------------------------------------------------------------------------

void PrintClaim(const OrderedJson& c) {
  const std::string slot = c["slot"].get<std::string>();
  std::cout << fmt::format("claim {}  [{}]\n  {}\n  {} | {}{} | {}\n", c["id"].get<std::string>(),
                           c["status"].get<std::string>(), c["text"].get<std::string>(), c["subject"].get<std::string>(),
                           c["predicate"].get<std::string>(), slot.empty() ? "" : "/" + slot,
                           c["value"].get<std::string>());
  auto time = [](const OrderedJson& t, const char* open) { return t.is_null() ? open : t.get<std::string>(); };
  std::cout << fmt::format("  valid {} → {}   recorded {} → {}\n", time(c["valid_from"], ""), time(c["valid_to"], "open"),
                           time(c["recorded_from"], ""), time(c["recorded_to"], "open"));
  std::string quals;
  for (const OrderedJson& q : c["qualifiers"]) quals += q.get<std::string>() + " ";
  std::cout << fmt::format("  scope {}, authority {}, {}, confidence {:.2f}, extractor {}{}\n",
                           c["scope"].get<std::string>(), c["authority"].get<std::string>(),
                           c["assertion"].get<std::string>(), c["confidence"].get<double>(),
                           c["extractor"].get<std::string>(), quals.empty() ? "" : ", qualifiers " + quals);
  std::cout << fmt::format("  expires {}, activation {:.3f}, {} recall hit(s){}\n", time(c["expires_at"], "never"),
                           c["activation"].get<double>(), c["access_count"].get<int64_t>(),
                           c["last_accessed_at"].is_null() ? "" : ", last " + c["last_accessed_at"].get<std::string>());
  for (const OrderedJson& e : c["evidence"]) {
    std::cout << fmt::format("  evidence ({}) {} {} [{}, {}]: {}\n", e["relation"].get<std::string>(),
                             e["event_id"].get<std::string>(), EventTime(e), e["role"].get<std::string>(),
                             e["origin_class"].get<std::string>(), TruncateCodePoints(e["content"].get<std::string>(), 160));
  }
}

void PrintExplainText(const OrderedJson& x) {
  PrintClaim(x["claim"]);
  std::cout << (x["current"].get<bool>() ? "current: " : "not current: ") << x["why"].get<std::string>() << "\n";
  if (x["chain"].size() > 1) {
    std::cout << "supersede chain (oldest first):\n";
    for (const OrderedJson& c : x["chain"]) {
      std::cout << fmt::format("  {} {} [{}] {} → {}: {}\n", c["id"] == x["claim"]["id"] ? "*" : " ",
                               c["id"].get<std::string>(), c["status"].get<std::string>(), Day(c["valid_from"]),
                               Day(c["valid_to"]), c["text"].get<std::string>());
    }
  }
  if (!x["decisions"].empty()) std::cout << "decisions:\n";
  for (const OrderedJson& d : x["decisions"]) {
    const std::string detail = d["detail"].get<std::string>();
    std::cout << fmt::format("  {} {} ({}){}\n", ShortTime(d["at"]), d["decision"].get<std::string>(),
                             d["reason"].get<std::string>(), detail.empty() ? "" : ": " + detail);
  }
}

// A claim's capability by id alone (`explain claim ID`, `history ID`): the namespace is the claim's.
Result<api::Reply> CallOnClaim(Engine& engine, std::string_view capability, const std::string& id) {
  auto claim = engine.GetClaim(id);
  if (!claim) return Error(claim.error());
  return Call(engine, capability, {{"namespace", claim->namespace_name}, {"id", id}});
}

int RunExplain(const GlobalFlags& flags, const std::string& id) {
  if (Status st = Validate("explain_claim", {{"namespace", kNamespaceOfTheId}, {"id", id}}); !st.ok()) {
    return Fail(flags, st);
  }
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto reply = CallOnClaim(**engine, "explain_claim", id);
  if (!reply) return Fail(flags, reply.error());
  return Print(flags, *reply, {.text = PrintExplainText});
}

void PrintHistoryText(const OrderedJson& body) {
  for (const OrderedJson& h : body["history"]) {
    std::cout << fmt::format("{} {} by {} ({})\n  before {}\n  after  {}\n", h["at"].get<std::string>(),
                             h["action"].get<std::string>(), h["actor"].get<std::string>(),
                             h["reason"].get<std::string>(), h["before"].dump(), h["after"].dump());
  }
}

// A forgotten id (event, claim or tombstone) has no stored history: its audit trail (the claim's
// changes without content, then the forget and any unforget) and tombstones instead.
void PrintAuditText(const OrderedJson& body) {
  for (const OrderedJson& t : body["tombstones"]) {
    const std::string reason = t.value("reason", "");
    std::cout << fmt::format("forgotten {} {} at {} by {} (tombstone {}){}\n", t["object_type"].get<std::string>(),
                             t["object_id"].get<std::string>(), t["created_at"].get<std::string>(),
                             t["actor"].get<std::string>(), t["id"].get<std::string>(),
                             reason.empty() ? "" : ": " + reason);
  }
  for (const OrderedJson& a : body["audit"]) {
    const std::string reason = a["reason"].get<std::string>();
    std::cout << fmt::format("{} {} {} by {}{}  {}\n", a["at"].get<std::string>(), a["action"].get<std::string>(),
                             a["object_type"].get<std::string>(), a["actor"].get<std::string>(),
                             reason.empty() ? "" : " (" + reason + ")", a["detail"].dump());
  }
  PrintNextPage(body);
}

// `cursor` pages the audit trail of a forgotten id (a claim's own history comes whole).
int RunHistory(const GlobalFlags& flags, const std::string& id, const std::string& cursor) {
  nlohmann::json audit_args{{"id", id}};
  if (!cursor.empty()) audit_args["cursor"] = cursor;
  if (Status st = Validate("claim_history", {{"namespace", kNamespaceOfTheId}, {"id", id}}); !st.ok()) {
    return Fail(flags, st);
  }
  if (Status st = Validate("audit_trail", audit_args); !st.ok()) return Fail(flags, st);
  auto engine = OpenEngine(flags, OpenMode::kReadOnly);
  if (!engine) return Fail(flags, engine.error());
  auto reply = CallOnClaim(**engine, "claim_history", id);
  if (reply) return Print(flags, *reply, {.text = PrintHistoryText});
  if (reply.error().code() != StatusCode::kNotFound) return Fail(flags, reply.error());
  auto audit = Call(**engine, "audit_trail", audit_args);
  if (!audit && audit.error().code() == StatusCode::kNotFound) return Fail(flags, reply.error());
  if (!audit) return Fail(flags, audit.error());
  return Print(flags, *audit, {.text = PrintAuditText});
}

void AddExplainAndHistory(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  auto id = std::make_shared<std::string>();
  auto* explain = app.add_subcommand("explain", "why a claim is (or is not) current");
  auto* explain_claim = explain->add_subcommand("claim", "explain a claim");
  explain_claim->add_option("id", *id, "claim id")->required();
  explain->require_subcommand(1);
  commands.Add(explain_claim, [&flags, id] { return RunExplain(flags, *id); });
  auto* history =
      app.add_subcommand("history", "every change of a claim (a forgotten id: its tombstone and audit trail)");
  history->add_option("id", *id, "claim, event or tombstone id")->required();
  auto cursor = std::make_shared<std::string>();
  history->add_option("--cursor", *cursor, "a forgotten id's audit trail: the next_cursor of the previous page");
  commands.Add(history, [&flags, id, cursor] { return RunHistory(flags, *id, *cursor); });
}

}  // namespace

void AddClaimsCommands(CLI::App& app, const GlobalFlags& flags, Commands& commands) {
  for (auto add : {AddRemember, AddClaims, AddExplainAndHistory}) add(app, flags, commands);
}

}  // namespace engram::cli
