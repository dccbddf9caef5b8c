// bench/memorybank_bench.cc — MemoryBank exchange retrieval through the public Engine API.
//
// Protocol (../shared/data/memorybank/SOURCE.md "Suggested metric"; benchmarks.md §5 P9): for each
// user of the gold file, one isolated store holding only that user's history (every exchange as
// two events, import::ToEventInputs), extraction run (Process drain), then every answerable
// question with gold evidence asked verbatim with Recall(limit 50). Returned events map to their
// exchange through metadata_json; returned claims to the exchanges of their `supports` evidence.
//
// Unit of scoring: the exchange. The returned items are folded into a ranked list of distinct
// exchanges in order of first appearance (the query and the response of one exchange take one
// rank; a claim citing several exchanges adds each of them), and the top k of that list are
// scored: recall@k = |top-k ∩ gold| / |gold| macro-averaged, hit@k = any gold in the top k.
//
// Baselines of the same run, self-contained (no engine code):
//   * plain_bm25 — BM25Okapi as rank_bm25 computes it (k1 1.5, b 0.75, ε 0.25 — the "plain"
//     parameters of benchmarks.md §5.3), one document per exchange (query + response); tokens:
//     every maximal run of CJK characters as its overlapping character bigrams (a one-character
//     run as itself), every other run of letters and digits as one lowercase word. Chinese text is
//     therefore character bigrams, English text lowercase words (issue 4's "plain BM25").
//   * plain_bm25_turns — the same scorer with one document per turn (the engine's unit), folded
//     to exchanges like the engine's events: shows how much of a gap is the unit of retrieval.
#include "memorybank_bench.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engram/engine.h"
#include "engram/options.h"
#include "eval/retrieval_metrics.h"
#include "import/memorybank.h"
#include "temp_dir.h"
#include "bench_util.h"
#include "plain_bm25.h"

