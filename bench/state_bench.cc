// bench/state_bench.cc — HL-Mem's state-lifecycle benchmark through the public Engine API (see
// state_bench.h for the protocol and the metrics).
#include "state_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "engram/engine.h"
#include "temp_dir.h"
#include "util/normalize.h"

namespace engram::bench {
namespace {

using nlohmann::json;

struct GoldAssertion {
  std::string id;
  int event_index = 0;
  std::string value;
  bool has_coordinate = false;
  std::string subject, slot;
  std::map<std::string, std::string> qualifiers;
  bool placeholder = false;  // the value never occurs in the text
};

struct BundleEvent {
  std::string id, occurred_at, text;
};

struct Bundle {
  std::string id, category;
  std::vector<BundleEvent> events;
  std::vector<GoldAssertion> gold;
  std::set<std::string> current, historical;
  std::set<std::pair<std::string, std::string>> edges;
};

struct ClaimView {
  std::string id, subject, attribute, value, status, superseded_by;
  bool closed = false;  // its valid time has ended (valid_to set): history, not current
  std::map<std::string, std::string> coordinates;
  std::set<int> events;  // event indexes of its "supports" evidence
  std::string text;
};

// NFKC, case folded, without spaces (SOURCE.md's value match).
std::string Fold(std::string_view s) {
  std::string k = NormalizeKey(s);
  k.erase(std::remove(k.begin(), k.end(), ' '), k.end());
  return k;
}

Result<std::vector<json>> ReadJsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Error(Status::IOError(fmt::format("cannot open {}", path)));
  std::vector<json> out;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    try {
      out.push_back(json::parse(line));
    } catch (const std::exception& e) {
      return Error(Status::InvalidArgument(fmt::format("{} line {}: {}", path, number, e.what())));
    }
  }
  return out;
}

Result<std::vector<Bundle>> LoadBundles(const StateBenchOptions& o) {
  auto corpus = ReadJsonl(fmt::format("{}/v0300_state_{}_corpus.jsonl", o.data_dir, o.split));
  if (!corpus) return Error(corpus.error());
  auto gold = ReadJsonl(fmt::format("{}/v0300_state_{}_gold.jsonl", o.data_dir, o.split));
  if (!gold) return Error(gold.error());
  std::map<std::string, const json*> gold_of;
  for (const json& g : *gold) gold_of[g.at("bundle_id").get<std::string>()] = &g;
  std::vector<Bundle> out;
  try {
    for (const json& c : *corpus) {
      Bundle b;
      b.id = c.at("bundle_id").get<std::string>();
      b.category = c.at("category").get<std::string>();
      for (const json& e : c.at("events")) {
        b.events.push_back({e.at("event_id").get<std::string>(), e.at("occurred_at").get<std::string>(),
                            e.at("content").at("text").get<std::string>()});
      }
      auto it = gold_of.find(b.id);
      if (it == gold_of.end()) return Error(Status::InvalidArgument("no gold for bundle " + b.id));
      const json& g = *it->second;
      for (const json& a : g.at("atomic_claims")) {
        GoldAssertion ga;
        ga.id = a.at("assertion_id").get<std::string>();
        ga.event_index = a.at("source_event_indices").at(0).get<int>();
        ga.value = a.at("state_value").get<std::string>();
        const json& co = a.at("coordinate");
        if (!co.is_null()) {
          ga.has_coordinate = true;
          ga.subject = co.at("canonical_subject").get<std::string>();
          ga.slot = co.at("canonical_slot").get<std::string>();
          for (const auto& [k, v] : co.at("coordinate_qualifiers").items()) ga.qualifiers[k] = Fold(v.get<std::string>());
        }
        ga.placeholder = Fold(b.events.at(ga.event_index).text).find(Fold(ga.value)) == std::string::npos;
        b.gold.push_back(std::move(ga));
      }
      for (const json& id : g.at("current_assertion_ids")) b.current.insert(id.get<std::string>());
      for (const json& id : g.at("historical_assertion_ids")) b.historical.insert(id.get<std::string>());
      for (const json& e : g.at("expected_supersede_edges")) {
        b.edges.insert({e.at(0).get<std::string>(), e.at(1).get<std::string>()});
      }
      out.push_back(std::move(b));
    }
  } catch (const std::exception& e) {
    return Error(Status::InvalidArgument(fmt::format("bad corpus or gold: {}", e.what())));
  }
  return out;
}

