// tests/scenario_test.cc — runs the data-driven scenarios in tests/scenarios/*.jsonl.
//
// Every scenario file runs twice, on a fresh database each time:
//   * library: each step goes through the C++ API (json_codec's EventInputFromJson, then
//     Engine::Ingest / ValidateEvent / Recall / Remember / Process / ListClaims / ExplainClaim /
//     ListJobs);
//   * cli: consecutive ingest steps are written to a .jsonl file and stored with
//     `engram --db DB --json ingest FILE`; every other step runs the matching `engram --json`
//     command (recall, remember, process, claims, explain claim, jobs) and checks the JSON on stdout.
// After the last step, Doctor (library) / `engram doctor --json` (cli) must report ok.
//
// The format is documented in tests/scenarios/README.md. One JSON object per line; blank lines are
// skipped. Every step may carry "note": "..." (printed when the step fails). Unknown keys are
// errors, so a typo cannot silently disable a check. Steps:
//   ingest, ingest_error, recall                       events and full-text recall
//   remember, process, claims, explain, jobs           claims
//   forget, unforget, get, history, sessions_search,   forgetting (docs/forget.md); remember's
//   stats, compact                                     save_event/save_claims name ids for "$name"
//   mark_time                                          captures the wall clock into a variable
//                                                      ("$T", "$T+1h", "$T-30d") usable in every
//                                                      time field (at, as_of, known_as_of, and
//                                                      the valid_from/valid_to of a claim matcher)
#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "codec/json_codec.h"
#include "test_util.h"
#include "util/time.h"