namespace engram::bench {
namespace {

using json = nlohmann::ordered_json;

constexpr int kRecallLimit = 50;
constexpr std::array<int, 4> kKs = {1, 3, 5, 10};
constexpr int kMissK = 5;          // --dump-misses: questions with recall@5 < 1 in some config
constexpr int kDumpTop = 3;        // --dump-misses: exchanges shown per configuration
constexpr size_t kSnippetChars = 60;  // --dump-misses: code points of text shown per side

// BM25Okapi "plain" parameters: benchmarks.md §5.3 (rank_bm25 defaults).
constexpr double kPlainK1 = 1.5;
constexpr double kPlainB = 0.75;
constexpr double kPlainEpsilon = 0.25;

// ---- Plain BM25 baseline -----------------------------------------------------------------------

// Decodes one UTF-8 code point at s[*i] and advances *i; ill-formed bytes give U+FFFD (one byte).
char32_t NextCodePoint(std::string_view s, size_t* i) {
  const auto c = static_cast<unsigned char>(s[*i]);
  int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || *i + static_cast<size_t>(len) > s.size()) {
    ++*i;
    return 0xFFFD;
  }
  char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(s[*i + static_cast<size_t>(k)]);
    if ((cc >> 6) != 0x2) {
      ++*i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  *i += static_cast<size_t>(len);
  return cp;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Han (CJK unified ideographs, extensions, compatibility), kana and Hangul syllables.
bool IsCjk(char32_t cp) {
  return (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x20000 && cp <= 0x2FA1F) ||
         (cp >= 0x3040 && cp <= 0x30FF) || (cp >= 0xAC00 && cp <= 0xD7AF);
}

// A letter or digit of a word, lower-cased: ASCII (full-width forms folded to ASCII) and the Latin
// letters of U+00C0–U+024F (kept as they are). 0 for a separator.
char32_t WordChar(char32_t cp) {
  if (cp >= 0xFF10 && cp <= 0xFF5A) cp -= 0xFEE0;  // full-width digits and letters
  if (cp >= 'A' && cp <= 'Z') return cp - 'A' + 'a';
  if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) return cp;
  if (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) return cp;
  return 0;
}

// The baseline's tokens (see the file comment), in text order.
std::vector<std::string> PlainTokens(std::string_view text) {
  std::vector<std::string> tokens;
  std::vector<char32_t> cjk_run;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
    if (cjk_run.size() == 1) {
      std::string t;
      AppendUtf8(cjk_run[0], &t);
      tokens.push_back(std::move(t));
    }
    for (size_t i = 0; i + 1 < cjk_run.size(); ++i) {
      std::string t;
      AppendUtf8(cjk_run[i], &t);
      AppendUtf8(cjk_run[i + 1], &t);
      tokens.push_back(std::move(t));
    }
    cjk_run.clear();
  };
  for (size_t i = 0; i < text.size();) {
    char32_t cp = NextCodePoint(text, &i);
    if (IsCjk(cp)) {
      if (!word.empty()) flush();
      cjk_run.push_back(cp);
    } else if (char32_t w = WordChar(cp); w != 0) {
      if (!cjk_run.empty()) flush();
      AppendUtf8(w, &word);
    } else {
      flush();
    }
  }
  flush();
  return tokens;
}

// ---- Scoring ---------------------------------------------------------------------------------

// The exchanges of the returned items, distinct, in order of first appearance.
std::vector<std::string> RankExchanges(const std::vector<std::vector<std::string>>& item_exchanges) {
  std::vector<std::string> ranked;
  std::set<std::string> seen;
  for (const auto& ids : item_exchanges) {
    for (const std::string& id : ids) {
      if (!id.empty() && seen.insert(id).second) ranked.push_back(id);
    }
  }
  return ranked;
}

// recall@k for every k of kKs, then hit@k.
std::vector<double> ScoreQuestion(const std::vector<std::string>& ranked,
                                  const std::vector<std::string>& gold) {
  std::vector<double> v;
  for (int k : kKs) v.push_back(eval::LocomoRecallAtK(ranked, gold, k));
  for (int k : kKs) v.push_back(eval::RecallAnyAtK(ranked, gold, k));
  return v;
}

std::vector<std::string> MetricNames() {
  std::vector<std::string> names;
  for (int k : kKs) names.push_back(fmt::format("recall@{}", k));
  for (int k : kKs) names.push_back(fmt::format("hit@{}", k));
  return names;
}

struct Bucket {
  std::vector<eval::MeanAccumulator> metrics =
      std::vector<eval::MeanAccumulator>(MetricNames().size());
  int64_t n() const { return metrics[0].count(); }
  void Add(const std::vector<double>& values) {
    for (size_t i = 0; i < values.size(); ++i) metrics[i].Add(values[i]);
  }
};

// True when the question names a calendar date ("5月4日", "5月3号", "May 4th", "April 27"): the
// answer then lies in that day's session, which lexical matching alone cannot see.
bool NamesADate(const std::string& question) {
  static const std::regex kChinese("[0-9]+\\s*月\\s*[0-9]+\\s*(日|号)");
  static const std::regex kEnglish(
      "\\b(january|february|march|april|may|june|july|august|september|october|november|"
      "december)\\s+[0-9]{1,2}(st|nd|rd|th)?\\b",
      std::regex::ECMAScript | std::regex::icase);
  return std::regex_search(question, kChinese) || std::regex_search(question, kEnglish);
}

struct ConfigReport {
  std::string name;
  std::string what;
  Bucket all;
  Bucket dated;    // questions that name a date (NamesADate)
  Bucket undated;  // the others
  std::map<std::string, Bucket> per_user;
  std::vector<double> latencies_ms;
  eval::MeanAccumulator items_returned;
  eval::MeanAccumulator exchanges_returned;  // distinct exchanges of the returned items
  int64_t unmapped_items = 0;  // returned items that map to no known exchange (should stay 0)
  int64_t claim_items = 0;     // returned items of type "claim"
};

// One asked question, kept for --dump-misses.
struct Asked {
  std::string user;
  const import::MemoryBankQuestion* question = nullptr;
  std::vector<std::string> gold;
  std::vector<std::vector<std::string>> ranked;  // per configuration, the exchange ranking
  std::vector<std::string> engram_terms;         // the terms Recall searched with
  std::vector<std::string> plain_tokens;         // the baseline's query tokens
};

struct WritePath {
  int64_t events = 0;
  double ingest_ms = 0;
  double extraction_ms = 0;
  ProcessReport process;
  int64_t claims = 0;         // stored claims (current ones)
  int64_t covered_gold = 0;   // gold exchanges (per question) that support at least one claim
  int64_t gold_refs = 0;
};

enum ConfigIndex { kEngram = 0, kEngramEvents = 1, kPlainBm25 = 2, kPlainBm25Turns = 3 };

std::vector<ConfigReport> MakeReports() {
  Options defaults;
  std::vector<ConfigReport> reports(4);
  reports[kEngram].name = "engram";
  reports[kEngram].what = fmt::format(
      "Engine::Recall, defaults (full analysis, BM25 k1 {} / b {}, extractor {}), claims + events",
      defaults.bm25_k1, defaults.bm25_b, defaults.extractor);
  reports[kEngramEvents].name = "engram_events";
  reports[kEngramEvents].what = "the same store, include_claims = false";
  reports[kPlainBm25].name = "plain_bm25";
  reports[kPlainBm25].what = fmt::format(
      "bench-local BM25Okapi k1 {} / b {} / eps {}, one document per exchange, CJK character "
      "bigrams + lowercase words",
      kPlainK1, kPlainB, kPlainEpsilon);
  reports[kPlainBm25Turns].name = "plain_bm25_turns";
  reports[kPlainBm25Turns].what = "the same scorer, one document per turn (the engine's unit)";
  return reports;
}

void Record(ConfigReport& report, const std::string& user, const std::string& question,
            const std::vector<std::string>& ranked, const std::vector<std::string>& gold) {
  std::vector<double> values = ScoreQuestion(ranked, gold);
  report.all.Add(values);
  (NamesADate(question) ? report.dated : report.undated).Add(values);
  report.per_user[user].Add(values);
  report.exchanges_returned.Add(static_cast<double>(ranked.size()));
}

// Ingests one user into a fresh store, extracts, asks the user's questions; adds to `reports`,
// `write` and `asked`.
Status RunUser(const import::MemoryBankUser& user,
               const std::vector<const import::MemoryBankQuestion*>& questions,
               std::vector<ConfigReport>& reports, WritePath& write, std::vector<Asked>& asked) {
  std::set<std::string> known;  // exchange ids of this user
  for (const import::MemoryBankDay& day : user.days) {
    for (size_t i = 0; i < day.exchanges.size(); ++i) {
      known.insert(import::MemoryBankExchangeId(day.date, static_cast<int>(i)));
    }
  }

  Result<TempDir> dir = TempDir::Create();
  if (!dir) return dir.error();
  Options options;
  options.db_path = dir->path() + "/memorybank.db";
  Result<std::unique_ptr<Engine>> opened = Engine::Open(options);
  if (!opened) return opened.error().WithContext("Engine::Open");
  std::unique_ptr<Engine> engine = std::move(*opened);

  std::vector<EventInput> events = import::ToEventInputs(user);
  Clock::time_point start = Clock::now();
  Result<std::vector<IngestResult>> ingested = engine->IngestBatch(events);
  write.ingest_ms += MsSince(start);
  if (!ingested) return ingested.error().WithContext("IngestBatch");
  for (const IngestResult& r : *ingested) {
    if (r.duplicate) {
      return Status::Internal(
          fmt::format("event {} was stored as a duplicate", r.event.idempotency_key));
    }
  }
  write.events += static_cast<int64_t>(ingested->size());

  start = Clock::now();
  Result<ProcessReport> processed = engine->Process(/*drain=*/true);
  write.extraction_ms += MsSince(start);
  if (!processed) return processed.error().WithContext("Process");
  write.process.batches += processed->batches;
  write.process.events += processed->events;
  write.process.claims_created += processed->claims_created;
  write.process.jobs_failed += processed->jobs_failed;
  for (const std::string& e : processed->errors) {
    if (write.process.errors.size() < 5) write.process.errors.push_back(e);
  }
  ListClaimsQuery list;
  list.namespace_name = user.name;
  list.limit = 100000;
  Result<std::vector<Claim>> claims = engine->ListClaims(list);
  if (!claims) return claims.error().WithContext("ListClaims");
  write.claims += static_cast<int64_t>(claims->size());
  std::set<std::string> covered;
  for (const Claim& c : *claims) {
    for (const EvidenceRef& ev : c.evidence) {
      if (ev.relation == "supports") covered.insert(import::MemoryBankExchangeOfMetadata(ev.metadata_json));
    }
  }

  // The baselines' documents: exchanges, and turns with the exchange each belongs to.
  std::vector<std::string> exchange_ids;
  std::vector<std::vector<std::string>> exchange_docs, turn_docs;
  std::vector<std::string> turn_exchange;
  for (const import::MemoryBankDay& day : user.days) {
    for (size_t i = 0; i < day.exchanges.size(); ++i) {
      const import::MemoryBankExchange& x = day.exchanges[i];
      const std::string id = import::MemoryBankExchangeId(day.date, static_cast<int>(i));
      exchange_ids.push_back(id);
      exchange_docs.push_back(PlainTokens(x.query + "\n" + x.response));
      for (const std::string* side : {&x.query, &x.response}) {
        turn_docs.push_back(PlainTokens(*side));
        turn_exchange.push_back(id);
      }
    }
  }
  const PlainBm25 by_exchange(exchange_docs, {kPlainK1, kPlainB, kPlainEpsilon});
  const PlainBm25 by_turn(turn_docs, {kPlainK1, kPlainB, kPlainEpsilon});

  // The questions are asked the day after the user's last recorded day (the histories carry no
  // time of asking): "5月4日" then means the 4 May of the history, as it did for the user.
  TimestampMs asked_at = 0;
  for (const import::MemoryBankDay& day : user.days) asked_at = std::max(asked_at, day.start);
  asked_at += 24LL * 3600 * 1000;
  for (const import::MemoryBankQuestion* q : questions) {
    Asked a;
    a.user = user.name;
    a.question = q;
    for (const import::MemoryBankGoldRef& g : q->gold) {
      a.gold.push_back(import::MemoryBankExchangeId(g.date, g.index));
      write.covered_gold += covered.count(a.gold.back()) > 0 ? 1 : 0;
      ++write.gold_refs;
    }
    a.ranked.resize(reports.size());

    for (ConfigIndex c : {kEngram, kEngramEvents}) {
      ConfigReport& report = reports[c];
      RecallQuery query;
      query.text = q->question;
      query.namespace_name = user.name;
      query.limit = kRecallLimit;
      query.now = asked_at;
      query.include_claims = c == kEngram;
      query.include_events = true;
      start = Clock::now();
      Result<RecallResult> found = engine->Recall(query);
      report.latencies_ms.push_back(MsSince(start));
      if (!found) return found.error().WithContext(fmt::format("Recall of \"{}\"", q->question));
      report.items_returned.Add(static_cast<double>(found->items.size()));
      if (c == kEngram) a.engram_terms = found->terms;
      std::vector<std::vector<std::string>> item_exchanges;
      for (const RecallItem& item : found->items) {
        std::vector<std::string> ids;
        if (item.type == "claim") {
          ++report.claim_items;
          for (const EvidenceRef& ev : item.evidence) {
            if (ev.relation == "supports") {
              ids.push_back(import::MemoryBankExchangeOfMetadata(ev.metadata_json));
            }
          }
        } else {
          ids.push_back(import::MemoryBankExchangeOfMetadata(item.metadata_json));
        }
        if (std::none_of(ids.begin(), ids.end(),
                         [&](const std::string& id) { return known.count(id) > 0; })) {
          ++report.unmapped_items;
        }
        item_exchanges.push_back(std::move(ids));
      }
      a.ranked[c] = RankExchanges(item_exchanges);
      Record(report, user.name, q->question, a.ranked[c], a.gold);
    }

    // Baselines: the whole ranking (tokenise the question, score every document), timed.
    {
      start = Clock::now();
      a.plain_tokens = PlainTokens(q->question);
      std::vector<size_t> hits = by_exchange.Rank(a.plain_tokens);
      std::vector<std::vector<std::string>> items;
      for (size_t d : hits) items.push_back({exchange_ids[d]});
      a.ranked[kPlainBm25] = RankExchanges(items);
      reports[kPlainBm25].latencies_ms.push_back(MsSince(start));
      reports[kPlainBm25].items_returned.Add(static_cast<double>(hits.size()));
      Record(reports[kPlainBm25], user.name, q->question, a.ranked[kPlainBm25], a.gold);
    }
    {
      start = Clock::now();
      std::vector<size_t> hits = by_turn.Rank(PlainTokens(q->question));
      std::vector<std::vector<std::string>> items;
      for (size_t d : hits) items.push_back({turn_exchange[d]});
      a.ranked[kPlainBm25Turns] = RankExchanges(items);
      reports[kPlainBm25Turns].latencies_ms.push_back(MsSince(start));
      reports[kPlainBm25Turns].items_returned.Add(static_cast<double>(hits.size()));
      Record(reports[kPlainBm25Turns], user.name, q->question, a.ranked[kPlainBm25Turns],
             a.gold);
    }
    asked.push_back(std::move(a));
  }
  return Status::Ok();
}

// ---- Output --------------------------------------------------------------------------------

// The first `max_chars` code points of `s`, newlines as spaces, "…" when cut.
std::string Snippet(std::string_view s, size_t max_chars) {
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < s.size();) {
    if (chars == max_chars) {
      out += "…";
      break;
    }
    size_t before = i;
    char32_t cp = NextCodePoint(s, &i);
    if (cp == '\n' || cp == '\r') {
      out += ' ';
    } else {
      out.append(s.substr(before, i - before));
    }
    ++chars;
  }
  return out;
}