ClaimView ViewOf(const Claim& c, const std::map<std::string, int>& index_of_event) {
  ClaimView v;
  v.id = c.id;
  v.subject = c.subject;
  v.attribute = c.slot.empty() ? c.predicate : c.predicate + "/" + c.slot;
  v.value = c.value;
  v.status = c.status;
  v.superseded_by = c.superseded_by_id;
  v.closed = c.valid_to.has_value();
  v.text = c.text;
  for (const std::string& q : c.qualifiers) {
    size_t eq = q.find('=');
    if (eq != std::string::npos) v.coordinates[q.substr(0, eq)] = Fold(q.substr(eq + 1));
  }
  for (const EvidenceRef& e : c.evidence) {
    auto it = index_of_event.find(e.event_id);
    if (e.relation == "supports" && it != index_of_event.end()) v.events.insert(it->second);
  }
  return v;
}

// How well a claim fits an assertion it may match: 0 = it cannot.
int Fit(const GoldAssertion& a, const ClaimView& c, const std::string& event_text) {
  if (c.events.count(a.event_index) == 0) return 0;
  const bool same_subject = a.has_coordinate && Fold(c.subject) == Fold(a.subject);
  if (!a.placeholder) {
    if (Fold(c.value).find(Fold(a.value)) == std::string::npos) return 0;
  } else if (a.has_coordinate ? !same_subject
                              : (c.subject == "user" || Fold(event_text).find(Fold(c.subject)) == std::string::npos)) {
    return 0;
  }
  int fit = 1 + (same_subject ? 2 : 0);
  for (const auto& [k, v] : a.qualifiers) {
    for (const auto& [ck, cv] : c.coordinates) fit += cv == v ? 1 : 0;
  }
  return fit;
}

struct BundleResult {
  std::map<std::string, std::string> claim_of;  // assertion id → claim id
  std::vector<ClaimView> claims;
};

BundleResult Match(const Bundle& b, std::vector<ClaimView> claims) {
  BundleResult r;
  std::set<std::string> used;
  for (const GoldAssertion& a : b.gold) {
    const ClaimView* best = nullptr;
    int best_fit = 0;
    for (const ClaimView& c : claims) {
      if (used.count(c.id) > 0) continue;
      int fit = Fit(a, c, b.events.at(a.event_index).text);
      if (fit > best_fit) {
        best = &c;
        best_fit = fit;
      }
    }
    if (best == nullptr) continue;
    used.insert(best->id);
    r.claim_of[a.id] = best->id;
  }
  r.claims = std::move(claims);
  return r;
}

// The name each gold name is matched with most often.
std::map<std::string, std::string> Majority(const std::map<std::pair<std::string, std::string>, int>& pairs) {
  std::map<std::string, std::pair<std::string, int>> best;
  for (const auto& [p, n] : pairs) {
    auto& b = best[p.first];
    if (n > b.second) b = {p.second, n};
  }
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : best) out[k] = v.first;
  return out;
}

struct Totals {
  int gold = 0, claims = 0, matched = 0;
  int state_gold = 0, state_matched = 0, coordinate_ok = 0;
  int edges_expected = 0, edges_made = 0, edges_ok = 0, counter_supersedes = 0;
  int active_state = 0, stale = 0, historical = 0, historical_kept = 0;
  int questions = 0, older_first = 0, unanswered = 0;
  std::vector<std::string> misses;
};

const ClaimView* Find(const BundleResult& r, const std::string& claim_id) {
  for (const ClaimView& c : r.claims) {
    if (c.id == claim_id) return &c;
  }
  return nullptr;
}