namespace engram {
namespace {

using nlohmann::json;
using test::CliResult;
using test::RunCli;
using test::TempDir;

const std::string kScenarioDir = std::string(ENGRAM_SOURCE_DIR) + "/tests/scenarios";

// ---- claim matchers ----------------------------------------------------------------------------

// A claim as both interfaces report it (library structs or CLI JSON).
struct EvidenceView {
  std::string event_id;
  std::string relation;
  std::string role;
  std::string content;
};

struct ClaimView {
  std::string id, subject, predicate, slot, value, text, status;
  std::vector<std::string> qualifiers;
  TimestampMs valid_from = 0;
  std::optional<TimestampMs> valid_to;
  std::optional<std::string> time_phrase;          // claims lists and explain only
  std::optional<std::vector<std::string>> flags;   // recall items only
  std::vector<EvidenceView> evidence;
};

std::string Describe(const ClaimView& c) {
  std::string quals;
  for (const auto& q : c.qualifiers) quals += (quals.empty() ? "" : ",") + q;
  std::string out = "[" + c.status + "] " + c.subject + " | " + c.predicate +
                    (c.slot.empty() ? "" : "/" + c.slot) + " = \"" + c.value + "\"";
  if (!quals.empty()) out += " {" + quals + "}";
  out += " valid " + FormatTimestamp(c.valid_from) + " → " +
         (c.valid_to ? FormatTimestamp(*c.valid_to) : std::string("open"));
  if (c.time_phrase && !c.time_phrase->empty()) out += " (\"" + *c.time_phrase + "\")";
  out += " evidence " + std::to_string(c.evidence.size()) + ": " + c.text;
  if (c.flags && !c.flags->empty()) {
    out += " !";
    for (const auto& f : *c.flags) out += " " + f;
  }
  return out;
}

std::string ClaimListing(const std::vector<ClaimView>& claims) {
  std::string out = std::to_string(claims.size()) + " claim(s):";
  for (size_t i = 0; i < claims.size(); ++i) {
    out += "\n    " + std::to_string(i) + ". " + Describe(claims[i]);
  }
  return out;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

bool Has(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// {"subject", "predicate", "slot", "value", "value_contains", "text_contains", "status",
//  "qualifiers" (exact set), "qualifiers_include", "qualifiers_exclude", "valid_from" (ISO time),
//  "valid_from_date" ("YYYY-MM-DD", UTC), "valid_to" (ISO time, or null = open), "valid_to_date",
//  "time_phrase", "evidence_count", "evidence_contains", "evidence_role", "flag"}; every given
// field must hold (AND).
struct ClaimMatcher {
  std::string source;  // the JSON as written
  std::map<std::string, std::string> text_fields;
  bool has_valid_to = false;
  std::optional<std::string> valid_to;  // nullopt with has_valid_to: must be open
  std::optional<std::vector<std::string>> qualifiers;
  std::vector<std::string> qualifiers_include, qualifiers_exclude;
  std::optional<int> evidence_count;
};

const std::set<std::string> kMatcherTextFields = {
    "subject", "predicate",       "slot",          "value",       "value_contains",
    "text_contains", "status",    "valid_from",    "valid_from_date", "valid_to_date",
    "time_phrase", "evidence_contains", "evidence_role", "flag"};

// Reads a list of strings; returns false (with `error`) when `value` is not one.
bool StringList(const json& value, std::vector<std::string>* out, std::string* error) {
  if (!value.is_array()) {
    *error = "must be an array of strings";
    return false;
  }
  for (const json& v : value) {
    if (!v.is_string()) {
      *error = "must be an array of strings";
      return false;
    }
    out->push_back(v.get<std::string>());
  }
  return true;
}

std::string ParseMatcher(const json& j, ClaimMatcher* m) {
  if (!j.is_object()) return "a claim matcher must be a JSON object";
  if (j.empty()) return "a claim matcher must name at least one field";
  m->source = j.dump();
  std::string error;
  for (const auto& [key, value] : j.items()) {
    if (kMatcherTextFields.count(key)) {
      if (!value.is_string()) return "claim matcher field \"" + key + "\" must be a string";
      m->text_fields[key] = value.get<std::string>();
    } else if (key == "valid_to") {
      m->has_valid_to = true;
      if (value.is_null()) continue;
      if (!value.is_string()) return "claim matcher field \"valid_to\" must be a string or null";
      m->valid_to = value.get<std::string>();
    } else if (key == "qualifiers") {
      std::vector<std::string> q;
      if (!StringList(value, &q, &error)) return "claim matcher field \"qualifiers\" " + error;
      std::sort(q.begin(), q.end());
      m->qualifiers = q;
    } else if (key == "qualifiers_include") {
      if (!StringList(value, &m->qualifiers_include, &error)) return "qualifiers_include " + error;
    } else if (key == "qualifiers_exclude") {
      if (!StringList(value, &m->qualifiers_exclude, &error)) return "qualifiers_exclude " + error;
    } else if (key == "evidence_count") {
      if (!value.is_number_integer()) return "claim matcher field \"evidence_count\" must be an integer";
      m->evidence_count = value.get<int>();
    } else {
      return "unknown claim matcher field \"" + key + "\"";
    }
  }
  return "";
}

// An object (one matcher) or an array of objects.
std::string ParseMatchers(const json& j, std::vector<ClaimMatcher>* out) {
  if (j.is_object()) {
    ClaimMatcher m;
    std::string error = ParseMatcher(j, &m);
    if (!error.empty()) return error;
    out->push_back(std::move(m));
    return "";
  }
  if (!j.is_array() || j.empty()) return "must be a claim matcher object or a non-empty array of them";
  for (const json& item : j) {
    ClaimMatcher m;
    std::string error = ParseMatcher(item, &m);
    if (!error.empty()) return error;
    out->push_back(std::move(m));
  }
  return "";
}

std::optional<TimestampMs> TimeOf(const std::string& text) {
  auto t = ParseTimestamp(text);
  if (!t) return std::nullopt;
  return *t;
}

bool Matches(const ClaimMatcher& m, const ClaimView& c) {
  for (const auto& [key, want] : m.text_fields) {
    if (key == "subject" && c.subject != want) return false;
    if (key == "predicate" && c.predicate != want) return false;
    if (key == "slot" && c.slot != want) return false;
    if (key == "value" && c.value != want) return false;
    if (key == "value_contains" && !Contains(c.value, want)) return false;
    if (key == "text_contains" && !Contains(c.text, want)) return false;
    if (key == "status" && c.status != want) return false;
    if (key == "time_phrase" && (!c.time_phrase || *c.time_phrase != want)) return false;
    if (key == "valid_from") {
      auto t = TimeOf(want);
      if (!t || c.valid_from != *t) return false;
    }
    if (key == "valid_from_date" && FormatTimestamp(c.valid_from).substr(0, 10) != want) return false;
    if (key == "valid_to_date" && (!c.valid_to || FormatTimestamp(*c.valid_to).substr(0, 10) != want)) {
      return false;
    }
    if (key == "evidence_contains" &&
        std::none_of(c.evidence.begin(), c.evidence.end(),
                     [&](const EvidenceView& e) { return Contains(e.content, want); })) {
      return false;
    }
    if (key == "evidence_role" &&
        std::none_of(c.evidence.begin(), c.evidence.end(),
                     [&](const EvidenceView& e) { return e.role == want; })) {
      return false;
    }
    if (key == "flag" && (!c.flags || !Has(*c.flags, want))) return false;
  }
  if (m.has_valid_to) {
    if (!m.valid_to) {
      if (c.valid_to) return false;
    } else {
      auto t = TimeOf(*m.valid_to);
      if (!t || !c.valid_to || *c.valid_to != *t) return false;
    }
  }
  if (m.qualifiers) {
    std::vector<std::string> q = c.qualifiers;
    std::sort(q.begin(), q.end());
    if (q != *m.qualifiers) return false;
  }
  for (const auto& q : m.qualifiers_include) {
    if (!Has(c.qualifiers, q)) return false;
  }
  for (const auto& q : m.qualifiers_exclude) {
    if (Has(c.qualifiers, q)) return false;
  }
  if (m.evidence_count && static_cast<int>(c.evidence.size()) != *m.evidence_count) return false;
  return true;
}

std::vector<ClaimView> Filter(const std::vector<ClaimView>& claims, const ClaimMatcher& m) {
  std::vector<ClaimView> out;
  for (const auto& c : claims) {
    if (Matches(m, c)) out.push_back(c);
  }
  return out;
}

void CheckClaimMatchers(const std::vector<ClaimMatcher>& expect, const std::vector<ClaimMatcher>& forbid,
                        const std::vector<ClaimView>& claims) {
  for (const ClaimMatcher& m : expect) {
    EXPECT_TRUE(std::any_of(claims.begin(), claims.end(), [&](const ClaimView& c) { return Matches(m, c); }))
        << "no claim matches " << m.source << "; " << ClaimListing(claims);
  }
  for (const ClaimMatcher& m : forbid) {
    EXPECT_TRUE(std::none_of(claims.begin(), claims.end(), [&](const ClaimView& c) { return Matches(m, c); }))
        << "a claim matches " << m.source << " (expect_no_claim); " << ClaimListing(claims);
  }
}

// Decision patterns: an exact code, or "prefix*" ("rejected:*").
bool DecisionMatches(const std::string& pattern, const std::string& decision) {
  if (!pattern.empty() && pattern.back() == '*') {
    return decision.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
  }
  return pattern == decision;
}

std::string Joined(const std::vector<std::string>& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + list[i];
  return out + "]";
}

void CheckDecisionLists(const std::optional<std::vector<std::string>>& exact,
                        const std::vector<std::string>& include, const std::vector<std::string>& only,
                        const std::vector<std::string>& got, const char* what) {
  if (exact) {
    bool same = exact->size() == got.size();
    for (size_t i = 0; same && i < got.size(); ++i) same = DecisionMatches((*exact)[i], got[i]);
    EXPECT_TRUE(same) << what << " are " << Joined(got) << ", expected " << Joined(*exact);
  }
  for (const auto& p : include) {
    EXPECT_TRUE(std::any_of(got.begin(), got.end(), [&](const std::string& d) { return DecisionMatches(p, d); }))
        << what << " " << Joined(got) << " do not include " << p;
  }
  if (!only.empty()) {
    for (const auto& d : got) {
      EXPECT_TRUE(std::any_of(only.begin(), only.end(), [&](const std::string& p) { return DecisionMatches(p, d); }))
          << what << " " << Joined(got) << ": \"" << d << "\" is not one of " << Joined(only);
    }
  }
}

// ---- the scenario format -----------------------------------------------------------------------

struct Step {
  int line = 0;
  std::string kind;
  std::string note;
  std::string source;  // the line as written, for failure messages

  // ingest, ingest_error
  json event;
  bool expect_duplicate = false;  // also remember

  // recall (and namespace for remember, claims, explain)
  std::string query;
  std::string namespace_name;
  std::string session;  // also remember
  int limit = 10;
  std::string match = "any";
  std::string as_of, known_as_of, since, until;
  std::string now;                // recall: when the question is asked (--now)
  std::optional<int> budget;      // recall: token budget (--budget)
  std::optional<std::string> expect_answerability;
  std::optional<bool> expect_truncated;
  bool include_history = false;  // also claims
  bool exclude_instruction_like = false;
  bool claims_only = false, events_only = false;
  std::vector<std::string> expect_contains;
  std::vector<std::string> expect_absent;
  std::vector<std::string> expect_exact;
  std::optional<std::string> expect_first;
  // [a, b]: some item contains a, and it ranks above every item that contains b (b may be absent).
  std::vector<std::string> expect_before;
  // A recall weight (RecallWeights) without which this step's expectations must fail: checked by
  // ScenarioChannelTest, which reruns the file through the library with that weight at 0.
  std::string needs_channel;
  std::optional<bool> expect_empty;
  std::optional<int> expect_count;  // also claims, jobs
  std::vector<std::string> expect_flagged;
  std::optional<int> expect_claim_count;
  std::optional<ClaimMatcher> expect_first_claim;

  // claim expectations: recall, remember, claims
  std::vector<ClaimMatcher> expect_claim, expect_no_claim;

  // remember
  std::string text, subject, predicate, value, at, speaker, idempotency_key;
  std::optional<std::vector<std::string>> expect_decisions;  // also explain
  std::vector<std::string> expect_decisions_include;         // also explain
  std::vector<std::string> expect_decisions_only;

  // process
  std::optional<int> expect_events, expect_claims_created, expect_claims_superseded, expect_jobs_failed;

  // claims
  std::optional<ClaimMatcher> claim_filter;  // "match"; explain: "claim"
  std::string expect_count_var;              // "$name": a count saved by an earlier claims step
  std::optional<int> expect_min_count;
  std::optional<std::vector<std::string>> expect_statuses;
  std::string save_count;

  // explain
  std::string pick = "only";
  std::optional<bool> expect_current;
  std::optional<int> expect_evidence_count, expect_chain_length;
  std::vector<std::string> expect_evidence_contains;
  std::optional<std::vector<std::string>> expect_evidence_relations, expect_chain_values,
      expect_history_actions;
  std::vector<std::string> expect_no_history_action;
  std::optional<std::string> expect_why_contains;

  // jobs
  std::string job_status;

  // forget and friends (tests/scenarios/README.md "Forget steps")
  std::optional<bool> expect_forgotten;   // ingest, remember (default false), get (required)
  std::string save_event, save_claims;    // remember: ids saved under a name ("$name")
  std::vector<std::string> ids;           // forget: literal ids or "$name"
  std::string id;                         // get, unforget, history: an id or "$name"
  bool all = false, yes = false, dry_run = false;
  std::string before;
  std::optional<int> expect_claims, expect_active_claims, expect_sessions, expect_already_forgotten;
  std::optional<bool> expect_preview;
  std::string save_stats, expect_same_as;

  // mark_time
  std::string name;

  // ingest_error, recall, remember
  std::optional<std::string> expect_error;

  std::string Where(const std::string& file) const {
    std::string w = file + ":" + std::to_string(line);
    if (!note.empty()) w += " (" + note + ")";
    return w + "\n  " + source;
  }
};

// The RecallWeights field of a channel name ("window" → &RecallWeights::window); null if unknown.
double RecallWeights::*ChannelWeight(const std::string& name) {
  static const std::map<std::string, double RecallWeights::*> kWeights = {
      {"turn", &RecallWeights::turn},       {"window", &RecallWeights::window},
      {"dense", &RecallWeights::dense},     {"date", &RecallWeights::date},
      {"speaker", &RecallWeights::speaker}, {"claims", &RecallWeights::claims},
      {"feedback", &RecallWeights::feedback}, {"reply", &RecallWeights::reply}};
  auto it = kWeights.find(name);
  return it == kWeights.end() ? nullptr : it->second;
}

const std::map<std::string, std::set<std::string>>& StepKeys() {
  static const std::map<std::string, std::set<std::string>> kKeys = {
      {"ingest", {"step", "note", "event", "expect_duplicate", "expect_forgotten"}},
      {"ingest_error", {"step", "note", "event", "expect_error"}},
      {"recall",
       {"step", "note", "query", "namespace", "session", "limit", "match", "as_of", "known_as_of", "since", "until",
        "now", "budget", "expect_answerability", "expect_truncated", "include_history", "exclude_instruction_like",
        "claims_only", "events_only", "expect_contains", "expect_absent",
        "expect_exact", "expect_first", "expect_empty", "expect_count", "expect_flagged",
        "expect_claim", "expect_no_claim", "expect_first_claim", "expect_claim_count", "expect_error",
        "expect_before", "needs_channel"}},
      {"remember",
       {"step", "note", "namespace", "text", "subject", "predicate", "value", "at", "speaker", "session",
        "idempotency_key", "expect_duplicate", "expect_forgotten", "save_event", "save_claims", "expect_decisions", "expect_decisions_include",
        "expect_decisions_only", "expect_claim", "expect_no_claim", "expect_error"}},
      {"process",
       {"step", "note", "expect_events", "expect_claims_created", "expect_claims_superseded",
        "expect_jobs_failed"}},
      {"claims",
       {"step", "note", "namespace", "subject", "include_history", "match", "expect_count",
        "expect_min_count", "expect_statuses", "expect_claim", "expect_no_claim", "save_count"}},
      {"explain",
       {"step", "note", "namespace", "claim", "pick", "expect_current", "expect_evidence_count",
        "expect_evidence_contains", "expect_evidence_relations", "expect_chain_length",
        "expect_chain_values", "expect_decisions", "expect_decisions_include", "expect_history_actions",
        "expect_no_history_action", "expect_why_contains"}},
      {"jobs", {"step", "note", "status", "expect_count"}},
      {"forget",
       {"step", "note", "namespace", "ids", "claim", "all", "session", "subject", "before", "query", "limit", "yes",
        "dry_run", "expect_events", "expect_claims", "expect_sessions", "expect_preview", "expect_already_forgotten",
        "expect_error"}},
      {"unforget", {"step", "note", "id", "expect_error"}},
      {"get", {"step", "note", "id", "expect_forgotten"}},
      {"history", {"step", "note", "id", "expect_actions"}},
      {"sessions_search", {"step", "note", "namespace", "query", "expect_empty", "expect_absent"}},
      {"stats",
       {"step", "note", "namespace", "expect_events", "expect_claims", "expect_active_claims", "save",
        "expect_same_as"}},
      {"compact", {"step", "note"}},
      {"backup", {"step", "note", "name"}},
      {"restore", {"step", "note", "name", "expect_error"}},
      {"export", {"step", "note", "name", "namespace"}},
      {"import", {"step", "note", "name", "expect_error"}},
      {"mark_time", {"step", "note", "name"}},
  };
  return kKeys;
}

// Checks the syntax of a time field: ISO-8601, or "$NAME" with an optional "+N"/"-N" offset in
// ms, s, m, h or d.
std::string CheckTimeSyntax(const std::string& key, const std::string& text) {
  if (text.empty()) return "";
  if (text[0] != '$') {
    return ParseTimestamp(text) ? "" : "\"" + key + "\" is not an ISO-8601 time or $VARIABLE: " + text;
  }
  size_t i = 1;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  if (i == 1) return "\"" + key + "\": a variable needs a name after '$'";
  if (i == text.size()) return "";
  if (text[i] != '+' && text[i] != '-') return "\"" + key + "\": bad offset in " + text;
  size_t j = i + 1;
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
  std::string unit = text.substr(j);
  if (j == i + 1 || (unit != "ms" && unit != "s" && unit != "m" && unit != "h" && unit != "d")) {
    return "\"" + key + "\": bad offset in " + text + " (use +N or -N with ms, s, m, h or d)";
  }
  return "";
}

// Parses one step; returns "" or a description of what is wrong with it.
std::string ParseStep(const json& j, Step* step) {
  if (!j.is_object()) return "a step must be a JSON object";
  if (!j.contains("step") || !j["step"].is_string()) return "missing \"step\"";
  step->kind = j["step"].get<std::string>();
  auto keys = StepKeys().find(step->kind);
  if (keys == StepKeys().end()) return "unknown step \"" + step->kind + "\"";
  for (const auto& [key, value] : j.items()) {
    if (!keys->second.count(key)) return "unknown key \"" + key + "\" for step " + step->kind;
  }
  auto string_field = [&](const char* key, std::string* out, bool required) -> std::string {
    if (!j.contains(key)) return required ? std::string("missing \"") + key + "\"" : "";
    if (!j[key].is_string()) return std::string("\"") + key + "\" must be a string";
    *out = j[key].get<std::string>();
    return "";
  };
  auto optional_string = [&](const char* key, std::optional<std::string>* out) -> std::string {
    if (!j.contains(key)) return "";
    std::string s;
    std::string e = string_field(key, &s, true);
    if (!e.empty()) return e;
    *out = s;
    return "";
  };
  auto bool_field = [&](const char* key, bool* out) -> std::string {
    if (!j.contains(key)) return "";
    if (!j[key].is_boolean()) return std::string("\"") + key + "\" must be a boolean";
    *out = j[key].get<bool>();
    return "";
  };
  auto optional_bool = [&](const char* key, std::optional<bool>* out) -> std::string {
    if (!j.contains(key)) return "";
    bool b = false;
    std::string e = bool_field(key, &b);
    if (!e.empty()) return e;
    *out = b;
    return "";
  };
  auto int_field = [&](const char* key, std::optional<int>* out) -> std::string {
    if (!j.contains(key)) return "";
    if (!j[key].is_number_integer()) return std::string("\"") + key + "\" must be an integer";
    *out = j[key].get<int>();
    return "";
  };
  auto list_field = [&](const char* key, std::vector<std::string>* out) -> std::string {
    std::string e;
    if (j.contains(key) && !StringList(j[key], out, &e)) return std::string(key) + " " + e;
    return "";
  };
  auto optional_list = [&](const char* key, std::optional<std::vector<std::string>>* out) -> std::string {
    if (!j.contains(key)) return "";
    std::vector<std::string> v;
    std::string e;
    if (!StringList(j[key], &v, &e)) return std::string(key) + " " + e;
    *out = v;
    return "";
  };
  auto matchers_field = [&](const char* key, std::vector<ClaimMatcher>* out) -> std::string {
    if (!j.contains(key)) return "";
    std::string e = ParseMatchers(j[key], out);
    return e.empty() ? "" : std::string(key) + ": " + e;
  };
  auto matcher_field = [&](const char* key, std::optional<ClaimMatcher>* out) -> std::string {
    if (!j.contains(key)) return "";
    ClaimMatcher m;
    std::string e = ParseMatcher(j[key], &m);
    if (!e.empty()) return std::string(key) + ": " + e;
    *out = std::move(m);
    return "";
  };
  auto check_matcher_times = [&](const std::vector<ClaimMatcher>& ms) -> std::string {
    for (const auto& m : ms) {
      auto it = m.text_fields.find("valid_from");
      if (it != m.text_fields.end()) {
        if (std::string e = CheckTimeSyntax("valid_from", it->second); !e.empty()) return e;
      }
      if (m.valid_to) {
        if (std::string e = CheckTimeSyntax("valid_to", *m.valid_to); !e.empty()) return e;
      }
    }
    return "";
  };
  std::string error;
#define ENGRAM_STEP_TRY(expr) \
  if ((error = (expr)) != "") return error
  ENGRAM_STEP_TRY(string_field("note", &step->note, false));

  if (step->kind == "ingest" || step->kind == "ingest_error") {
    if (!j.contains("event") || !j["event"].is_object()) return "\"event\" must be an object";
    step->event = j["event"];
    if (step->kind == "ingest_error") {
      std::string e;
      ENGRAM_STEP_TRY(string_field("expect_error", &e, true));
      if (e.empty()) return "\"expect_error\" must not be empty";
      step->expect_error = e;
    } else {
      ENGRAM_STEP_TRY(bool_field("expect_duplicate", &step->expect_duplicate));
      ENGRAM_STEP_TRY(optional_bool("expect_forgotten", &step->expect_forgotten));
    }
    return "";
  }

  if (step->kind == "compact") return "";
  if (step->kind == "backup" || step->kind == "restore" || step->kind == "export" || step->kind == "import") {
    ENGRAM_STEP_TRY(string_field("name", &step->name, true));
    if (step->kind == "export") ENGRAM_STEP_TRY(string_field("namespace", &step->namespace_name, false));
    if (step->kind == "restore" || step->kind == "import") {
      ENGRAM_STEP_TRY(optional_string("expect_error", &step->expect_error));
    }
    return "";
  }
  if (step->kind == "get" || step->kind == "unforget" || step->kind == "history") {
    ENGRAM_STEP_TRY(string_field("id", &step->id, true));
    if (step->kind == "get") {
      ENGRAM_STEP_TRY(optional_bool("expect_forgotten", &step->expect_forgotten));
      if (!step->expect_forgotten) return "get needs \"expect_forgotten\"";
    }
    if (step->kind == "unforget") ENGRAM_STEP_TRY(optional_string("expect_error", &step->expect_error));
    if (step->kind == "history") {
      ENGRAM_STEP_TRY(optional_list("expect_actions", &step->expect_history_actions));
      if (!step->expect_history_actions) return "history needs \"expect_actions\"";
    }
    return "";
  }
  if (step->kind == "forget") {
    ENGRAM_STEP_TRY(string_field("namespace", &step->namespace_name, false));
    ENGRAM_STEP_TRY(list_field("ids", &step->ids));
    ENGRAM_STEP_TRY(matcher_field("claim", &step->claim_filter));
    if (step->claim_filter && step->namespace_name.empty()) return "\"claim\" needs \"namespace\"";
    ENGRAM_STEP_TRY(bool_field("all", &step->all));
    ENGRAM_STEP_TRY(string_field("session", &step->session, false));
    ENGRAM_STEP_TRY(string_field("subject", &step->subject, false));
    ENGRAM_STEP_TRY(string_field("before", &step->before, false));
    ENGRAM_STEP_TRY(CheckTimeSyntax("before", step->before));
    ENGRAM_STEP_TRY(string_field("query", &step->query, false));
    if (j.contains("limit")) {
      if (!j["limit"].is_number_integer()) return "\"limit\" must be an integer";
      step->limit = j["limit"].get<int>();
    }
    ENGRAM_STEP_TRY(bool_field("yes", &step->yes));
    ENGRAM_STEP_TRY(bool_field("dry_run", &step->dry_run));
    ENGRAM_STEP_TRY(int_field("expect_events", &step->expect_events));
    ENGRAM_STEP_TRY(int_field("expect_claims", &step->expect_claims));
    ENGRAM_STEP_TRY(int_field("expect_sessions", &step->expect_sessions));
    ENGRAM_STEP_TRY(int_field("expect_already_forgotten", &step->expect_already_forgotten));
    ENGRAM_STEP_TRY(optional_bool("expect_preview", &step->expect_preview));
    ENGRAM_STEP_TRY(optional_string("expect_error", &step->expect_error));
    if (step->expect_error) {
      for (const auto& [key, value] : j.items()) {
        if (key.rfind("expect_", 0) == 0 && key != "expect_error") {
          return "\"expect_error\" cannot be combined with other expectations";
        }
      }
    }
    return "";
  }

  if (step->kind == "mark_time") {
    ENGRAM_STEP_TRY(string_field("name", &step->name, true));
    if (CheckTimeSyntax("name", "$" + step->name) != "" || step->name.empty()) {
      return "\"name\" must be letters, digits and '_'";
    }
    return "";
  }

  if (step->kind == "jobs") {
    ENGRAM_STEP_TRY(string_field("status", &step->job_status, false));
    ENGRAM_STEP_TRY(int_field("expect_count", &step->expect_count));
    return "";
  }

  if (step->kind == "process") {
    ENGRAM_STEP_TRY(int_field("expect_events", &step->expect_events));
    ENGRAM_STEP_TRY(int_field("expect_claims_created", &step->expect_claims_created));
    ENGRAM_STEP_TRY(int_field("expect_claims_superseded", &step->expect_claims_superseded));
    ENGRAM_STEP_TRY(int_field("expect_jobs_failed", &step->expect_jobs_failed));
    return "";
  }

  // Every other step is about one namespace.
  ENGRAM_STEP_TRY(string_field("namespace", &step->namespace_name, true));
  ENGRAM_STEP_TRY(matchers_field("expect_claim", &step->expect_claim));
  ENGRAM_STEP_TRY(matchers_field("expect_no_claim", &step->expect_no_claim));
  ENGRAM_STEP_TRY(check_matcher_times(step->expect_claim));
  ENGRAM_STEP_TRY(check_matcher_times(step->expect_no_claim));

  if (step->kind == "sessions_search") {
    ENGRAM_STEP_TRY(string_field("query", &step->query, true));
    ENGRAM_STEP_TRY(optional_bool("expect_empty", &step->expect_empty));
    ENGRAM_STEP_TRY(list_field("expect_absent", &step->expect_absent));
    return "";
  }
  if (step->kind == "stats") {
    ENGRAM_STEP_TRY(int_field("expect_events", &step->expect_events));
    ENGRAM_STEP_TRY(int_field("expect_claims", &step->expect_claims));
    ENGRAM_STEP_TRY(int_field("expect_active_claims", &step->expect_active_claims));
    ENGRAM_STEP_TRY(string_field("save", &step->save_stats, false));
    ENGRAM_STEP_TRY(string_field("expect_same_as", &step->expect_same_as, false));
    return "";
  }

  if (step->kind == "remember") {
    ENGRAM_STEP_TRY(optional_bool("expect_forgotten", &step->expect_forgotten));
    ENGRAM_STEP_TRY(string_field("save_event", &step->save_event, false));
    ENGRAM_STEP_TRY(string_field("save_claims", &step->save_claims, false));
    for (auto [key, out] : {std::pair{"text", &step->text}, std::pair{"subject", &step->subject},
                            std::pair{"predicate", &step->predicate}, std::pair{"value", &step->value},
                            std::pair{"at", &step->at}, std::pair{"speaker", &step->speaker},
                            std::pair{"session", &step->session},
                            std::pair{"idempotency_key", &step->idempotency_key}}) {
      ENGRAM_STEP_TRY(string_field(key, out, false));
    }
    // A bad time is allowed only where the step expects the error it causes.
    if (!j.contains("expect_error")) ENGRAM_STEP_TRY(CheckTimeSyntax("at", step->at));
    const bool structured = j.contains("subject") || j.contains("predicate") || j.contains("value");
    if (!j.contains("text") && !structured && !j.contains("expect_error")) {
      return "remember needs \"text\" or \"subject\", \"predicate\" and \"value\"";
    }
    ENGRAM_STEP_TRY(bool_field("expect_duplicate", &step->expect_duplicate));
    ENGRAM_STEP_TRY(optional_list("expect_decisions", &step->expect_decisions));
    ENGRAM_STEP_TRY(list_field("expect_decisions_include", &step->expect_decisions_include));
    ENGRAM_STEP_TRY(list_field("expect_decisions_only", &step->expect_decisions_only));
    ENGRAM_STEP_TRY(optional_string("expect_error", &step->expect_error));
    if (step->expect_error &&
        (j.contains("expect_duplicate") || j.contains("expect_decisions") || j.contains("expect_decisions_include") ||
         j.contains("expect_decisions_only") || j.contains("expect_claim") || j.contains("expect_no_claim"))) {
      return "\"expect_error\" cannot be combined with other expectations";
    }
    return "";
  }

  if (step->kind == "claims") {
    ENGRAM_STEP_TRY(string_field("subject", &step->subject, false));
    ENGRAM_STEP_TRY(bool_field("include_history", &step->include_history));
    ENGRAM_STEP_TRY(matcher_field("match", &step->claim_filter));
    if (j.contains("expect_count")) {
      if (j["expect_count"].is_string()) {
        step->expect_count_var = j["expect_count"].get<std::string>();
        if (step->expect_count_var.size() < 2 || step->expect_count_var[0] != '$') {
          return "\"expect_count\" must be an integer or \"$name\" of a saved count";
        }
      } else {
        ENGRAM_STEP_TRY(int_field("expect_count", &step->expect_count));
      }
    }
    ENGRAM_STEP_TRY(int_field("expect_min_count", &step->expect_min_count));
    ENGRAM_STEP_TRY(optional_list("expect_statuses", &step->expect_statuses));
    if (step->expect_statuses) std::sort(step->expect_statuses->begin(), step->expect_statuses->end());
    ENGRAM_STEP_TRY(string_field("save_count", &step->save_count, false));
    return "";
  }

  if (step->kind == "explain") {
    if (!j.contains("claim")) return "missing \"claim\" (a claim matcher selecting the claim to explain)";
    ENGRAM_STEP_TRY(matcher_field("claim", &step->claim_filter));
    ENGRAM_STEP_TRY(string_field("pick", &step->pick, false));
    if (step->pick != "only" && step->pick != "first" && step->pick != "last") {
      return "\"pick\" must be \"only\", \"first\" or \"last\"";
    }
    ENGRAM_STEP_TRY(optional_bool("expect_current", &step->expect_current));
    ENGRAM_STEP_TRY(int_field("expect_evidence_count", &step->expect_evidence_count));
    ENGRAM_STEP_TRY(list_field("expect_evidence_contains", &step->expect_evidence_contains));
    ENGRAM_STEP_TRY(optional_list("expect_evidence_relations", &step->expect_evidence_relations));
    if (step->expect_evidence_relations) {
      std::sort(step->expect_evidence_relations->begin(), step->expect_evidence_relations->end());
    }
    ENGRAM_STEP_TRY(int_field("expect_chain_length", &step->expect_chain_length));
    ENGRAM_STEP_TRY(optional_list("expect_chain_values", &step->expect_chain_values));
    ENGRAM_STEP_TRY(optional_list("expect_decisions", &step->expect_decisions));
    ENGRAM_STEP_TRY(list_field("expect_decisions_include", &step->expect_decisions_include));
    ENGRAM_STEP_TRY(optional_list("expect_history_actions", &step->expect_history_actions));
    ENGRAM_STEP_TRY(list_field("expect_no_history_action", &step->expect_no_history_action));
    ENGRAM_STEP_TRY(optional_string("expect_why_contains", &step->expect_why_contains));
    return "";
  }

  // recall
  ENGRAM_STEP_TRY(string_field("query", &step->query, true));
  ENGRAM_STEP_TRY(string_field("session", &step->session, false));
  ENGRAM_STEP_TRY(string_field("match", &step->match, false));
  if (step->match != "any" && step->match != "all") return "\"match\" must be \"any\" or \"all\"";
  if (j.contains("limit")) {
    if (!j["limit"].is_number_integer()) return "\"limit\" must be an integer";
    step->limit = j["limit"].get<int>();
  }
  ENGRAM_STEP_TRY(string_field("as_of", &step->as_of, false));
  ENGRAM_STEP_TRY(string_field("known_as_of", &step->known_as_of, false));
  ENGRAM_STEP_TRY(CheckTimeSyntax("as_of", step->as_of));
  ENGRAM_STEP_TRY(CheckTimeSyntax("known_as_of", step->known_as_of));
  ENGRAM_STEP_TRY(string_field("now", &step->now, false));
  ENGRAM_STEP_TRY(CheckTimeSyntax("now", step->now));
  ENGRAM_STEP_TRY(int_field("budget", &step->budget));
  ENGRAM_STEP_TRY(optional_string("expect_answerability", &step->expect_answerability));
  ENGRAM_STEP_TRY(optional_bool("expect_truncated", &step->expect_truncated));
  ENGRAM_STEP_TRY(string_field("since", &step->since, false));
  ENGRAM_STEP_TRY(string_field("until", &step->until, false));
  ENGRAM_STEP_TRY(CheckTimeSyntax("since", step->since));
  ENGRAM_STEP_TRY(CheckTimeSyntax("until", step->until));
  ENGRAM_STEP_TRY(bool_field("include_history", &step->include_history));
  ENGRAM_STEP_TRY(bool_field("exclude_instruction_like", &step->exclude_instruction_like));
  ENGRAM_STEP_TRY(bool_field("claims_only", &step->claims_only));
  ENGRAM_STEP_TRY(bool_field("events_only", &step->events_only));
  if (step->claims_only && step->events_only) return "\"claims_only\" and \"events_only\" exclude each other";
  ENGRAM_STEP_TRY(list_field("expect_contains", &step->expect_contains));
  ENGRAM_STEP_TRY(list_field("expect_absent", &step->expect_absent));
  ENGRAM_STEP_TRY(list_field("expect_exact", &step->expect_exact));
  ENGRAM_STEP_TRY(list_field("expect_flagged", &step->expect_flagged));
  ENGRAM_STEP_TRY(optional_string("expect_first", &step->expect_first));
  ENGRAM_STEP_TRY(list_field("expect_before", &step->expect_before));
  if (j.contains("expect_before") && step->expect_before.size() != 2) {
    return "\"expect_before\" must list exactly two substrings";
  }
  ENGRAM_STEP_TRY(string_field("needs_channel", &step->needs_channel, false));
  if (j.contains("needs_channel") && !ChannelWeight(step->needs_channel)) {
    return "\"needs_channel\": unknown channel \"" + step->needs_channel +
           "\" (expected one of: turn, window, dense, date, speaker, claims, feedback)";
  }
  ENGRAM_STEP_TRY(optional_bool("expect_empty", &step->expect_empty));
  ENGRAM_STEP_TRY(int_field("expect_count", &step->expect_count));
  ENGRAM_STEP_TRY(int_field("expect_claim_count", &step->expect_claim_count));
  ENGRAM_STEP_TRY(matcher_field("expect_first_claim", &step->expect_first_claim));
  if (j.contains("expect_error")) {
    std::string s;
    ENGRAM_STEP_TRY(string_field("expect_error", &s, true));
    if (s.empty()) return "\"expect_error\" must not be empty";
    step->expect_error = s;
    for (const auto& [key, value] : j.items()) {
      if (key.rfind("expect_", 0) == 0 && key != "expect_error") {
        return "\"expect_error\" cannot be combined with other expectations";
      }
    }
  }
#undef ENGRAM_STEP_TRY
  return "";
}

// Parses a whole scenario text; returns "" or "line N: problem".
std::string ParseScenario(const std::string& text, std::vector<Step>* steps) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  std::set<std::string> time_names;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return "line " + std::to_string(number) + ": not valid JSON";
    Step step;
    step.line = number;
    step.source = line;
    std::string error = ParseStep(j, &step);
    if (!error.empty()) return "line " + std::to_string(number) + ": " + error;
    steps->push_back(std::move(step));
  }
  if (steps->empty()) return "no steps";
  return "";
}

std::vector<std::string> ScenarioFiles() {
  std::vector<std::string> files;
  if (DIR* dir = opendir(kScenarioDir.c_str())) {
    while (dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 6 && name.substr(name.size() - 6) == ".jsonl") files.push_back(name);
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ---- time variables ----------------------------------------------------------------------------

using TimeVars = std::map<std::string, TimestampMs>;

// Resolves "$NAME[+-N unit]" against `vars`; other text is returned unchanged. Sets `error` when
// the variable was never marked.
std::string ResolveTime(const std::string& text, const TimeVars& vars, std::string* error) {
  if (text.empty() || text[0] != '$') return text;
  size_t i = 1;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  const std::string name = text.substr(1, i - 1);
  auto it = vars.find(name);
  if (it == vars.end()) {
    *error = "time variable $" + name + " is used before a mark_time step sets it";
    return text;
  }
  TimestampMs t = it->second;
  if (i < text.size()) {
    const int64_t sign = text[i] == '-' ? -1 : 1;
    size_t j = i + 1;
    int64_t n = 0;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) n = n * 10 + (text[j++] - '0');
    const std::string unit = text.substr(j);
    const int64_t scale = unit == "ms" ? 1 : unit == "s" ? 1000 : unit == "m" ? 60000 : unit == "h" ? 3600000 : 86400000;
    t += sign * n * scale;
  }
  return FormatTimestamp(t);
}

// A copy of `step` with every time variable resolved.
Step ResolveStep(const Step& step, const TimeVars& vars, std::string* error) {
  Step out = step;
  out.at = ResolveTime(step.at, vars, error);
  out.as_of = ResolveTime(step.as_of, vars, error);
  out.known_as_of = ResolveTime(step.known_as_of, vars, error);
  out.since = ResolveTime(step.since, vars, error);
  out.now = ResolveTime(step.now, vars, error);
  out.until = ResolveTime(step.until, vars, error);
  out.before = ResolveTime(step.before, vars, error);
  auto fix = [&](ClaimMatcher& m) {
    auto it = m.text_fields.find("valid_from");
    if (it != m.text_fields.end()) it->second = ResolveTime(it->second, vars, error);
    if (m.valid_to) m.valid_to = ResolveTime(*m.valid_to, vars, error);
  };
  for (auto& m : out.expect_claim) fix(m);
  for (auto& m : out.expect_no_claim) fix(m);
  if (out.expect_first_claim) fix(*out.expect_first_claim);
  if (out.claim_filter) fix(*out.claim_filter);
  return out;
}

// ---- what the interfaces return ----------------------------------------------------------------

struct RecallOutcome {
  bool ok = false;
  std::string error;                             // when !ok
  std::vector<std::string> texts;                // item texts, best first (events and claims)
  // Per item: its text plus, for a claim, the content of its `supports` evidence events. Recall
  // folds an event into the claim read from it, so "this memory came back" looks at both.
  std::vector<std::string> memories;
  std::vector<std::vector<std::string>> flags;   // per item
  std::vector<ClaimView> claims;                 // the claim items, best first
  std::string answerability;
  bool truncated = false;
};

struct RememberOutcome {
  bool ok = false;
  std::string error;
  bool duplicate = false;
  bool forgotten = false;
  std::string event_id;
  std::vector<std::string> decisions;
  std::vector<ClaimView> claims;
};

struct ProcessOutcome {
  bool ok = false;
  std::string error;
  int64_t events = 0, claims_created = 0, claims_superseded = 0, jobs_failed = 0;
  std::vector<std::string> errors;
};

struct ClaimsOutcome {
  bool ok = false;
  std::string error;
  std::vector<ClaimView> claims;
};

struct ExplainOutcome {
  bool ok = false;
  std::string error;
  ClaimView claim;
  bool current = false;
  std::string why;
  std::vector<std::string> chain_values;
  std::vector<std::string> decisions;
  std::vector<std::string> history_actions;
};

struct ForgetOutcome {
  bool ok = false;
  std::string error;
  int64_t events = 0, claims = 0, sessions = 0, already = 0;
  bool preview = false;
};

struct GetOutcome {
  bool ok = false;  // found, or forgotten
  std::string error;
  bool forgotten = false;
};

struct CountsOutcome {
  bool ok = false;
  std::string error;
  int64_t events = 0, claims = 0, active_claims = 0;
  bool operator==(const CountsOutcome&) const = default;
};

struct JobsOutcome {
  bool ok = false;
  std::string error;
  std::vector<std::string> statuses;
};

std::string Listing(const std::vector<std::string>& texts) {
  std::string out = "returned " + std::to_string(texts.size()) + " item(s):";
  for (size_t i = 0; i < texts.size(); ++i) out += "\n    " + std::to_string(i) + ". " + texts[i];
  return out;
}

// ---- checking results --------------------------------------------------------------------------

void CheckRecall(const Step& step, const RecallOutcome& got) {
  if (step.expect_error) {
    EXPECT_FALSE(got.ok) << "expected an error containing \"" << *step.expect_error << "\"; "
                         << Listing(got.texts);
    EXPECT_TRUE(Contains(got.error, *step.expect_error))
        << "error \"" << got.error << "\" does not contain \"" << *step.expect_error << "\"";
    return;
  }
  ASSERT_TRUE(got.ok) << "recall failed: " << got.error;
  const std::vector<std::string>& texts = got.texts;
  const std::vector<std::string>& memories = got.memories;
  EXPECT_LE(texts.size(), static_cast<size_t>(step.limit)) << Listing(texts);
  for (const std::string& s : step.expect_contains) {
    EXPECT_TRUE(std::any_of(memories.begin(), memories.end(), [&](auto& t) { return Contains(t, s); }))
        << "no item (or its supporting evidence) contains \"" << s << "\"; " << Listing(memories);
  }
  for (const std::string& s : step.expect_absent) {
    EXPECT_FALSE(std::any_of(memories.begin(), memories.end(), [&](auto& t) { return Contains(t, s); }))
        << "an item (or its supporting evidence) contains \"" << s << "\"; " << Listing(memories);
  }
  for (const std::string& s : step.expect_exact) {
    EXPECT_TRUE(std::find(texts.begin(), texts.end(), s) != texts.end())
        << "no item is exactly \"" << s << "\"; " << Listing(texts);
  }
  if (step.expect_answerability) {
    EXPECT_EQ(got.answerability, *step.expect_answerability) << Listing(texts);
  }
  if (step.expect_truncated) {
    EXPECT_EQ(got.truncated, *step.expect_truncated) << Listing(texts);
  }
  if (step.expect_first) {
    EXPECT_TRUE(!texts.empty() && Contains(texts.front(), *step.expect_first))
        << "the first item does not contain \"" << *step.expect_first << "\"; " << Listing(texts);
  }
  if (!step.expect_before.empty()) {
    const std::string& above = step.expect_before[0];
    const std::string& below = step.expect_before[1];
    auto first = [&](const std::string& s) {
      return std::find_if(texts.begin(), texts.end(), [&](const std::string& t) { return Contains(t, s); }) -
             texts.begin();
    };
    const auto a = first(above), b = first(below);
    EXPECT_TRUE(a < static_cast<std::ptrdiff_t>(texts.size()) && a < b)
        << "no item containing \"" << above << "\" ranks above every item containing \"" << below << "\"; "
        << Listing(texts);
  }
  if (step.expect_empty) {
    EXPECT_EQ(texts.empty(), *step.expect_empty) << Listing(texts);
  }
  if (step.expect_count) {
    EXPECT_EQ(texts.size(), static_cast<size_t>(*step.expect_count)) << Listing(texts);
  }
  for (const std::string& s : step.expect_flagged) {
    int found = 0;
    for (size_t i = 0; i < texts.size(); ++i) {
      if (!Contains(texts[i], s)) continue;
      ++found;
      EXPECT_TRUE(Has(got.flags[i], "instruction_like"))
          << "item " << i << " contains \"" << s << "\" but is not flagged instruction_like; " << Listing(texts);
    }
    EXPECT_GT(found, 0) << "no item contains \"" << s << "\"; " << Listing(texts);
  }
  CheckClaimMatchers(step.expect_claim, step.expect_no_claim, got.claims);
  if (step.expect_first_claim) {
    EXPECT_TRUE(!got.claims.empty() && Matches(*step.expect_first_claim, got.claims.front()))
        << "the first claim does not match " << step.expect_first_claim->source << "; "
        << ClaimListing(got.claims);
  }
  if (step.expect_claim_count) {
    EXPECT_EQ(got.claims.size(), static_cast<size_t>(*step.expect_claim_count)) << ClaimListing(got.claims);
  }
}

void CheckRemember(const Step& step, const RememberOutcome& got) {
  if (step.expect_error) {
    EXPECT_FALSE(got.ok) << "expected an error containing \"" << *step.expect_error << "\"";
    EXPECT_TRUE(Contains(got.error, *step.expect_error))
        << "error \"" << got.error << "\" does not contain \"" << *step.expect_error << "\"";
    return;
  }
  ASSERT_TRUE(got.ok) << "remember failed: " << got.error;
  EXPECT_EQ(got.forgotten, step.expect_forgotten.value_or(false)) << "decisions " << Joined(got.decisions);
  EXPECT_EQ(got.duplicate, step.expect_duplicate)
      << "decisions " << Joined(got.decisions) << "; " << ClaimListing(got.claims);
  CheckDecisionLists(step.expect_decisions, step.expect_decisions_include, step.expect_decisions_only,
                     got.decisions, "decisions");
  CheckClaimMatchers(step.expect_claim, step.expect_no_claim, got.claims);
}

void CheckProcess(const Step& step, const ProcessOutcome& got) {
  ASSERT_TRUE(got.ok) << "process failed: " << got.error;
  const int expected_failed = step.expect_jobs_failed.value_or(0);
  EXPECT_EQ(got.jobs_failed, expected_failed) << "errors " << Joined(got.errors);
  if (expected_failed == 0) {
    EXPECT_TRUE(got.errors.empty()) << Joined(got.errors);
  }
  if (step.expect_events) {
    EXPECT_EQ(got.events, *step.expect_events);
  }
  if (step.expect_claims_created) {
    EXPECT_EQ(got.claims_created, *step.expect_claims_created);
  }
  if (step.expect_claims_superseded) {
    EXPECT_EQ(got.claims_superseded, *step.expect_claims_superseded);
  }
}

void CheckClaims(const Step& step, const ClaimsOutcome& got, std::map<std::string, int64_t>* counts) {
  ASSERT_TRUE(got.ok) << "claims failed: " << got.error;
  std::vector<ClaimView> matched = step.claim_filter ? Filter(got.claims, *step.claim_filter) : got.claims;
  const std::string what = step.claim_filter ? "claims matching " + step.claim_filter->source : "claims";
  if (step.expect_count) {
    EXPECT_EQ(matched.size(), static_cast<size_t>(*step.expect_count)) << what << "; " << ClaimListing(got.claims);
  }
  if (!step.expect_count_var.empty()) {
    auto it = counts->find(step.expect_count_var.substr(1));
    if (it == counts->end()) {
      ADD_FAILURE() << "count " << step.expect_count_var << " was never saved (save_count)";
    } else {
      EXPECT_EQ(static_cast<int64_t>(matched.size()), it->second)
          << what << " (expected the saved count " << step.expect_count_var << "); " << ClaimListing(got.claims);
    }
  }
  if (step.expect_min_count) {
    EXPECT_GE(matched.size(), static_cast<size_t>(*step.expect_min_count)) << what << "; " << ClaimListing(got.claims);
  }
  if (step.expect_statuses) {
    std::vector<std::string> statuses;
    for (const auto& c : matched) statuses.push_back(c.status);
    std::sort(statuses.begin(), statuses.end());
    EXPECT_EQ(statuses, *step.expect_statuses) << what << "; " << ClaimListing(got.claims);
  }
  CheckClaimMatchers(step.expect_claim, step.expect_no_claim, got.claims);
  if (!step.save_count.empty()) (*counts)[step.save_count] = static_cast<int64_t>(matched.size());
}

void CheckExplain(const Step& step, const ExplainOutcome& got) {
  ASSERT_TRUE(got.ok) << "explain failed: " << got.error;
  const std::string about = "explained claim " + Describe(got.claim) + "\n  why: " + got.why +
                            "\n  chain " + Joined(got.chain_values) + "\n  decisions " + Joined(got.decisions) +
                            "\n  history " + Joined(got.history_actions);
  if (step.expect_current) {
    EXPECT_EQ(got.current, *step.expect_current) << about;
  }
  if (step.expect_evidence_count) {
    EXPECT_EQ(got.claim.evidence.size(), static_cast<size_t>(*step.expect_evidence_count)) << about;
  }
  for (const auto& s : step.expect_evidence_contains) {
    EXPECT_TRUE(std::any_of(got.claim.evidence.begin(), got.claim.evidence.end(),
                            [&](const EvidenceView& e) { return Contains(e.content, s); }))
        << "no evidence event contains \"" << s << "\"; " << about;
  }
  if (step.expect_evidence_relations) {
    std::vector<std::string> relations;
    for (const auto& e : got.claim.evidence) relations.push_back(e.relation);
    std::sort(relations.begin(), relations.end());
    EXPECT_EQ(relations, *step.expect_evidence_relations) << about;
  }
  if (step.expect_chain_length) {
    EXPECT_EQ(got.chain_values.size(), static_cast<size_t>(*step.expect_chain_length)) << about;
  }
  if (step.expect_chain_values) {
    EXPECT_EQ(got.chain_values, *step.expect_chain_values) << about;
  }
  CheckDecisionLists(step.expect_decisions, step.expect_decisions_include, {}, got.decisions, "explain decisions");
  if (step.expect_history_actions) {
    EXPECT_EQ(got.history_actions, *step.expect_history_actions) << about;
  }
  for (const auto& a : step.expect_no_history_action) {
    EXPECT_FALSE(Has(got.history_actions, a)) << "history has \"" << a << "\"; " << about;
  }
  if (step.expect_why_contains) {
    EXPECT_TRUE(Contains(got.why, *step.expect_why_contains)) << about;
  }
}

// ---- the two interfaces ------------------------------------------------------------------------

class Backend {
 public:
  virtual ~Backend() = default;
  virtual void Ingest(const Step& step) = 0;
  virtual void IngestError(const Step& step) = 0;
  virtual RecallOutcome Recall(const Step& step) = 0;
  virtual RememberOutcome Remember(const Step& step) = 0;
  virtual ProcessOutcome Process() = 0;
  virtual ClaimsOutcome ListClaims(const std::string& ns, const std::string& subject, bool include_history) = 0;
  virtual ExplainOutcome Explain(const std::string& id) = 0;
  virtual JobsOutcome Jobs(const std::string& status) = 0;
  virtual ForgetOutcome Forget(const Step& step, const std::vector<std::string>& ids) = 0;
  virtual std::string Unforget(const std::string& id) = 0;  // "" or the error
  virtual GetOutcome Get(const std::string& id) = 0;
  virtual std::vector<std::string> HistoryActions(const std::string& id, std::string* error) = 0;
  virtual RecallOutcome SessionsSearch(const std::string& ns, const std::string& query) = 0;
  virtual CountsOutcome Counts(const std::string& ns) = 0;
  virtual std::string Compact() = 0;  // "" or the error
  // backup / restore / export / import of the file named by the step (docs/backup.md): "" or the
  // error. Restore closes and reopens the database around Engine::Restore.
  virtual std::string Dump(const std::string& op, const std::string& name, const std::string& ns) = 0;
  // Called before every step that is not an ingest, and at the end.
  virtual void Flush() {}
  virtual void CheckDoctor() = 0;
};

ClaimView ViewOf(const Claim& c) {
  ClaimView v;
  v.id = c.id;
  v.subject = c.subject;
  v.predicate = c.predicate;
  v.slot = c.slot;
  v.value = c.value;
  v.text = c.text;
  v.status = c.status;
  v.qualifiers = c.qualifiers;
  v.valid_from = c.valid_from;
  v.valid_to = c.valid_to;
  v.time_phrase = c.time_phrase;
  for (const auto& e : c.evidence) v.evidence.push_back({e.event_id, e.relation, e.role, e.content});
  return v;
}

ClaimView ViewOf(const RecallItem& it) {
  ClaimView v;
  v.id = it.id;
  v.subject = it.subject;
  v.predicate = it.predicate;
  v.slot = it.slot;
  v.value = it.value;
  v.text = it.text;
  v.status = it.status;
  v.qualifiers = it.qualifiers;
  v.valid_from = it.valid_from;
  v.valid_to = it.valid_to;
  v.flags = it.flags;
  for (const auto& e : it.evidence) v.evidence.push_back({e.event_id, e.relation, e.role, e.content});
  return v;
}

class LibraryBackend : public Backend {
 public:
  // `configure` (optional) changes the default Options before every open (ScenarioChannelTest
  // zeroes a recall weight with it).
  explicit LibraryBackend(const std::string& db_path, std::function<void(Options&)> configure = nullptr)
      : db_path_(db_path), configure_(std::move(configure)) {
    unsetenv("ENGRAM_EXTRACTOR");  // the default (rules) extractor, as in the CLI runs
    auto engine = OpenEngine();
    EXPECT_TRUE(engine.has_value()) << engine.error().ToString();
    if (engine) engine_ = std::move(*engine);
  }

  Result<std::unique_ptr<Engine>> OpenEngine() const {
    Options options;
    options.db_path = db_path_;
    if (configure_) configure_(options);
    return Engine::Open(options);
  }
  bool ready() const { return engine_ != nullptr; }

  void Ingest(const Step& step) override {
    auto input = EventInputFromJson(step.event);
    ASSERT_TRUE(input.has_value()) << input.error().ToString();
    ASSERT_OK(Engine::ValidateEvent(*input));
    auto result = engine_->Ingest(*input);
    ASSERT_OK(result);
    EXPECT_EQ(result->duplicate, step.expect_duplicate);
    EXPECT_EQ(result->forgotten, step.expect_forgotten.value_or(false));
    EXPECT_EQ(result->event.content, input->content);
  }

  void IngestError(const Step& step) override {
    auto before = engine_->Stats();
    ASSERT_OK(before);
    auto input = EventInputFromJson(step.event);
    if (!input) {
      // Rejected by the wire format already (wrong JSON type, unknown field).
      EXPECT_EQ(input.error().code(), StatusCode::kInvalidArgument);
      EXPECT_THAT(input.error().message(), ::testing::HasSubstr(*step.expect_error));
      return;
    }
    Status validated = Engine::ValidateEvent(*input);
    EXPECT_EQ(validated.code(), StatusCode::kInvalidArgument) << validated.ToString();
    EXPECT_THAT(validated.message(), ::testing::HasSubstr(*step.expect_error));

    auto result = engine_->Ingest(*input);
    ASSERT_FALSE(result.has_value()) << "stored as " << result->event.id;
    EXPECT_EQ(result.error().code(), StatusCode::kInvalidArgument) << result.error().ToString();
    EXPECT_THAT(result.error().message(), ::testing::HasSubstr(*step.expect_error));

    auto batch = engine_->IngestBatch({*input});
    ASSERT_FALSE(batch.has_value());
    EXPECT_EQ(batch.error().code(), StatusCode::kInvalidArgument) << batch.error().ToString();
    EXPECT_THAT(batch.error().message(), ::testing::HasSubstr(*step.expect_error));

    auto after = engine_->Stats();
    ASSERT_OK(after);
    EXPECT_EQ(after->events, before->events);
    EXPECT_EQ(after->sessions, before->sessions);
    EXPECT_EQ(after->namespaces, before->namespaces);
  }

  RecallOutcome Recall(const Step& step) override {
    RecallOutcome out;
    RecallQuery q;
    q.text = step.query;
    q.namespace_name = step.namespace_name;
    q.session_id = step.session;
    q.limit = step.limit;
    q.match = step.match == "all" ? MatchMode::kAll : MatchMode::kAny;
    q.budget_tokens = step.budget.value_or(0);
    // As `engram recall --now`: calendar words, and times written without an offset, are in the
    // days of the offset --now is written with.
    if (!step.now.empty()) {
      auto local = ParseLocalTimestamp(step.now);
      if (local) q.utc_offset_minutes = local->utc_offset_minutes;
    }
    for (auto [text, target] : {std::pair{&step.as_of, &q.as_of}, std::pair{&step.known_as_of, &q.known_as_of},
                                std::pair{&step.since, &q.since}, std::pair{&step.until, &q.until},
                                std::pair{&step.now, &q.now}}) {
      if (text->empty()) continue;
      auto t = ParseTimestampAtOffset(*text, q.utc_offset_minutes);
      if (!t) {
        out.error = t.error().ToString();
        return out;
      }
      *target = *t;
    }
    q.include_history = step.include_history;
    q.exclude_instruction_like = step.exclude_instruction_like;
    q.include_claims = !step.events_only;
    q.include_events = !step.claims_only;
    auto result = engine_->Recall(q);
    if (!result) {
      out.error = result.error().ToString();
      return out;
    }
    out.ok = true;
    out.answerability = result->answerability;
    out.truncated = result->truncated;
    for (const RecallItem& item : result->items) {
      out.texts.push_back(item.text);
      std::string memory = item.text;
      for (const EvidenceRef& e : item.evidence) {
        if (e.relation == "supports") memory += "\n" + e.content;
      }
      out.memories.push_back(memory);
      out.flags.push_back(item.flags);
      if (item.type == "claim") out.claims.push_back(ViewOf(item));
    }
    return out;
  }

  RememberOutcome Remember(const Step& step) override {
    RememberInput in;
    in.namespace_name = step.namespace_name;
    in.text = step.text;
    in.subject = step.subject;
    in.predicate = step.predicate;
    in.value = step.value;
    in.at = step.at;
    in.idempotency_key = step.idempotency_key;
    in.session_id = step.session;
    in.speaker = step.speaker;
    RememberOutcome out;
    auto r = engine_->Remember(in);
    if (!r) {
      out.error = r.error().ToString();
      return out;
    }
    out.ok = true;
    out.duplicate = r->duplicate;
    out.forgotten = r->forgotten;
    out.event_id = r->event.id;
    out.decisions = r->decisions;
    for (const Claim& c : r->claims) out.claims.push_back(ViewOf(c));
    return out;
  }

  ProcessOutcome Process() override {
    ProcessOutcome out;
    auto r = engine_->Process(/*drain=*/true);
    if (!r) {
      out.error = r.error().ToString();
      return out;
    }
    out.ok = true;
    out.events = r->events;
    out.claims_created = r->claims_created;
    out.claims_superseded = r->claims_superseded;
    out.jobs_failed = r->jobs_failed;
    out.errors = r->errors;
    return out;
  }

  ClaimsOutcome ListClaims(const std::string& ns, const std::string& subject, bool include_history) override {
    ClaimsOutcome out;
    ListClaimsQuery q;
    q.namespace_name = ns;
    q.subject = subject;
    q.include_history = include_history;
    q.limit = 100000;
    auto r = engine_->ListClaims(q);
    if (!r) {
      out.error = r.error().ToString();
      return out;
    }
    out.ok = true;
    for (const Claim& c : *r) out.claims.push_back(ViewOf(c));
    return out;
  }

  ExplainOutcome Explain(const std::string& id) override {
    ExplainOutcome out;
    auto r = engine_->ExplainClaim(id);
    if (!r) {
      out.error = r.error().ToString();
      return out;
    }
    out.ok = true;
    out.claim = ViewOf(r->claim);
    out.current = r->current;
    out.why = r->why;
    for (const Claim& c : r->chain) out.chain_values.push_back(c.value);
    for (const ClaimDecision& d : r->decisions) out.decisions.push_back(d.decision);
    for (const ClaimChange& h : r->history) out.history_actions.push_back(h.action);
    return out;
  }

  JobsOutcome Jobs(const std::string& status) override {
    JobsOutcome out;
    auto r = engine_->ListJobs(status, 10000);
    if (!r) {
      out.error = r.error().ToString();
      return out;
    }
    out.ok = true;
    for (const JobInfo& j : *r) out.statuses.push_back(j.status);
    return out;
  }

  ForgetOutcome Forget(const Step& step, const std::vector<std::string>& ids) override {
    ForgetOutcome out;
    ForgetRequest r;
    r.ids = ids;
    r.namespace_name = step.namespace_name;
    // An owner's forget by ids alone acts in the ids' namespace, as `engram forget ID` does; an
    // empty namespace never means "any" (B27).
    for (size_t i = 0; r.namespace_name.empty() && i < ids.size(); ++i) {
      if (auto ns = engine_->NamespaceOf(ids[i])) r.namespace_name = *ns;
    }
    if (r.namespace_name.empty() && !ids.empty()) {
      out.error = engine_->NamespaceOf(ids[0]).error().ToString();
      return out;
    }
    r.all = step.all;
    r.session_id = step.session;
    r.subject = step.subject;
    if (!step.before.empty()) {
      auto t = ParseTimestamp(step.before);
      if (!t) {
        out.error = t.error().ToString();
        return out;
      }
      r.before = *t;
    }
    r.query = step.query;
    r.query_limit = step.limit;
    r.confirm = step.yes;
    r.preview = step.dry_run;
    r.actor = "scenario";
    auto report = engine_->Forget(r);
    if (!report) {
      out.error = report.error().ToString();
      return out;
    }
    out.ok = true;
    out.events = report->events;
    out.claims = report->claims;
    out.sessions = report->sessions;
    out.already = static_cast<int64_t>(report->already_forgotten.size());
    out.preview = report->preview;
    return out;
  }

  std::string Unforget(const std::string& id) override {
    auto r = engine_->Unforget(id, "scenario");
    return r ? "" : r.error().ToString();
  }

  GetOutcome Get(const std::string& id) override {
    GetOutcome out;
    auto e = engine_->GetEvent(id);
    auto c = engine_->GetClaim(id);
    if (e || c) {
      out.ok = true;
      return out;
    }
    ListTombstonesQuery q;
    q.object_id = id;
    q.all_namespaces = true;  // an id of any namespace, asked for explicitly (B27)
    auto t = engine_->ListTombstones(q);
    if (t && !t->empty()) {
      out.ok = true;
      out.forgotten = true;
      // The event/claim errors must say so too, without content.
      EXPECT_THAT(e.error().message(), ::testing::HasSubstr("forgotten"));
      return out;
    }
    out.error = e.error().ToString();
    return out;
  }

  std::vector<std::string> HistoryActions(const std::string& id, std::string* error) override {
    std::vector<std::string> actions;
    auto x = engine_->ExplainClaim(id);
    if (x) {
      for (const ClaimChange& h : x->history) actions.push_back(h.action);
      return actions;
    }
    auto trail = engine_->AuditTrail(id);
    if (!trail) {
      *error = trail.error().ToString();
      return actions;
    }
    for (const AuditEntry& a : *trail) actions.push_back(a.action);
    return actions;
  }

  RecallOutcome SessionsSearch(const std::string& ns, const std::string& query) override {
    RecallOutcome out;
    SessionSearchQuery q;
    q.namespace_name = ns;
    q.text = query;
    auto r = engine_->SearchSessions(q);
    if (!r) {
      out.error = r.error().ToString();
      return out;
    }
    out.ok = true;
    for (const auto& h : r->hits) {
      for (const Event& e : h.window) out.texts.push_back(e.content);
    }
    out.memories = out.texts;
    return out;
  }

  CountsOutcome Counts(const std::string& ns) override {
    CountsOutcome out;
    auto s = engine_->Stats();
    if (!s) {
      out.error = s.error().ToString();
      return out;
    }
    out.ok = true;
    for (const NamespaceStats& n : s->per_namespace) {
      if (n.name != ns) continue;
      out.events = n.events;
      out.claims = n.claims;
      out.active_claims = n.active_claims;
    }
    return out;
  }

  std::string Compact() override {
    auto r = engine_->Compact();
    if (!r) return r.error().ToString();
    EXPECT_TRUE(r->wal_truncated);
    return "";
  }

  std::string Dump(const std::string& op, const std::string& name, const std::string& ns) override {
    const std::string file = db_path_ + "." + name;
    if (op == "backup") {
      auto r = engine_->Backup(file);
      return r ? "" : r.error().ToString();
    }
    if (op == "export") {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      auto r = ns.empty() ? engine_->Export(NamespaceScope::All(), out) : engine_->Export(ns, out);
      return r ? "" : r.error().ToString();
    }
    if (op == "import") {
      std::ifstream in(file, std::ios::binary);
      auto r = engine_->Import(in);
      return r ? "" : r.error().ToString();
    }
    engine_.reset();
    Options options;
    options.db_path = db_path_;
    auto r = Engine::Restore(options, file);
    auto engine = OpenEngine();
    EXPECT_TRUE(engine.has_value()) << engine.error().ToString();
    if (engine) engine_ = std::move(*engine);
    return r ? "" : r.error().ToString();
  }

  void CheckDoctor() override {
    auto report = engine_->Doctor();
    ASSERT_OK(report);
    EXPECT_TRUE(report->ok) << ::testing::PrintToString(report->problems);
  }

 private:
  std::string db_path_;
  std::function<void(Options&)> configure_;
  std::unique_ptr<Engine> engine_;
};

// A claim from the CLI's JSON (ClaimToJson, or a recall item of type "claim").
ClaimView ClaimFromJson(const json& j) {
  ClaimView v;
  v.id = j.value("id", "");
  v.subject = j.value("subject", "");
  v.predicate = j.value("predicate", "");
  v.slot = j.value("slot", "");
  v.value = j.value("value", "");
  v.text = j.value("text", "");
  v.status = j.value("status", "");
  if (j.contains("qualifiers") && j["qualifiers"].is_array()) {
    for (const json& q : j["qualifiers"]) v.qualifiers.push_back(q.get<std::string>());
  }
  auto from = ParseTimestamp(j.value("valid_from", ""));
  EXPECT_TRUE(from.has_value()) << "valid_from: " << j.dump();
  if (from) v.valid_from = *from;
  if (j.contains("valid_to") && j["valid_to"].is_string()) {
    auto to = ParseTimestamp(j["valid_to"].get<std::string>());
    EXPECT_TRUE(to.has_value()) << "valid_to: " << j.dump();
    if (to) v.valid_to = *to;
  }
  if (j.contains("time_phrase") && j["time_phrase"].is_string()) v.time_phrase = j["time_phrase"].get<std::string>();
  if (j.contains("flags") && j["flags"].is_array()) {
    std::vector<std::string> flags;
    for (const json& f : j["flags"]) flags.push_back(f.get<std::string>());
    v.flags = flags;
  }
  if (j.contains("evidence") && j["evidence"].is_array()) {
    for (const json& e : j["evidence"]) {
      v.evidence.push_back({e.value("event_id", ""), e.value("relation", ""), e.value("role", ""),
                            e.value("content", "")});
    }
  }
  return v;
}

class CliBackend : public Backend {
 public:
  explicit CliBackend(const TempDir& dir) : dir_(dir), db_(dir.File("scenario.db")) {}

  void Ingest(const Step& step) override { pending_.push_back(&step); }

  void Flush() override {
    if (pending_.empty()) return;
    std::string lines;
    int64_t duplicates = 0, forgotten = 0;
    for (const Step* s : pending_) {
      lines += s->event.dump() + "\n";
      if (s->expect_duplicate) ++duplicates;
      if (s->expect_forgotten.value_or(false)) ++forgotten;
    }
    const int64_t count = static_cast<int64_t>(pending_.size());
    pending_.clear();
    const std::string file = dir_.File("batch" + std::to_string(++batches_) + ".jsonl");
    test::WriteFile(file, lines);
    CliResult r = Engram({"ingest", file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json summary = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << "stdout is not JSON: " << r.out;
    EXPECT_EQ(summary.value("lines", -1), count) << r.out;
    EXPECT_EQ(summary.value("stored", -1), count - duplicates - forgotten) << r.out;
    EXPECT_EQ(summary.value("forgotten", -1), forgotten) << r.out;
    EXPECT_EQ(summary.value("duplicates", -1), duplicates) << r.out;
    EXPECT_EQ(summary["errors"], json::array()) << r.out;
  }

  void IngestError(const Step& step) override {
    const int64_t events_before = EventCount();
    const std::string file = dir_.File("bad" + std::to_string(++batches_) + ".jsonl");
    test::WriteFile(file, step.event.dump() + "\n");
    CliResult r = Engram({"ingest", file});
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_THAT(r.err, ::testing::HasSubstr("line 1: "));
    EXPECT_THAT(r.err, ::testing::HasSubstr(*step.expect_error));
    json out = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(out.is_discarded()) << "stdout is not JSON: " << r.out;
    EXPECT_EQ(out["error"]["code"], "invalid_argument") << r.out;
    EXPECT_THAT(out["error"]["message"].get<std::string>(),
                ::testing::HasSubstr(*step.expect_error));
    EXPECT_EQ(EventCount(), events_before);
  }

  RecallOutcome Recall(const Step& step) override {
    std::vector<std::string> args = {"recall", "--namespace", step.namespace_name, "--limit", std::to_string(step.limit),
                                     "--match", step.match};
    if (!step.session.empty()) args.insert(args.end(), {"--session", step.session});
    if (!step.as_of.empty()) args.insert(args.end(), {"--as-of", step.as_of});
    if (!step.known_as_of.empty()) args.insert(args.end(), {"--known-as-of", step.known_as_of});
    if (!step.since.empty()) args.insert(args.end(), {"--since", step.since});
    if (!step.until.empty()) args.insert(args.end(), {"--until", step.until});
    if (!step.now.empty()) args.insert(args.end(), {"--now", step.now});
    if (step.budget) args.insert(args.end(), {"--budget", std::to_string(*step.budget)});
    if (step.include_history) args.push_back("--include-history");
    if (step.exclude_instruction_like) args.push_back("--exclude-instruction-like");
    if (step.claims_only) args.push_back("--claims-only");
    if (step.events_only) args.push_back("--events-only");
    args.push_back("--");  // a query may start with '-'
    args.push_back(step.query);
    RecallOutcome out;
    json j;
    if (!Run(args, &j, &out.error)) return out;
    if (!j.contains("items") || !j["items"].is_array()) {
      out.error = "unexpected output: " + j.dump();
      return out;
    }
    out.ok = true;
    out.answerability = j.value("answerability", "");
    out.truncated = j.value("truncated", false);
    for (const json& item : j["items"]) {
      out.texts.push_back(item.value("text", ""));
      std::string memory = item.value("text", "");
      if (item.contains("evidence")) {
        for (const json& e : item["evidence"]) {
          if (e.value("relation", "") == "supports") memory += "\n" + e.value("content", "");
        }
      }
      out.memories.push_back(memory);
      std::vector<std::string> flags;
      if (item.contains("flags")) {
        for (const json& f : item["flags"]) flags.push_back(f.get<std::string>());
      }
      out.flags.push_back(flags);
      if (item.value("type", "") == "claim") out.claims.push_back(ClaimFromJson(item));
    }
    return out;
  }

  RememberOutcome Remember(const Step& step) override {
    std::vector<std::string> args = {"remember", "--namespace", step.namespace_name};
    for (auto [flag, value] : {std::pair{"--subject", &step.subject}, std::pair{"--predicate", &step.predicate},
                               std::pair{"--value", &step.value}, std::pair{"--at", &step.at},
                               std::pair{"--speaker", &step.speaker}, std::pair{"--session", &step.session},
                               std::pair{"--idempotency-key", &step.idempotency_key}}) {
      if (!value->empty()) args.insert(args.end(), {flag, *value});
    }
    if (!step.text.empty()) args.insert(args.end(), {"--", step.text});
    RememberOutcome out;
    json j;
    if (!Run(args, &j, &out.error)) return out;
    out.ok = true;
    out.duplicate = j.value("duplicate", false);
    out.forgotten = j.value("forgotten", false);
    out.event_id = j["event"].value("id", "");
    for (const json& d : j["decisions"]) out.decisions.push_back(d.get<std::string>());
    for (const json& c : j["claims"]) out.claims.push_back(ClaimFromJson(c));
    return out;
  }

  ProcessOutcome Process() override {
    ProcessOutcome out;
    json j;
    if (!Run({"process"}, &j, &out.error)) return out;
    out.ok = true;
    out.events = j.value("events", int64_t{-1});
    out.claims_created = j.value("claims_created", int64_t{-1});
    out.claims_superseded = j.value("claims_superseded", int64_t{-1});
    out.jobs_failed = j.value("jobs_failed", int64_t{-1});
    for (const json& e : j["errors"]) out.errors.push_back(e.get<std::string>());
    return out;
  }

  ClaimsOutcome ListClaims(const std::string& ns, const std::string& subject, bool include_history) override {
    std::vector<std::string> args = {"claims", "--namespace", ns, "--limit", "100000"};
    if (!subject.empty()) args.insert(args.end(), {"--subject", subject});
    if (include_history) args.push_back("--include-history");
    ClaimsOutcome out;
    json j;
    if (!Run(args, &j, &out.error)) return out;
    out.ok = true;
    for (const json& c : j["items"]) out.claims.push_back(ClaimFromJson(c));
    return out;
  }

  ExplainOutcome Explain(const std::string& id) override {
    ExplainOutcome out;
    json j;
    if (!Run({"explain", "claim", id}, &j, &out.error)) return out;
    out.ok = true;
    out.claim = ClaimFromJson(j["claim"]);
    out.current = j.value("current", false);
    out.why = j.value("why", "");
    for (const json& c : j["chain"]) out.chain_values.push_back(c.value("value", ""));
    for (const json& d : j["decisions"]) out.decisions.push_back(d.value("decision", ""));
    for (const json& h : j["history"]) out.history_actions.push_back(h.value("action", ""));
    return out;
  }

  JobsOutcome Jobs(const std::string& status) override {
    std::vector<std::string> args = {"jobs", "--limit", "10000"};
    if (!status.empty()) args.insert(args.end(), {"--status", status});
    JobsOutcome out;
    json j;
    if (!Run(args, &j, &out.error)) return out;
    out.ok = true;
    for (const json& job : j["items"]) out.statuses.push_back(job.value("status", ""));
    return out;
  }

  ForgetOutcome Forget(const Step& step, const std::vector<std::string>& ids) override {
    std::vector<std::string> args = {"forget"};
    if (!step.namespace_name.empty()) args.insert(args.end(), {"--namespace", step.namespace_name});
    if (step.all) args.push_back("--all");
    if (!step.session.empty()) args.insert(args.end(), {"--session", step.session});
    if (!step.subject.empty()) args.insert(args.end(), {"--subject", step.subject});
    if (!step.before.empty()) args.insert(args.end(), {"--before", step.before});
    if (!step.query.empty()) args.insert(args.end(), {"--query", step.query, "--limit", std::to_string(step.limit)});
    if (step.yes) args.push_back("--yes");
    if (step.dry_run) args.push_back("--dry-run");
    args.push_back("--");
    args.insert(args.end(), ids.begin(), ids.end());
    ForgetOutcome out;
    json j;
    if (!Run(args, &j, &out.error)) return out;
    out.ok = true;
    out.events = j.value("events", int64_t{-1});
    out.claims = j.value("claims", int64_t{-1});
    out.sessions = j.value("sessions", int64_t{-1});
    out.already = static_cast<int64_t>(j["already_forgotten"].size());
    out.preview = j.value("preview", false);
    return out;
  }

  std::string Unforget(const std::string& id) override {
    json j;
    std::string error;
    return Run({"unforget", "--", id}, &j, &error) ? "" : error;
  }

  GetOutcome Get(const std::string& id) override {
    GetOutcome out;
    json j;
    if (!Run({"get", "--", id}, &j, &out.error)) return out;
    out.ok = true;
    out.forgotten = j.value("forgotten", false);
    return out;
  }

  std::vector<std::string> HistoryActions(const std::string& id, std::string* error) override {
    std::vector<std::string> actions;
    json j;
    if (!Run({"history", "--", id}, &j, error)) return actions;
    for (const json& h : j.contains("history") ? j["history"] : j["audit"]) actions.push_back(h.value("action", ""));
    return actions;
  }

  RecallOutcome SessionsSearch(const std::string& ns, const std::string& query) override {
    RecallOutcome out;
    json j;
    if (!Run({"sessions", "search", "--namespace", ns, "--", query}, &j, &out.error)) return out;
    out.ok = true;
    for (const json& h : j["hits"]) {
      for (const json& e : h["window"]) out.texts.push_back(e.value("content", ""));
    }
    out.memories = out.texts;
    return out;
  }

  CountsOutcome Counts(const std::string& ns) override {
    CountsOutcome out;
    json j;
    if (!Run({"stats"}, &j, &out.error)) return out;
    out.ok = true;
    for (const json& n : j["per_namespace"]) {
      if (n.value("namespace", "") != ns) continue;
      out.events = n.value("events", int64_t{-1});
      out.claims = n.value("claims", int64_t{-1});
      out.active_claims = n.value("active_claims", int64_t{-1});
    }
    return out;
  }

  std::string Compact() override {
    json j;
    std::string error;
    if (!Run({"compact"}, &j, &error)) return error;
    EXPECT_EQ(j.value("wal_truncated", false), true) << j.dump();
    return "";
  }

  std::string Dump(const std::string& op, const std::string& name, const std::string& ns) override {
    const std::string file = db_ + "." + name;
    std::vector<std::string> args = {op};
    if (op == "export") {
      args.insert(args.end(), {"--out", file});
      if (ns.empty()) {
        args.push_back("--all-namespaces");
      } else {
        args.insert(args.end(), {"--namespace", ns});
      }
    } else {
      args.push_back(file);
    }
    json j;
    std::string error;
    return Run(args, &j, &error) ? "" : error;
  }

  void CheckDoctor() override {
    CliResult r = Engram({"doctor"});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.Describe();
    EXPECT_EQ(j["ok"], true) << r.out;
  }

 private:
  // `engram --db DB --json ARGS...`, with no extractor override from the environment.
  CliResult Engram(std::vector<std::string> args) {
    args.insert(args.begin(), {"--db", db_, "--json"});
    return RunCli(args, "", {{"ENGRAM_EXTRACTOR", std::nullopt}});
  }

  // Runs a command whose stdout must be one JSON object. Returns false with `error` set (stderr)
  // when it exits non-zero; a failing command must still print {"error": ...} on stdout.
  bool Run(const std::vector<std::string>& args, json* out, std::string* error) {
    CliResult r = Engram(args);
    json j = json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON: " << r.Describe();
    if (r.exit_code != 0) {
      *error = r.err;
      EXPECT_TRUE(j.is_object() && j.contains("error")) << r.Describe();
      return false;
    }
    if (j.is_discarded() || !j.is_object()) {
      *error = "unexpected output: " + r.Describe();
      return false;
    }
    *out = std::move(j);
    return true;
  }

  int64_t EventCount() {
    if (!std::filesystem::exists(db_)) return 0;  // no database yet: read commands do not create one
    json j;
    std::string error;
    if (!Run({"stats"}, &j, &error) || !j.contains("events")) {
      ADD_FAILURE() << "stats: " << error;
      return -1;
    }
    return j["events"].get<int64_t>();
  }

  const TempDir& dir_;
  std::string db_;
  std::vector<const Step*> pending_;
  int batches_ = 0;
};

// ---- running a scenario ------------------------------------------------------------------------

class Runner {
 public:
  explicit Runner(Backend& backend) : backend_(backend) {}

  void Run(const Step& raw) {
    std::string error;
    const Step step = ResolveStep(raw, vars_, &error);
    ASSERT_EQ(error, "");
    if (step.kind == "ingest_error") {
      backend_.IngestError(step);
    } else if (step.kind == "recall") {
      CheckRecall(step, backend_.Recall(step));
    } else if (step.kind == "remember") {
      RememberOutcome got = backend_.Remember(step);
      CheckRemember(step, got);
      if (!step.save_event.empty()) ids_[step.save_event] = {got.event_id};
      if (!step.save_claims.empty()) {
        std::vector<std::string>& saved = ids_[step.save_claims];
        saved.clear();
        for (const ClaimView& c : got.claims) saved.push_back(c.id);
      }
    } else if (step.kind == "forget") {
      Forget(step);
    } else if (step.kind == "get") {
      const std::string id = OneId(step.id);
      GetOutcome got = backend_.Get(id);
      ASSERT_TRUE(got.ok) << "get " << id << ": " << got.error;
      EXPECT_EQ(got.forgotten, *step.expect_forgotten) << id;
    } else if (step.kind == "unforget") {
      const std::string error = backend_.Unforget(OneId(step.id));
      if (step.expect_error) {
        EXPECT_THAT(error, ::testing::HasSubstr(*step.expect_error));
      } else {
        EXPECT_EQ(error, "");
      }
    } else if (step.kind == "history") {
      std::string error;
      std::vector<std::string> actions = backend_.HistoryActions(OneId(step.id), &error);
      EXPECT_EQ(error, "");
      EXPECT_EQ(actions, *step.expect_history_actions);
    } else if (step.kind == "sessions_search") {
      RecallOutcome got = backend_.SessionsSearch(step.namespace_name, step.query);
      ASSERT_TRUE(got.ok) << got.error;
      if (step.expect_empty) {
        EXPECT_EQ(got.texts.empty(), *step.expect_empty) << Listing(got.texts);
      }
      for (const std::string& s : step.expect_absent) {
        EXPECT_FALSE(std::any_of(got.texts.begin(), got.texts.end(), [&](auto& t) { return Contains(t, s); }))
            << "a session window contains \"" << s << "\"; " << Listing(got.texts);
      }
    } else if (step.kind == "stats") {
      CountsOutcome got = backend_.Counts(step.namespace_name);
      ASSERT_TRUE(got.ok) << got.error;
      if (step.expect_events) {
        EXPECT_EQ(got.events, *step.expect_events);
      }
      if (step.expect_claims) {
        EXPECT_EQ(got.claims, *step.expect_claims);
      }
      if (step.expect_active_claims) {
        EXPECT_EQ(got.active_claims, *step.expect_active_claims);
      }
      if (!step.save_stats.empty()) stats_[step.save_stats] = got;
      if (!step.expect_same_as.empty()) {
        auto it = stats_.find(step.expect_same_as);
        ASSERT_NE(it, stats_.end()) << "stats \"" << step.expect_same_as << "\" were never saved";
        EXPECT_EQ(got.events, it->second.events);
        EXPECT_EQ(got.claims, it->second.claims);
        EXPECT_EQ(got.active_claims, it->second.active_claims);
      }
    } else if (step.kind == "compact") {
      EXPECT_EQ(backend_.Compact(), "");
    } else if (step.kind == "backup" || step.kind == "restore" || step.kind == "export" || step.kind == "import") {
      const std::string error = backend_.Dump(step.kind, step.name, step.namespace_name);
      if (!step.expect_error) {
        EXPECT_EQ(error, "");
      } else {
        EXPECT_THAT(error, ::testing::HasSubstr(*step.expect_error));
      }
    } else if (step.kind == "process") {
      CheckProcess(step, backend_.Process());
    } else if (step.kind == "claims") {
      CheckClaims(step, backend_.ListClaims(step.namespace_name, step.subject, step.include_history), &counts_);
    } else if (step.kind == "explain") {
      Explain(step);
    } else if (step.kind == "jobs") {
      JobsOutcome got = backend_.Jobs(step.job_status);
      ASSERT_TRUE(got.ok) << got.error;
      if (step.expect_count) {
        EXPECT_EQ(got.statuses.size(), static_cast<size_t>(*step.expect_count)) << Joined(got.statuses);
      }
    } else if (step.kind == "mark_time") {
      // Strictly after everything recorded so far and strictly before everything recorded next.
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      vars_[step.name] = NowMs();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    } else {
      FAIL() << "unhandled step " << step.kind;
    }
  }

 private:
  // "$name": the first id saved under it; anything else: itself.
  std::string OneId(const std::string& text) {
    if (text.empty() || text[0] != '$') return text;
    auto it = ids_.find(text.substr(1));
    EXPECT_TRUE(it != ids_.end() && !it->second.empty()) << "no id saved as " << text;
    return it != ids_.end() && !it->second.empty() ? it->second.front() : text;
  }

  void Forget(const Step& step) {
    std::vector<std::string> ids;
    for (const std::string& text : step.ids) {
      if (!text.empty() && text[0] == '$') {
        auto it = ids_.find(text.substr(1));
        ASSERT_TRUE(it != ids_.end()) << "no ids saved as " << text;
        ids.insert(ids.end(), it->second.begin(), it->second.end());
      } else {
        ids.push_back(text);
      }
    }
    if (step.claim_filter) {
      ClaimsOutcome all = backend_.ListClaims(step.namespace_name, "", /*include_history=*/true);
      ASSERT_TRUE(all.ok) << all.error;
      std::vector<ClaimView> found = Filter(all.claims, *step.claim_filter);
      ASSERT_EQ(found.size(), 1u) << "\"claim\" must select exactly one claim; " << ClaimListing(all.claims);
      ids.push_back(found.front().id);
    }
    ForgetOutcome got = backend_.Forget(step, ids);
    if (step.expect_error) {
      EXPECT_FALSE(got.ok) << "expected an error containing \"" << *step.expect_error << "\"";
      EXPECT_THAT(got.error, ::testing::HasSubstr(*step.expect_error));
      return;
    }
    ASSERT_TRUE(got.ok) << "forget failed: " << got.error;
    if (step.expect_events) {
      EXPECT_EQ(got.events, *step.expect_events);
    }
    if (step.expect_claims) {
      EXPECT_EQ(got.claims, *step.expect_claims);
    }
    if (step.expect_sessions) {
      EXPECT_EQ(got.sessions, *step.expect_sessions);
    }
    if (step.expect_already_forgotten) {
      EXPECT_EQ(got.already, *step.expect_already_forgotten);
    }
    if (step.expect_preview) {
      EXPECT_EQ(got.preview, *step.expect_preview);
    }
  }

  void Explain(const Step& step) {
    ClaimsOutcome all = backend_.ListClaims(step.namespace_name, "", /*include_history=*/true);
    ASSERT_TRUE(all.ok) << all.error;
    std::vector<ClaimView> found = Filter(all.claims, *step.claim_filter);
    ASSERT_FALSE(found.empty()) << "no claim of namespace " << step.namespace_name << " matches "
                                << step.claim_filter->source << "; " << ClaimListing(all.claims);
    if (step.pick == "only") {
      ASSERT_EQ(found.size(), 1u) << "more than one claim matches " << step.claim_filter->source
                                  << " (add fields, or \"pick\": \"first\"/\"last\"); " << ClaimListing(found);
    }
    const ClaimView& chosen = step.pick == "last" ? found.back() : found.front();
    CheckExplain(step, backend_.Explain(chosen.id));
  }

  Backend& backend_;
  TimeVars vars_;
  std::map<std::string, int64_t> counts_;
  std::map<std::string, std::vector<std::string>> ids_;
  std::map<std::string, CountsOutcome> stats_;
};

// ---- the parameterised test --------------------------------------------------------------------

enum class Interface { kLibrary, kCli };

struct ScenarioParam {
  std::string file;
  Interface interface;
};

void PrintTo(const ScenarioParam& p, std::ostream* os) {
  *os << p.file << (p.interface == Interface::kLibrary ? " (library)" : " (cli)");
}

std::vector<ScenarioParam> AllParams() {
  std::vector<ScenarioParam> params;
  for (const std::string& f : ScenarioFiles()) {
    params.push_back({f, Interface::kLibrary});
    params.push_back({f, Interface::kCli});
  }
  return params;
}

std::string ParamName(const ::testing::TestParamInfo<ScenarioParam>& info) {
  std::string name = info.param.file.substr(0, info.param.file.size() - 6);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + (info.param.interface == Interface::kLibrary ? "_library" : "_cli");
}

class ScenarioTest : public ::testing::TestWithParam<ScenarioParam> {};

TEST_P(ScenarioTest, Run) {
  const ScenarioParam& param = GetParam();
  std::vector<Step> steps;
  const std::string error = ParseScenario(test::ReadFile(kScenarioDir + "/" + param.file), &steps);
  ASSERT_EQ(error, "") << param.file;

  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::unique_ptr<Backend> backend;
  if (param.interface == Interface::kLibrary) {
    auto lib = std::make_unique<LibraryBackend>(dir.File("scenario.db"));
    ASSERT_TRUE(lib->ready());
    backend = std::move(lib);
  } else {
    backend = std::make_unique<CliBackend>(dir);
  }
  Runner runner(*backend);

  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& step = steps[i];
    if (step.kind == "ingest") {
      SCOPED_TRACE(step.Where(param.file));
      backend->Ingest(step);
      continue;
    }
    {
      // The CLI stores pending ingest steps now; a failure there belongs to the ingest lines.
      SCOPED_TRACE(param.file + ": ingest steps before line " + std::to_string(step.line));
      backend->Flush();
    }
    SCOPED_TRACE(step.Where(param.file));
    runner.Run(step);
  }
  {
    SCOPED_TRACE(param.file + ": ingest steps at the end");
    backend->Flush();
  }
  SCOPED_TRACE(param.file + ": doctor after the scenario");
  backend->CheckDoctor();
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioTest, ::testing::ValuesIn(AllParams()), ParamName);

// A ranking scenario must be able to fail: every recall step that says "needs_channel": C fails
// when the file is rerun through the library with RecallWeights::C = 0 (the other steps may or may
// not; the steps that are not recalls must still pass, or the rerun proves nothing).
TEST(ScenarioChannelTest, StepsThatNeedAChannelFailWithoutIt) {
  int checked = 0;
  for (const std::string& file : ScenarioFiles()) {
    std::vector<Step> steps;
    ASSERT_EQ(ParseScenario(test::ReadFile(kScenarioDir + "/" + file), &steps), "") << file;
    std::set<std::string> channels;
    for (const Step& step : steps) {
      if (!step.needs_channel.empty()) channels.insert(step.needs_channel);
    }
    for (const std::string& channel : channels) {
      SCOPED_TRACE(file + " with the " + channel + " weight at 0");
      TempDir dir;
      LibraryBackend backend(dir.File("ablation.db"),
                             [&](Options& o) { o.recall.*ChannelWeight(channel) = 0; });
      ASSERT_TRUE(backend.ready());
      Runner runner(backend);
      for (const Step& step : steps) {
        ::testing::TestPartResultArray failures;
        {
          ::testing::ScopedFakeTestPartResultReporter intercept(
              ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
          if (step.kind == "ingest") {
            backend.Ingest(step);
          } else {
            runner.Run(step);
          }
        }
        if (step.needs_channel == channel) {
          ++checked;
          EXPECT_GT(failures.size(), 0) << step.Where(file) << "\n  passes without the " << channel << " channel";
        } else if (step.kind != "recall" && step.kind != "sessions_search") {
          EXPECT_EQ(failures.size(), 0) << step.Where(file) << "\n  a setup step failed";
        }
      }
    }
  }
  EXPECT_GT(checked, 0) << "no scenario step says needs_channel";
}

// (f) of cjk_channels.jsonl: a Chinese question answered by the dense channel alone, with the
// hashing embedder (scenario files cannot choose an embedder). 猫咪 shares no bigram with 小猫很可爱
// (full text finds nothing) but shares the character 猫, which the embedder's 1-grams see. Without
// the dense channel (weight 0, or no embedder) nothing comes back: the step can fail.
TEST(DenseChannelTest, ChineseQueryAnsweredByTheHashingEmbedder) {
  TempDir dir;
  const std::string db = dir.File("dense.db");
  auto open = [&](double dense_weight) {
    Options options;
    options.db_path = db;
    options.embedder = "hash";
    options.recall.dense = dense_weight;
    return Engine::Open(options);
  };
  unsetenv("ENGRAM_EMBEDDER");
  {
    ASSERT_OK_AND_ASSIGN(auto engine, open(0.5));
    for (const char* content : {"小猫很可爱。", "今天下雨了。", "股票又跌了。"}) {
      EventInput in;
      in.namespace_name = "zh_dense";
      in.session_id = "s1";
      in.role = "user";
      in.content = content;
      ASSERT_OK(engine->Ingest(in));
    }
  }
  RecallQuery q;
  q.text = "猫咪";
  q.namespace_name = "zh_dense";
  {
    ASSERT_OK_AND_ASSIGN(auto engine, open(0.5));
    ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(q));
    ASSERT_FALSE(r.items.empty());
    EXPECT_EQ(r.items.front().text, "小猫很可爱。");
    bool dense = false;
    for (const ChannelScore& c : r.items.front().channels) dense |= c.channel == "dense";
    EXPECT_TRUE(dense);
    EXPECT_TRUE(r.warnings.empty()) << ::testing::PrintToString(r.warnings);
  }
  {
    ASSERT_OK_AND_ASSIGN(auto engine, open(0.0));
    ASSERT_OK_AND_ASSIGN(RecallResult r, engine->Recall(q));
    EXPECT_TRUE(r.items.empty()) << "found without the dense channel: " << r.items.front().text;
  }
  // The CLI, through --embedder.
  CliResult r = RunCli({"--db", db, "--embedder", "hash", "--json", "recall", "-n", "zh_dense", "猫咪"}, "",
                       {{"ENGRAM_EMBEDDER", std::nullopt}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json packet = json::parse(r.out);
  ASSERT_FALSE(packet["items"].empty()) << r.out;
  EXPECT_EQ(packet["items"][0]["text"], "小猫很可爱。");
  r = RunCli({"--db", db, "--json", "recall", "-n", "zh_dense", "猫咪"}, "", {{"ENGRAM_EMBEDDER", std::nullopt}});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(json::parse(r.out)["items"].empty()) << r.out;
}

// The suite must not shrink silently: a renamed or deleted file fails here.
TEST(ScenarioFilesTest, ExpectedFilesArePresent) {
  std::vector<std::string> files = ScenarioFiles();
  for (const char* name : {"cjk.jsonl", "cjk_channels.jsonl", "english.jsonl", "isolation.jsonl", "query_syntax.jsonl", "validation.jsonl",
                           "claims_attribution.jsonl", "claims_dedup.jsonl", "claims_hlmem.jsonl",
                           "claims_structured.jsonl", "claims_supersede.jsonl", "claims_time.jsonl",
                           "forget_cascade.jsonl", "forget_isolation.jsonl", "forget_reingest.jsonl",
                           "ranking.jsonl", "reply.jsonl", "restore_after_forget.jsonl", "facts_en.jsonl",
                           "facts_zh.jsonl"}) {
    EXPECT_THAT(files, ::testing::Contains(name)) << kScenarioDir;
  }
}

TEST(ScenarioFormatTest, RejectsTyposAndBadSteps) {
  std::vector<Step> steps;
  EXPECT_THAT(
      ParseScenario(R"({"step":"recall","query":"x","namespace":"n","expect_contain":["x"]})",
                    &steps),
      ::testing::HasSubstr("unknown key \"expect_contain\""));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"frobnicate","event":{}})", &steps),
              ::testing::HasSubstr("unknown step"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"remember","namespace":"n","event":{}})", &steps),
              ::testing::HasSubstr("unknown key \"event\" for step remember"));
  steps.clear();
  EXPECT_THAT(ParseScenario("\n{\"step\":\"ingest\"}\n", &steps), ::testing::HasSubstr("line 2"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"ingest_error","event":{}})", &steps),
              ::testing::HasSubstr("expect_error"));
  steps.clear();
  EXPECT_THAT(
      ParseScenario(R"({"step":"recall","query":"x","namespace":"n","match":"some"})", &steps),
      ::testing::HasSubstr("match"));
  steps.clear();
  EXPECT_THAT(
      ParseScenario(
          R"({"step":"recall","query":"x","namespace":"n","expect_error":"e","expect_count":1})",
          &steps),
      ::testing::HasSubstr("cannot be combined"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"recall","query":"x","namespace":"n","expect_before":["a"]})", &steps),
              ::testing::HasSubstr("exactly two"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"recall","query":"x","namespace":"n","needs_channel":"bm25"})", &steps),
              ::testing::HasSubstr("unknown channel \"bm25\""));
  steps.clear();
  EXPECT_EQ(ParseScenario(R"({"step":"recall","query":"x","namespace":"n","limit":3,"match":"all",
"expect_contains":["a"],"expect_absent":["b"],"expect_exact":["c"],"expect_first":"d","expect_empty":false,"expect_count":1})",
                          &steps),
            "line 1: not valid JSON");  // a step is one line
}