// 1-based rank of `id` in `ranked`, 0 when absent.
size_t RankOf(const std::vector<std::string>& ranked, const std::string& id) {
  auto it = std::find(ranked.begin(), ranked.end(), id);
  return it == ranked.end() ? 0 : static_cast<size_t>(it - ranked.begin()) + 1;
}

bool Missed(const Asked& a, size_t config) {
  return eval::LocomoRecallAtK(a.ranked[config], a.gold, kMissK) < 1.0;
}

std::string Join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const std::string& s : v) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

json MetricsJson(const Bucket& b) {
  json m = json::object();
  std::vector<std::string> names = MetricNames();
  for (size_t i = 0; i < names.size(); ++i) m[names[i]] = b.metrics[i].Mean();
  return m;
}

struct Counts {
  int64_t users = 0;
  int64_t days = 0;
  int64_t exchanges = 0;
  int64_t questions = 0;    // gold lines of the users scored
  int64_t answerable = 0;
  int64_t scored = 0;       // answerable with gold
  int64_t gold_refs = 0;
};

json ReportJson(const MemoryBankBenchOptions& options, const std::string& data_path,
                const std::string& gold_path, const std::vector<std::string>& user_order,
                const Counts& counts, const WritePath& write,
                const std::vector<ConfigReport>& reports, const std::vector<Asked>& asked) {
  json out;
  out["benchmark"] = "memorybank";
  out["lang"] = options.lang;
  out["data"] = data_path;
  out["gold"] = gold_path;
  out["users"] = user_order;
  out["counts"] = {{"users", counts.users},         {"days", counts.days},
                   {"exchanges", counts.exchanges}, {"events", write.events},
                   {"questions", counts.questions}, {"answerable", counts.answerable},
                   {"scored", counts.scored},       {"gold_refs", counts.gold_refs}};
  out["unit"] = "exchange (query + response); returned items folded to distinct exchanges";
  out["recall_limit"] = kRecallLimit;
  out["k"] = kKs;
  out["write_path"] = {
      {"ingest_ms", write.ingest_ms},
      {"extraction_ms", write.extraction_ms},
      {"extraction_events", write.process.events},
      {"claims", write.claims},
      {"claims_per_event",
       write.events > 0 ? static_cast<double>(write.claims) / static_cast<double>(write.events) : 0},
      {"gold_refs_supporting_a_claim", write.covered_gold},
      {"jobs_failed", write.process.jobs_failed},
      {"errors", write.process.errors}};
  json configs = json::object();
  for (const ConfigReport& r : reports) {
    json c;
    c["what"] = r.what;
    c["n"] = r.all.n();
    c["metrics"] = MetricsJson(r.all);
    c["questions_naming_a_date"] = {{"n", r.dated.n()}, {"metrics", MetricsJson(r.dated)}};
    c["other_questions"] = {{"n", r.undated.n()}, {"metrics", MetricsJson(r.undated)}};
    c["latency_ms"] = {{"n", r.latencies_ms.size()},
                       {"p50", eval::PercentileNearestRank(r.latencies_ms, 50)},
                       {"p95", eval::PercentileNearestRank(r.latencies_ms, 95)}};
    c["mean_items_returned"] = r.items_returned.Mean();
    c["mean_exchanges_returned"] = r.exchanges_returned.Mean();
    c["claim_items_returned"] = r.claim_items;
    c["unmapped_items"] = r.unmapped_items;
    json per_user = json::object();
    for (const std::string& u : user_order) {
      auto it = r.per_user.find(u);
      if (it == r.per_user.end()) continue;
      per_user[u] = {{"n", it->second.n()}, {"metrics", MetricsJson(it->second)}};
    }
    c["per_user"] = per_user;
    configs[r.name] = c;
  }
  out["configurations"] = configs;
  if (options.dump_misses) {
    json misses = json::array();
    for (const Asked& a : asked) {
      bool any = false;
      for (size_t c = 0; c < reports.size(); ++c) any |= Missed(a, c);
      if (!any) continue;
      json m;
      m["user"] = a.user;
      m["question"] = a.question->question;
      m["note"] = a.question->note;
      m["gold"] = a.gold;
      m["engram_terms"] = a.engram_terms;
      m["plain_tokens"] = a.plain_tokens;
      json ranks = json::object();
      json top = json::object();
      for (size_t c = 0; c < reports.size(); ++c) {
        json r = json::array();
        for (const std::string& g : a.gold) r.push_back(RankOf(a.ranked[c], g));
        ranks[reports[c].name] = r;
        std::vector<std::string> head(
            a.ranked[c].begin(),
            a.ranked[c].begin() + static_cast<std::ptrdiff_t>(
                                      std::min<size_t>(kMissK, a.ranked[c].size())));
        top[reports[c].name] = head;
      }
      m["gold_rank"] = ranks;
      m["top"] = top;
      misses.push_back(m);
    }
    out["misses"] = misses;
  }
  return out;
}