// The current-state question of a slot, as a user would ask it.
std::string QuestionFor(const GoldAssertion& a) {
  static const std::map<std::string, std::string> kSlotWords = {
      {"config.version", "当前版本"},         {"state.service_health", "服务 当前状态"},
      {"state.deployment", "部署 当前状态"},  {"state.job", "任务 当前状态"},
      {"state.process", "进程 当前状态"},     {"state.connectivity", "连接 当前状态"}};
  std::string q = a.subject;
  for (const auto& [k, v] : a.qualifiers) q += " " + v;
  auto it = kSlotWords.find(a.slot);
  return q + " " + (it == kSlotWords.end() ? a.slot : it->second) + "是什么？";
}

// True when `value` occurs in `text` as a word of its own ("healthy" is not in "unhealthy").
bool NamesValue(const std::string& text, const std::string& value) {
  const std::string t = NormalizeKey(text), v = Fold(value);
  auto word = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.'; };
  for (size_t at = t.find(v); at != std::string::npos; at = t.find(v, at + 1)) {
    bool left = at == 0 || !word(t[at - 1]);
    bool right = at + v.size() >= t.size() || !word(t[at + v.size()]) ||
                 (t[at + v.size()] == '.' && (at + v.size() + 1 >= t.size() || !word(t[at + v.size() + 1])));
    if (left && right) return true;
  }
  return false;
}

Status AskCurrent(Engine& engine, const Bundle& b, Totals& t) {
  for (const GoldAssertion& cur : b.gold) {
    if (!cur.has_coordinate || cur.placeholder || b.current.count(cur.id) == 0) continue;
    std::set<std::string> old_values;
    for (const GoldAssertion& a : b.gold) {
      if (a.id != cur.id && a.has_coordinate && a.subject == cur.subject && a.slot == cur.slot &&
          a.qualifiers == cur.qualifiers && Fold(a.value) != Fold(cur.value)) {
        old_values.insert(a.value);
      }
    }
    if (old_values.empty()) continue;
    RecallQuery q;
    q.text = QuestionFor(cur);
    q.namespace_name = b.id;
    q.limit = 10;
    auto found = engine.Recall(q);
    if (!found) return found.error().WithContext("Recall " + b.id);
    ++t.questions;
    bool decided = false;
    for (const RecallItem& item : found->items) {
      if (NamesValue(item.text, cur.value)) {
        decided = true;
        break;
      }
      if (std::any_of(old_values.begin(), old_values.end(), [&](const std::string& v) { return NamesValue(item.text, v); })) {
        ++t.older_first;
        decided = true;
        if (t.misses.size() < 400) t.misses.push_back(fmt::format("older first: {} «{}» → {}", b.id, q.text, item.text));
        break;
      }
    }
    if (!decided) {
      ++t.unanswered;
      if (t.misses.size() < 400) t.misses.push_back(fmt::format("no answer: {} «{}» ({} items)", b.id, q.text, found->items.size()));
    }
  }
  return Status::Ok();
}