TEST(ScenarioFormatTest, ClaimStepsAndMatchers) {
  std::vector<Step> steps;
  // A typo inside a claim matcher is an error, not a matcher that matches everything.
  EXPECT_THAT(ParseScenario(R"({"step":"claims","namespace":"n","match":{"valeu":"x"},"expect_count":1})", &steps),
              ::testing::HasSubstr("unknown claim matcher field \"valeu\""));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"recall","query":"q","namespace":"n","expect_claim":{}})", &steps),
              ::testing::HasSubstr("at least one field"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"remember","namespace":"n"})", &steps), ::testing::HasSubstr("needs \"text\""));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"remember","namespace":"n","text":"t","at":"$T+5x"})", &steps),
              ::testing::HasSubstr("bad offset"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"recall","query":"q","namespace":"n","as_of":"yesterday"})", &steps),
              ::testing::HasSubstr("as_of"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"explain","namespace":"n"})", &steps), ::testing::HasSubstr("\"claim\""));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"explain","namespace":"n","claim":{"value":"x"},"pick":"any"})", &steps),
              ::testing::HasSubstr("pick"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"claims","namespace":"n","expect_count":"n1"})", &steps),
              ::testing::HasSubstr("saved count"));
  steps.clear();
  EXPECT_THAT(
      ParseScenario(R"({"step":"recall","query":"q","namespace":"n","expect_error":"e","expect_claim":{"value":"x"}})",
                    &steps),
      ::testing::HasSubstr("cannot be combined"));
  steps.clear();
  EXPECT_EQ(ParseScenario(
                R"({"step":"mark_time","name":"T1"}
{"step":"remember","namespace":"n","subject":"user","predicate":"lives_in","value":"Oslo","at":"$T1-30d","expect_decisions":["created"]}
{"step":"recall","query":"Oslo","namespace":"n","as_of":"$T1","known_as_of":"$T1+1h","claims_only":true,"expect_claim":[{"value":"Oslo","valid_to":null,"qualifiers":[]}],"expect_first_claim":{"status":"active"}}
{"step":"claims","namespace":"n","include_history":true,"match":{"predicate":"lives_in"},"expect_count":"$c","expect_statuses":["active"],"save_count":"c"}
{"step":"explain","namespace":"n","claim":{"value":"Oslo"},"expect_current":true,"expect_decisions":["created"],"expect_evidence_relations":["supports"]}
{"step":"process","expect_events":0}
{"step":"jobs","expect_count":0})",
                &steps),
            "");
  EXPECT_EQ(steps.size(), 7u);

  // Matching and time variables.
  ClaimView c;
  c.subject = "user";
  c.predicate = "uses";
  c.slot = "ui_theme";
  c.value = "light mode";
  c.status = "active";
  c.qualifiers = {"temporary"};
  c.valid_from = *ParseTimestamp("2025-03-01T20:00:00Z");
  ClaimMatcher m;
  ASSERT_EQ(ParseMatcher(json::parse(R"({"value_contains":"light","qualifiers_include":["temporary"],
      "valid_from_date":"2025-03-01","valid_to":null})"), &m), "");
  EXPECT_TRUE(Matches(m, c));
  ClaimMatcher negated;
  ASSERT_EQ(ParseMatcher(json::parse(R"({"value_contains":"light","qualifiers_include":["negated"]})"), &negated), "");
  EXPECT_FALSE(Matches(negated, c));
  EXPECT_TRUE(DecisionMatches("rejected:*", "rejected:not_notable"));
  EXPECT_FALSE(DecisionMatches("rejected:*", "created"));
  std::string error;
  TimeVars vars{{"T", *ParseTimestamp("2025-01-01T00:00:00Z")}};
  EXPECT_EQ(ResolveTime("$T-1d", vars, &error), "2024-12-31T00:00:00.000Z");
  EXPECT_EQ(ResolveTime("$T+90m", vars, &error), "2025-01-01T01:30:00.000Z");
  EXPECT_EQ(ResolveTime("2024-05-01", vars, &error), "2024-05-01");
  EXPECT_EQ(error, "");
  ResolveTime("$U", vars, &error);
  EXPECT_THAT(error, ::testing::HasSubstr("$U"));
}