// The text of an exchange: "Q: ... | A: ...", cut.
std::string ExchangeText(const import::MemoryBankUser& user, const std::string& id) {
  for (const import::MemoryBankDay& day : user.days) {
    for (size_t i = 0; i < day.exchanges.size(); ++i) {
      if (import::MemoryBankExchangeId(day.date, static_cast<int>(i)) == id) {
        return fmt::format("Q: {} | A: {}", Snippet(day.exchanges[i].query, kSnippetChars),
                           Snippet(day.exchanges[i].response, kSnippetChars));
      }
    }
  }
  return "(unknown exchange)";
}

void PrintTables(const MemoryBankBenchOptions& options, const std::vector<std::string>& user_order,
                 const Counts& counts, const WritePath& write,
                 const std::vector<ConfigReport>& reports, const std::vector<Asked>& asked,
                 const std::map<std::string, const import::MemoryBankUser*>& users) {
  fmt::print(
      "MemoryBank exchange retrieval ({}): {} users, {} days, {} exchanges ({} events); {} "
      "questions, {} answerable, {} scored ({} gold exchanges); Recall limit {}\n",
      options.lang, counts.users, counts.days, counts.exchanges, write.events, counts.questions,
      counts.answerable, counts.scored, counts.gold_refs, kRecallLimit);
  fmt::print(
      "write path: ingest {:.1f} ms, extraction {:.1f} ms ({} events), {} claims ({:.3f} per "
      "event); {} of {} gold references support a claim; jobs failed {}\n",
      write.ingest_ms, write.extraction_ms, write.process.events, write.claims,
      write.events > 0 ? static_cast<double>(write.claims) / static_cast<double>(write.events) : 0,
      write.covered_gold, write.gold_refs, write.process.jobs_failed);
  for (const std::string& e : write.process.errors) fmt::print("  extraction error: {}\n", e);
  for (const ConfigReport& r : reports) fmt::print("  {:<17} {}\n", r.name, r.what);

  std::vector<std::string> names = MetricNames();
  fmt::print("\n{:<12}", "metric");
  for (const ConfigReport& r : reports) fmt::print("{:>18}", r.name);
  fmt::print("\n{:<12}", "n");
  for (const ConfigReport& r : reports) fmt::print("{:>18}", r.all.n());
  fmt::print("\n");
  for (size_t i = 0; i < names.size(); ++i) {
    fmt::print("{:<12}", names[i]);
    for (const ConfigReport& r : reports) fmt::print("{:>18.3f}", r.all.metrics[i].Mean());
    fmt::print("\n");
  }
  fmt::print("{:<12}", "p50 ms");
  for (const ConfigReport& r : reports) {
    fmt::print("{:>18.3f}", eval::PercentileNearestRank(r.latencies_ms, 50));
  }
  fmt::print("\n{:<12}", "p95 ms");
  for (const ConfigReport& r : reports) {
    fmt::print("{:>18.3f}", eval::PercentileNearestRank(r.latencies_ms, 95));
  }
  fmt::print("\n(latency: engram = the whole Engine::Recall call; plain = in-memory tokenise + "
             "score + sort, not comparable)\n");
  for (const ConfigReport& r : reports) {
    if (r.unmapped_items > 0) {
      fmt::print("WARNING: {}: {} returned items mapped to no known exchange\n", r.name,
                 r.unmapped_items);
    }
  }

  const size_t r5 = 2;  // index of recall@5 in MetricNames()
  const size_t h5 = 6;  // index of hit@5
  fmt::print("\nrecall@5 / hit@5 by question kind:\n{:<26}", "kind (n)");
  for (const ConfigReport& r : reports) fmt::print("{:>18}", r.name);
  fmt::print("\n");
  for (auto [label, bucket] : {std::pair<const char*, Bucket ConfigReport::*>{"names a date", &ConfigReport::dated},
                               {"other", &ConfigReport::undated}}) {
    fmt::print("{:<26}", fmt::format("{} ({})", label, (reports[0].*bucket).n()));
    for (const ConfigReport& r : reports) {
      fmt::print("{:>18}", fmt::format("{:.3f} / {:.3f}", (r.*bucket).metrics[r5].Mean(),
                                       (r.*bucket).metrics[h5].Mean()));
    }
    fmt::print("\n");
  }
  fmt::print("\nrecall@5 per user (n):\n{:<14}", "user");
  for (const ConfigReport& r : reports) fmt::print("{:>18}", r.name);
  fmt::print("\n");
  for (const std::string& u : user_order) {
    fmt::print("{:<14}", fmt::format("{} ({})", u, reports[0].per_user.count(u) > 0
                                                       ? reports[0].per_user.at(u).n()
                                                       : 0));
    for (const ConfigReport& r : reports) {
      auto it = r.per_user.find(u);
      fmt::print("{:>18.3f}", it == r.per_user.end() ? 0.0 : it->second.metrics[r5].Mean());
    }
    fmt::print("\n");
  }

  if (!options.dump_misses) return;
  fmt::print("\nquestions with recall@{} < 1 in some configuration (gold rank per configuration, 0 = "
             "not in the top {}):\n", kMissK, kRecallLimit);
  for (const Asked& a : asked) {
    bool any = false;
    for (size_t c = 0; c < reports.size(); ++c) any |= Missed(a, c);
    if (!any) continue;
    const import::MemoryBankUser& user = *users.at(a.user);
    fmt::print("\n[{}] {}\n  note: {}\n  engram terms: {}\n  plain tokens: {}\n", a.user,
               a.question->question, a.question->note, Join(a.engram_terms, " "),
               Join(a.plain_tokens, " "));
    for (const std::string& g : a.gold) {
      std::string ranks;
      for (size_t c = 0; c < reports.size(); ++c) {
        ranks += fmt::format("{}{} {}", ranks.empty() ? "" : ", ", reports[c].name,
                             RankOf(a.ranked[c], g));
      }
      fmt::print("  gold {} ({})\n    {}\n", g, ranks, ExchangeText(user, g));
    }
    for (size_t c : {static_cast<size_t>(kEngram), static_cast<size_t>(kPlainBm25)}) {
      for (size_t i = 0; i < a.ranked[c].size() && i < static_cast<size_t>(kDumpTop); ++i) {
        fmt::print("  {} #{} {}{}\n    {}\n", reports[c].name, i + 1, a.ranked[c][i],
                   RankOf(a.gold, a.ranked[c][i]) > 0 ? " (gold)" : "",
                   ExchangeText(user, a.ranked[c][i]));
      }
    }
  }
}

}  // namespace