void Score(const Bundle& b, const BundleResult& r, const std::map<std::string, std::string>& slot_map,
           const std::map<std::string, std::string>& key_map, Totals& t) {
  t.gold += static_cast<int>(b.gold.size());
  t.claims += static_cast<int>(r.claims.size());
  t.matched += static_cast<int>(r.claim_of.size());
  std::map<std::string, std::string> assertion_of;  // claim id → assertion id
  for (const auto& [a, c] : r.claim_of) assertion_of[c] = a;
  for (const GoldAssertion& a : b.gold) {
    auto it = r.claim_of.find(a.id);
    const ClaimView* c = it == r.claim_of.end() ? nullptr : Find(r, it->second);
    if (c == nullptr && t.misses.size() < 400) {
      t.misses.push_back(fmt::format("unmatched: {} «{}»", a.id, b.events.at(a.event_index).text.substr(
                                                                      b.events.at(a.event_index).text.rfind('\n') + 1)));
    }
    if (!a.has_coordinate) continue;
    ++t.state_gold;
    if (b.historical.count(a.id) > 0) {
      ++t.historical;
      if (c != nullptr && (c->status != "active" || c->closed)) ++t.historical_kept;
      else if (t.misses.size() < 400) t.misses.push_back(fmt::format("history lost: {}", a.id));
    }
    if (c == nullptr) continue;
    ++t.state_matched;
    std::map<std::string, std::string> want;
    for (const auto& [k, v] : a.qualifiers) want[key_map.count(k) ? key_map.at(k) : k] = v;
    auto slot = slot_map.find(a.slot);
    if (Fold(c->subject) == Fold(a.subject) && slot != slot_map.end() && slot->second == c->attribute &&
        want == c->coordinates) {
      ++t.coordinate_ok;
    }
    if (c->status == "active" && !c->closed) {
      ++t.active_state;
      if (b.current.count(a.id) == 0 && b.historical.count(a.id) > 0) {
        ++t.stale;
        if (t.misses.size() < 400) t.misses.push_back(fmt::format("stale: {} {} is active", a.id, c->text));
      }
    }
  }
  t.edges_expected += static_cast<int>(b.edges.size());
  for (const ClaimView& c : r.claims) {
    if (c.superseded_by.empty()) continue;
    ++t.edges_made;
    if (b.category == "counterexample") ++t.counter_supersedes;
    auto from = assertion_of.find(c.id), to = assertion_of.find(c.superseded_by);
    const bool ok = from != assertion_of.end() && to != assertion_of.end() && b.edges.count({from->second, to->second}) > 0;
    if (ok) ++t.edges_ok;
    else if (t.misses.size() < 400) t.misses.push_back(fmt::format("wrong edge: {} {} → {}", b.id, c.text, c.superseded_by));
  }
  for (const ClaimView& c : r.claims) {
    if (assertion_of.count(c.id) == 0 && t.misses.size() < 400) {
      t.misses.push_back(fmt::format("inflated: {} [{}] {} | {} | {}", b.id, c.status, c.subject, c.attribute, c.value));
    }
  }
}

double Ratio(int a, int b) { return b == 0 ? 0.0 : static_cast<double>(a) / b; }

void Print(const StateBenchOptions& o, const Totals& t, size_t bundles, size_t events, double extract_ms) {
  json j = {{"bundles", bundles},
            {"events", events},
            {"gold_assertions", t.gold},
            {"state_assertions", t.state_gold},
            {"claims", t.claims},
            {"atomic_precision", Ratio(t.matched, t.claims)},
            {"atomic_recall", Ratio(t.matched, t.gold)},
            {"coordinate_precision", Ratio(t.coordinate_ok, t.state_matched)},
            {"coordinate_recall", Ratio(t.coordinate_ok, t.state_gold)},
            {"edge_precision", Ratio(t.edges_ok, t.edges_made)},
            {"edge_recall", Ratio(t.edges_ok, t.edges_expected)},
            {"edges_made", t.edges_made},
            {"edges_expected", t.edges_expected},
            {"counterexample_supersedes", t.counter_supersedes},
            {"stale_injection", Ratio(t.stale, t.active_state)},
            {"historical_recall", Ratio(t.historical_kept, t.historical)},
            {"inflation", Ratio(t.claims - t.matched, t.gold)},
            {"current_questions", t.questions},
            {"older_value_first", Ratio(t.older_first, t.questions)},
            {"unanswered", Ratio(t.unanswered, t.questions)},
            {"extraction_ms", extract_ms}};
  if (o.json) {
    fmt::print("{}\n", j.dump());
  } else {
    fmt::print("HL-Mem state lifecycle, split {}: {} bundles, {} events, {} assertions ({} with a state "
               "coordinate), {} claims; extraction {:.1f} ms\n",
               o.split, bundles, events, t.gold, t.state_gold, t.claims, extract_ms);
    for (const char* k : {"atomic_precision", "atomic_recall", "coordinate_precision", "coordinate_recall",
                          "edge_precision", "edge_recall", "edges_made", "edges_expected",
                          "counterexample_supersedes", "stale_injection", "historical_recall", "inflation",
                          "current_questions", "older_value_first", "unanswered"}) {
      fmt::print("  {:<28}{}\n", k, j[k].is_number_float() ? fmt::format("{:.3f}", j[k].get<double>()) : j[k].dump());
    }
  }
  if (o.dump_misses) {
    for (const std::string& m : t.misses) fmt::print(stderr, "{}\n", m);
  }
}