TEST(ScenarioFormatTest, ForgetSteps) {
  std::vector<Step> steps;
  EXPECT_THAT(ParseScenario(R"({"step":"forget","namespace":"n","all":true,"expect_event":1})", &steps),
              ::testing::HasSubstr("unknown key \"expect_event\""));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"get","id":"$e"})", &steps), ::testing::HasSubstr("expect_forgotten"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"history","id":"$e"})", &steps), ::testing::HasSubstr("expect_actions"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"forget","claim":{"value":"x"}})", &steps), ::testing::HasSubstr("namespace"));
  steps.clear();
  EXPECT_THAT(ParseScenario(R"({"step":"forget","namespace":"n","all":true,"expect_error":"e","expect_events":0})",
                            &steps),
              ::testing::HasSubstr("cannot be combined"));
  steps.clear();
  EXPECT_EQ(ParseScenario(R"({"step":"remember","namespace":"n","text":"t","save_event":"e","save_claims":"c","expect_forgotten":false}
{"step":"forget","ids":["$c"],"expect_events":1,"expect_claims":1,"expect_already_forgotten":0}
{"step":"forget","namespace":"n","query":"t","yes":true,"limit":5,"expect_preview":false}
{"step":"forget","namespace":"n","before":"2024-01-01","dry_run":true,"expect_sessions":0}
{"step":"get","id":"$e","expect_forgotten":true}
{"step":"history","id":"$c","expect_actions":["created","forget"]}
{"step":"unforget","id":"$e"}
{"step":"sessions_search","namespace":"n","query":"t","expect_empty":true,"expect_absent":["t"]}
{"step":"stats","namespace":"n","expect_events":0,"expect_claims":0,"expect_active_claims":0,"save":"s","expect_same_as":"s"}
{"step":"compact"})",
                          &steps),
            "");
  EXPECT_EQ(steps.size(), 10u);
}