int RunMemoryBankBench(const MemoryBankBenchOptions& options) {
  constexpr const char* kName = "engram-bench memorybank";
  if (options.lang != "cn" && options.lang != "en") {
    std::cerr << kName << ": field \"--lang\": unknown value \"" << options.lang
              << "\" (expected one of: cn, en)\n";
    return ExitCodeFor(StatusCode::kInvalidArgument);
  }
  // The engine configurations use the default extractor; $ENGRAM_EXTRACTOR would replace it.
  if (const char* env = std::getenv("ENGRAM_EXTRACTOR"); env != nullptr && *env != '\0') {
    std::cerr << kName << ": ignoring ENGRAM_EXTRACTOR=" << env << " (the bench uses the default)\n";
    unsetenv("ENGRAM_EXTRACTOR");
  }
  namespace fs = std::filesystem;
  const std::string file = fmt::format("memory_bank_{}.json", options.lang);
  std::string data_path = (fs::path(options.data_dir) / options.lang / file).string();
  if (std::error_code ec; !fs::exists(data_path, ec)) {
    data_path = (fs::path(options.data_dir) / file).string();
  }
  const std::string gold_path =
      !options.gold_path.empty()
          ? options.gold_path
          : (fs::path(options.data_dir) / fmt::format("gold_{}_dev.jsonl", options.lang)).string();

  Result<std::vector<import::MemoryBankUser>> loaded = import::LoadMemoryBankFile(data_path);
  if (!loaded) {
    std::cerr << kName << ": cannot load the MemoryBank data: " << loaded.error().ToString() << "\n";
    return ExitCodeFor(loaded.error().code());
  }
  Result<std::vector<import::MemoryBankQuestion>> gold = import::LoadMemoryBankGoldFile(gold_path);
  if (!gold) {
    std::cerr << kName << ": cannot load the gold file: " << gold.error().ToString() << "\n";
    return ExitCodeFor(gold.error().code());
  }
  std::map<std::string, const import::MemoryBankUser*> users;
  for (const import::MemoryBankUser& u : *loaded) users[u.name] = &u;

  // Users in gold-file order; every gold reference must name an existing exchange.
  std::vector<std::string> user_order;
  std::map<std::string, std::vector<const import::MemoryBankQuestion*>> questions;
  Counts counts;
  for (size_t i = 0; i < gold->size(); ++i) {
    const import::MemoryBankQuestion& q = (*gold)[i];
    auto u = users.find(q.user);
    if (u == users.end()) {
      std::cerr << kName << ": " << gold_path << ": line " << i + 1 << ": field \"user\": \""
                << q.user << "\" has no history in " << data_path << "\n";
      return ExitCodeFor(StatusCode::kInvalidArgument);
    }
    for (size_t g = 0; g < q.gold.size(); ++g) {
      const import::MemoryBankGoldRef& ref = q.gold[g];
      bool exists = false;
      for (const import::MemoryBankDay& day : u->second->days) {
        exists |= day.date == ref.date && static_cast<size_t>(ref.index) < day.exchanges.size();
      }
      if (!exists) {
        std::cerr << kName << ": " << gold_path << ": question " << i + 1 << " (line order): field "
                  << "\"gold[" << g << "]\": exchange " << ref.date << " #" << ref.index
                  << " does not exist in the history of \"" << q.user << "\"\n";
        return ExitCodeFor(StatusCode::kInvalidArgument);
      }
    }
    if (questions.find(q.user) == questions.end()) {
      if (options.limit_users > 0 && user_order.size() >= static_cast<size_t>(options.limit_users)) {
        continue;
      }
      user_order.push_back(q.user);
    }
    std::vector<const import::MemoryBankQuestion*>& list = questions[q.user];
    ++counts.questions;
    if (q.answerable) ++counts.answerable;
    if (q.answerable && !q.gold.empty()) {
      list.push_back(&q);
      ++counts.scored;
      counts.gold_refs += static_cast<int64_t>(q.gold.size());
    }
  }
  if (user_order.empty()) {
    std::cerr << kName << ": " << gold_path << " names no user\n";
    return ExitCodeFor(StatusCode::kInvalidArgument);
  }

  std::vector<ConfigReport> reports = MakeReports();
  WritePath write;
  std::vector<Asked> asked;
  for (const std::string& name : user_order) {
    const import::MemoryBankUser& user = *users.at(name);
    ++counts.users;
    counts.days += static_cast<int64_t>(user.days.size());
    for (const import::MemoryBankDay& d : user.days) {
      counts.exchanges += static_cast<int64_t>(d.exchanges.size());
    }
    Status st = RunUser(user, questions[name], reports, write, asked);
    if (!st.ok()) {
      std::cerr << kName << ": user \"" << name << "\": " << st.ToString() << "\n";
      return ExitCodeFor(st.code()) == 0 ? 1 : ExitCodeFor(st.code());
    }
  }

  if (options.json) {
    json out = ReportJson(options, data_path, gold_path, user_order, counts, write, reports, asked);
    std::cout << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    PrintTables(options, user_order, counts, write, reports, asked, users);
  }
  return 0;
}

}  // namespace engram::bench