Status Run(const StateBenchOptions& o) {
  auto bundles = LoadBundles(o);
  if (!bundles) return bundles.error();
  auto dir = TempDir::Create();
  if (!dir) return dir.error();
  Options options;
  options.db_path = dir->path() + "/state.db";
  auto opened = Engine::Open(options);
  if (!opened) return opened.error().WithContext("Engine::Open");
  Engine& engine = **opened;
  std::vector<EventInput> inputs;
  for (const Bundle& b : *bundles) {
    for (const BundleEvent& e : b.events) {
      EventInput in;
      in.namespace_name = b.id;
      in.session_id = b.id;
      in.role = "user";
      in.content = e.text;
      in.occurred_at = e.occurred_at;
      in.idempotency_key = e.id;
      inputs.push_back(std::move(in));
    }
  }
  auto ingested = engine.IngestBatch(inputs);
  if (!ingested) return ingested.error().WithContext("IngestBatch");
  std::map<std::string, int> index_of_event;  // engram event id → event index in its bundle
  size_t k = 0;
  for (const Bundle& b : *bundles) {
    for (size_t i = 0; i < b.events.size(); ++i) index_of_event[(*ingested)[k++].event.id] = static_cast<int>(i);
  }
  auto start = std::chrono::steady_clock::now();
  auto processed = engine.Process(/*drain=*/true);
  if (!processed) return processed.error().WithContext("Process");
  double extract_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::vector<BundleResult> results;
  std::map<std::pair<std::string, std::string>, int> slot_pairs, key_pairs;
  for (const Bundle& b : *bundles) {
    ListClaimsQuery list;
    list.namespace_name = b.id;
    list.include_history = true;
    list.limit = 1000;
    auto claims = engine.ListClaims(list);
    if (!claims) return claims.error().WithContext("ListClaims " + b.id);
    std::vector<ClaimView> views;
    for (const Claim& c : *claims) views.push_back(ViewOf(c, index_of_event));
    results.push_back(Match(b, std::move(views)));
    for (const GoldAssertion& a : b.gold) {
      auto it = results.back().claim_of.find(a.id);
      if (!a.has_coordinate || it == results.back().claim_of.end()) continue;
      const ClaimView* c = Find(results.back(), it->second);
      ++slot_pairs[{a.slot, c->attribute}];
      for (const auto& [gk, gv] : a.qualifiers) {
        for (const auto& [ck, cv] : c->coordinates) {
          if (cv == gv) ++key_pairs[{gk, ck}];
        }
      }
    }
  }
  const auto slot_map = Majority(slot_pairs), key_map = Majority(key_pairs);
  Totals totals;
  for (size_t i = 0; i < bundles->size(); ++i) {
    Score((*bundles)[i], results[i], slot_map, key_map, totals);
    ENGRAM_RETURN_IF_ERROR(AskCurrent(engine, (*bundles)[i], totals));
  }
  Print(o, totals, bundles->size(), inputs.size(), extract_ms);
  return Status::Ok();
}

}  // namespace

int RunStateBench(const StateBenchOptions& options) {
  Status st = Run(options);
  if (!st.ok()) {
    fmt::print(stderr, "engram-bench state: {}\n", st.message());
    return st.code() == StatusCode::kInvalidArgument ? 2 : 1;
  }
  return 0;
}

}  // namespace engram::bench