// ---- B32: a 10 kB query, through both interfaces -----------------------------------------------

std::string Repeat(const std::string& unit, size_t bytes) {
  std::string out;
  while (out.size() < bytes) out += unit;
  return out;
}

std::vector<std::string> LongQueries() {
  return {
      // Many ordinary words, ending in one that is stored.
      Repeat("lorem ipsum dolor sit amet ", 10 * 1024) + "kingfisher",
      // Every FTS5 operator and special character, over and over.
      Repeat("\"(x) NEAR(a b, 3) AND OR NOT * ^ : + - col:term {a b} @h #t 50% a=b x\\y '' ",
             10 * 1024) +
          "kingfisher",
      // CJK without spaces.
      Repeat("成语接龙游戏", 10 * 1024) + " kingfisher",
      // One 10 kB "word": longer than any token, so it has no searchable term.
      Repeat("k", 10 * 1024),
  };
}

class LongQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir_.path().empty());
    db_ = dir_.File("long.db");
    ASSERT_OK_AND_ASSIGN(engine_, test::OpenTestEngine(db_));
    EventInput in;
    in.namespace_name = "long";
    in.session_id = "s1";
    in.role = "user";
    in.content = "a kingfisher sat on the fence";
    in.occurred_at = "2024-01-01T00:00:00Z";
    ASSERT_OK(engine_->Ingest(in));
  }

  TempDir dir_;
  std::string db_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(LongQueryTest, LibraryAcceptsTenKilobyteQueries) {
  std::vector<std::string> queries = LongQueries();
  for (size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i) + " (" + std::to_string(queries[i].size()) +
                 " bytes)");
    ASSERT_GE(queries[i].size(), 10u * 1024);
    for (MatchMode mode : {MatchMode::kAny, MatchMode::kAll}) {
      RecallQuery q;
      q.text = queries[i];
      q.namespace_name = "long";
      q.match = mode;
      auto result = engine_->Recall(q);
      ASSERT_OK(result);
      if (i == 3) {
        EXPECT_TRUE(result->items.empty());
      } else if (mode == MatchMode::kAny) {
        ASSERT_EQ(result->items.size(), 1u);
        EXPECT_EQ(result->items[0].text, "a kingfisher sat on the fence");
      }
    }
    SessionSearchQuery sq;
    sq.text = queries[i];
    sq.namespace_name = "long";
    EXPECT_OK(engine_->SearchSessions(sq));
  }
}

TEST_F(LongQueryTest, CliAcceptsTenKilobyteQueries) {
  engine_.reset();
  std::vector<std::string> queries = LongQueries();
  for (size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i));
    CliResult r = RunCli({"--db", db_, "--json", "recall", "-n", "long", "--", queries[i]});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json j = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << r.out;
    ASSERT_TRUE(j["items"].is_array());
    EXPECT_EQ(j["items"].size(), i == 3 ? 0u : 1u) << r.out.substr(0, 2000);

    r = RunCli({"--db", db_, "--json", "sessions", "search", "-n", "long", "--", queries[i]});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_FALSE(json::parse(r.out, nullptr, false).is_discarded()) << r.out;
  }
}

}  // namespace
}  // namespace engram
