// bench/scale_bench.cc — ingest, extraction and recall cost of one large synthetic namespace.
//
// The generator (deterministic: its own SplitMix64 PRNG and its own Zipf sampler, no <random>
// distributions, so a seed gives the same bytes on every platform; it reads no file):
//
//   * Words are pronounceable consonant–vowel syllables ("ka", "lo", ...). One pool of 4,000
//     lowercase filler words of 2–3 syllables is drawn with a Zipf distribution (s = 1.0, rank 1
//     most frequent), so a few words are in a large share of the events, as in chat text. Disjoint
//     pools of 3-syllable words hold the 300 speakers, 400 cities, 300 foods and 300 companies
//     (capitalised) and 120 jobs and 200 events (lowercase), all drawn uniformly; no word is in two
//     pools. No-answer questions take 4-syllable words from two more pools, never used in events.
//   * One namespace "synthetic". Sessions of 10–40 turns (uniform), alternating a user turn
//     (speaker = one of the 300 users, uniform per session) and an assistant turn (speaker
//     "Assistant"). Session start times are spread evenly over two years (2024-01-01 to
//     2025-12-31, UTC) with a random offset within each slot; turns are 30–180 s apart.
//   * A user turn is a fact sentence with probability 0.15, else a filler sentence; an assistant
//     turn is always filler. Filler: one of 8 templates ("I think the {w} and the {w} were {w}
//     today.") over Zipf words. Facts, which the rule extractor turns into claims:
//       live      "I live in {City} now." / "I moved to {City} last week."
//       food      "My favourite food is {Food}."
//       work      "I work at {Company} as a {Job}."
//       birthday  "My birthday is {Month} {day}." (one fixed date per user)
//       attend    "I attended a {Event} on {Month} {day}."
//   * Every fact is recorded with its key (the part of it a question names: City, Food, Job,
//     nothing, Event). Q questions: 90% pick a recorded fact uniformly and ask about it in other
//     words ("When did {S} move to {City}?", "Does {S} really love {Food}?", "Where does {S}
//     work as a {Job}?", "When is {S}'s birthday?", "When did {S} attend the {Event}?"); its gold
//     is every event where that user stated a fact of that kind and key. A live, food or work fact
//     that the same user replaced later (a later fact of that kind with another key: the claim
//     was superseded) is asked with a history intent instead ("Did {S} live in {City} before?",
//     "Did {S} love {Food} before?", "Did {S} work as a {Job} before?") and reported as
//     `<kind>_history`. 10% have no answer: the current templates with a name and a value that
//     were never generated.
//
// Metrics: ingest rate (events/s over IngestBatch calls of `batch` events), extraction rate
// (events/s of Process(drain = true)), recall latency of Engine::Recall(limit 10, claims and
// events) single-threaded (wall time around the call), recall@10 (a gold event among the top 10
// items; a claim counts through its `supports` evidence), answerability per group, database
// bytes (file + WAL after a reopen) and ru_maxrss after each phase (peak so far, so monotone).
#include "scale_bench.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engram/engine.h"
#include "engram/options.h"
#include "recall/event_recall.h"
#include "temp_dir.h"
#include "bench_util.h"
#include "util/time.h"

namespace engram::bench {
namespace {

using json = nlohmann::ordered_json;

constexpr int kRecallLimit = 10;
constexpr int kUsers = 300;
constexpr int kFillerWords = 4000;
constexpr double kZipfS = 1.0;
constexpr double kFactProbability = 0.15;
constexpr double kNoAnswerShare = 0.10;
constexpr TimestampMs kStartMs = 1704067200000;            // 2024-01-01T00:00:00Z
constexpr TimestampMs kSpanMs = 731LL * 24 * 3600 * 1000;  // two years
constexpr const char* kNamespace = "synthetic";

int64_t MaxRssKiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss);
}

// Zipf over ranks 0..n-1: P(rank r) ∝ 1 / (r + 1)^s, sampled by binary search over the CDF.
class Zipf {
 public:
  Zipf(size_t n, double s) : cdf_(n) {
    double sum = 0;
    for (size_t r = 0; r < n; ++r) {
      sum += 1.0 / std::pow(static_cast<double>(r + 1), s);
      cdf_[r] = sum;
    }
    for (double& c : cdf_) c /= sum;
  }
  size_t Sample(Rng& rng) const {
    auto it = std::lower_bound(cdf_.begin(), cdf_.end(), rng.Unit());
    return it == cdf_.end() ? cdf_.size() - 1 : static_cast<size_t>(it - cdf_.begin());
  }

 private:
  std::vector<double> cdf_;
};

constexpr std::array<const char*, 14> kConsonants = {"b", "d", "f", "g", "k", "l", "m",
                                                     "n", "p", "r", "s", "t", "v", "z"};
constexpr std::array<const char*, 5> kVowels = {"a", "e", "i", "o", "u"};
constexpr std::array<const char*, 12> kMonths = {"January",   "February", "March",    "April",
                                                 "May",       "June",     "July",     "August",
                                                 "September", "October",  "November", "December"};

enum FactKind { kLive, kFood, kWork, kBirthday, kAttend, kFactKinds };
constexpr std::array<const char*, kFactKinds> kFactNames = {"live", "food", "work", "birthday",
                                                            "attend"};

// Word pools; every word is unique across all pools.
struct Vocabulary {
  std::vector<std::string> filler, users, cities, foods, companies, jobs, events;
  std::vector<std::string> unknown_names, unknown_values;  // never used in events
};

std::string MakeWord(Rng& rng, int syllables, bool capital) {
  std::string w;
  for (int i = 0; i < syllables; ++i) {
    w += kConsonants[static_cast<size_t>(rng.Next() % kConsonants.size())];
    w += kVowels[static_cast<size_t>(rng.Next() % kVowels.size())];
  }
  if (capital) w[0] = static_cast<char>(w[0] - 'a' + 'A');
  return w;
}

Vocabulary MakeVocabulary(Rng& rng) {
  Vocabulary v;
  std::unordered_set<std::string> seen;  // lowercase forms
  auto fill = [&](std::vector<std::string>& pool, size_t n, int min_syl, int max_syl, bool cap) {
    while (pool.size() < n) {
      std::string w = MakeWord(rng, static_cast<int>(rng.Between(min_syl, max_syl)), cap);
      std::string lower = w;
      lower[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(lower[0])));
      if (!seen.insert(lower).second) continue;
      pool.push_back(std::move(w));
    }
  };
  fill(v.filler, kFillerWords, 2, 3, false);
  fill(v.users, kUsers, 3, 3, true);
  fill(v.cities, 400, 3, 3, true);
  fill(v.foods, 300, 3, 3, true);
  fill(v.companies, 300, 3, 3, true);
  fill(v.jobs, 120, 3, 3, false);
  fill(v.events, 200, 3, 3, false);
  fill(v.unknown_names, 50, 4, 4, true);
  fill(v.unknown_values, 50, 4, 4, true);
  return v;
}

struct Fact {
  int user = 0;
  FactKind kind = kLive;
  std::string key;  // the part a question names
};

// Streams the events of one seed: Next() fills a batch; facts are reported with their index.
class Generator {
 public:
  Generator(uint64_t seed, int64_t total)
      : rng_(seed),
        vocab_(MakeVocabulary(rng_)),
        zipf_(vocab_.filler.size(), kZipfS),
        total_(total) {
    // Mean session length 25 turns: slots of equal length over the two years.
    sessions_estimate_ = std::max<int64_t>(1, total / 25);
    for (int u = 0; u < kUsers; ++u) {
      birthdays_.push_back(fmt::format("{} {}", kMonths[static_cast<size_t>(rng_.Next() % 12)],
                                       rng_.Between(1, 28)));
    }
  }

  const Vocabulary& vocab() const { return vocab_; }
  Rng& rng() { return rng_; }

  // Appends up to `n` events to `out`; facts get the index in `out` recorded in `facts`.
  void NextBatch(int64_t n, std::vector<EventInput>* out,
                 std::vector<std::pair<size_t, Fact>>* facts) {
    for (int64_t i = 0; i < n && produced_ < total_; ++i, ++produced_) {
      if (turn_ >= session_turns_) StartSession();
      EventInput e;
      e.namespace_name = kNamespace;
      e.session_id = fmt::format("s{}", session_);
      e.session_source = "scale-bench";
      at_ += rng_.Between(30, 180) * 1000;
      e.occurred_at = FormatTimestamp(at_);
      if (turn_ % 2 == 0) {
        e.role = "user";
        e.speaker = vocab_.users[static_cast<size_t>(user_)];
        if (rng_.Unit() < kFactProbability) {
          Fact f;
          e.content = FactSentence(&f);
          facts->emplace_back(out->size(), std::move(f));
        } else {
          e.content = Filler(/*assistant=*/false);
        }
      } else {
        e.role = "assistant";
        e.speaker = "Assistant";
        e.content = Filler(/*assistant=*/true);
      }
      // Unique per event, so no two generated events are taken for a replay.
      e.idempotency_key = fmt::format("scale:{}", produced_);
      out->push_back(std::move(e));
      ++turn_;
    }
  }

  int64_t sessions() const { return session_; }

 private:
  void StartSession() {
    ++session_;
    turn_ = 0;
    session_turns_ = rng_.Between(10, 40);
    user_ = static_cast<int>(rng_.Next() % kUsers);
    const TimestampMs slot = kSpanMs / sessions_estimate_;
    const TimestampMs slot_start =
        kStartMs + std::min<int64_t>(session_ - 1, sessions_estimate_ - 1) * slot;
    at_ = std::max(
        at_, slot_start + static_cast<TimestampMs>(rng_.Unit() * 0.5 * static_cast<double>(slot)));
  }

  const std::string& W() { return vocab_.filler[zipf_.Sample(rng_)]; }

  std::string Filler(bool assistant) {
    if (assistant) {
      switch (rng_.Next() % 4) {
        case 0:
          return fmt::format("That sounds {}! How is the {} going?", W(), W());
        case 1:
          return fmt::format("Tell me more about the {} and the {}.", W(), W());
        case 2:
          return fmt::format("I remember you mentioned {} and {} before.", W(), W());
        default:
          return fmt::format("Maybe the {} could help with the {} {}.", W(), W(), W());
      }
    }
    switch (rng_.Next() % 4) {
      case 0:
        return fmt::format("I think the {} and the {} were {} today.", W(), W(), W());
      case 1:
        return fmt::format("Did you see the {} near the {} {}?", W(), W(), W());
      case 2:
        return fmt::format("We spent the afternoon talking about {}, {} and {}.", W(), W(), W());
      default:
        return fmt::format("My {} {} is still {}, so I {} a lot.", W(), W(), W(), W());
    }
  }

  std::string FactSentence(Fact* f) {
    f->user = user_;
    f->kind = static_cast<FactKind>(rng_.Next() % kFactKinds);
    switch (f->kind) {
      case kLive: {
        f->key = rng_.Pick(vocab_.cities);
        return rng_.Next() % 2 == 0 ? fmt::format("I live in {} now.", f->key)
                                    : fmt::format("I moved to {} last week.", f->key);
      }
      case kFood:
        f->key = rng_.Pick(vocab_.foods);
        return fmt::format("My favourite food is {}.", f->key);
      case kWork: {
        const std::string& company = rng_.Pick(vocab_.companies);
        f->key = rng_.Pick(vocab_.jobs);
        return fmt::format("I work at {} as a {}.", company, f->key);
      }
      case kBirthday:
        f->key = "";
        return fmt::format("My birthday is {}.", birthdays_[static_cast<size_t>(user_)]);
      default: {
        f->key = rng_.Pick(vocab_.events);
        return fmt::format("I attended a {} on {} {}.", f->key,
                           kMonths[static_cast<size_t>(rng_.Next() % 12)], rng_.Between(1, 28));
      }
    }
  }

  Rng rng_;
  Vocabulary vocab_;
  Zipf zipf_;
  int64_t total_;
  int64_t produced_ = 0;
  int64_t sessions_estimate_ = 1;
  int64_t session_ = 0;
  int64_t turn_ = 0;
  int64_t session_turns_ = 0;
  int user_ = 0;
  TimestampMs at_ = kStartMs;
  std::vector<std::string> birthdays_;
};

std::string Question(FactKind kind, const std::string& user, const std::string& key) {
  switch (kind) {
    case kLive:
      return fmt::format("When did {} move to {}?", user, key);
    case kFood:
      return fmt::format("Does {} really love {}?", user, key);
    case kWork:
      return fmt::format("Where does {} work as a {}?", user, key);
    case kBirthday:
      return fmt::format("When is {}'s birthday?", user);
    default:
      return fmt::format("When did {} attend the {}?", user, key);
  }
}

// The kinds whose claims hold one value at a time (a newer statement supersedes the older):
// where one lives, the favourite food, the employer (and with it the job).
bool IsSingleValued(FactKind kind) { return kind == kLive || kind == kFood || kind == kWork; }

// A question about a value the user replaced later, with a history intent ("before":
// text/query_intent.h), so that recall also returns superseded claims and their evidence.
std::string HistoryQuestion(FactKind kind, const std::string& user, const std::string& key) {
  switch (kind) {
    case kLive:
      return fmt::format("Did {} live in {} before?", user, key);
    case kFood:
      return fmt::format("Did {} love {} before?", user, key);
    default:
      return fmt::format("Did {} work as a {} before?", user, key);
  }
}

std::string FactKey(int user, FactKind kind, const std::string& key) {
  return fmt::format("{}|{}|{}", user, static_cast<int>(kind), key);
}

struct QuerySpec {
  std::string text;
  std::string kind;  // fact kind, or "none" for a question with no answer
  const std::vector<std::string>* gold = nullptr;  // event ids; null for no-answer
};

struct QueryOutcome {
  double ms = 0;
  double cpu_ms = 0;  // CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID)
  bool hit = false;
  std::string answerability;
  std::vector<RecallStage> stages;
  std::string text;
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double pos = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const auto hi = static_cast<size_t>(std::ceil(pos));
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

Status Run(const ScaleBenchOptions& opt, json* report) {
  std::optional<TempDir> dir;
  std::string db_path = opt.db_path;
  if (opt.reuse && db_path.empty()) {
    return Status::InvalidArgument("field \"--reuse\": needs --db PATH");
  }
  if (db_path.empty()) {
    Result<TempDir> created = TempDir::Create();
    if (!created) return created.error();
    dir.emplace(std::move(*created));
    db_path = dir->path() + "/scale.db";
  } else if (opt.reuse) {
    if (!std::filesystem::exists(db_path)) {
      return Status::InvalidArgument(fmt::format("field \"--reuse\": {} does not exist", db_path));
    }
  } else if (std::filesystem::exists(db_path)) {
    return Status::InvalidArgument(
        fmt::format("field \"--db\": {} exists (the benchmark needs a fresh database)", db_path));
  }
  Options options;
  options.db_path = db_path;
  options.extractor = opt.no_claims ? "none" : "rules";
  Result<std::unique_ptr<Engine>> opened = Engine::Open(options);
  if (!opened) return opened.error().WithContext("Engine::Open");
  std::unique_ptr<Engine> engine = std::move(*opened);

  (*report)["command"] = "scale";
  (*report)["events"] = opt.events;
  (*report)["seed"] = opt.seed;
  (*report)["batch"] = opt.batch;
  (*report)["claims"] = !opt.no_claims;
  (*report)["reused"] = opt.reuse;  // ingest and extraction were replays: their rates mean nothing
  (*report)["rss_start_kib"] = MaxRssKiB();

  // ---- Generate + ingest ----
  Generator gen(opt.seed, opt.events);
  std::unordered_map<std::string, std::vector<std::string>> gold;  // FactKey → event ids
  std::vector<Fact> facts;
  double ingest_ms = 0, generate_ms = 0;
  int64_t ingested = 0;
  while (ingested < opt.events) {
    std::vector<EventInput> batch;
    std::vector<std::pair<size_t, Fact>> batch_facts;
    Clock::time_point t0 = Clock::now();
    gen.NextBatch(opt.batch, &batch, &batch_facts);
    generate_ms += MsSince(t0);
    if (batch.empty()) break;
    t0 = Clock::now();
    Result<std::vector<IngestResult>> r = engine->IngestBatch(batch);
    ingest_ms += MsSince(t0);
    if (!r) return r.error().WithContext("IngestBatch");
    for (auto& [index, fact] : batch_facts) {
      gold[FactKey(fact.user, fact.kind, fact.key)].push_back((*r)[index].event.id);
      facts.push_back(std::move(fact));
    }
    ingested += static_cast<int64_t>(batch.size());
    if (ingested % 100000 == 0) {
      std::cerr << fmt::format("ingested {} events ({:.0f} s)\n", ingested, ingest_ms / 1000);
    }
  }
  (*report)["sessions"] = gen.sessions();
  (*report)["facts"] = facts.size();
  (*report)["generate_s"] = generate_ms / 1000;
  (*report)["ingest_s"] = ingest_ms / 1000;
  (*report)["ingest_events_per_s"] =
      ingest_ms > 0 ? 1000.0 * static_cast<double>(ingested) / ingest_ms : 0;
  (*report)["rss_after_ingest_kib"] = MaxRssKiB();

  // ---- Extraction ----
  if (!opt.no_claims) {
    std::cerr << "extraction (Process drain)\n";
    Clock::time_point t0 = Clock::now();
    Result<ProcessReport> processed = engine->Process(/*drain=*/true);
    const double ms = MsSince(t0);
    if (!processed) return processed.error().WithContext("Process");
    (*report)["process_s"] = ms / 1000;
    (*report)["process_events_per_s"] =
        ms > 0 ? 1000.0 * static_cast<double>(processed->events) / ms : 0;
    (*report)["claims_created"] = processed->claims_created;
    (*report)["claims_confirmed"] = processed->claims_confirmed;
    (*report)["claims_superseded"] = processed->claims_superseded;
    (*report)["jobs_failed"] = processed->jobs_failed;
    (*report)["rss_after_process_kib"] = MaxRssKiB();
  }

  // ---- Queries ----
  Rng qrng(opt.seed ^ 0xA5A5A5A5A5A5A5A5ULL);
  const Vocabulary& vocab = gen.vocab();
  // Each user's last stated value of each kind (facts are in time order): the current one.
  std::map<std::pair<int, FactKind>, std::string> latest;
  for (const Fact& f : facts) latest[{f.user, f.kind}] = f.key;
  std::vector<QuerySpec> specs;
  for (int i = 0; i < opt.queries; ++i) {
    QuerySpec s;
    if (facts.empty() || qrng.Unit() < kNoAnswerShare) {
      const auto kind = static_cast<FactKind>(qrng.Next() % kFactKinds);
      s.text = Question(kind, qrng.Pick(vocab.unknown_names), qrng.Pick(vocab.unknown_values));
      s.kind = "none";
    } else {
      const Fact& f = facts[static_cast<size_t>(qrng.Next() % facts.size())];
      const std::string& user = vocab.users[static_cast<size_t>(f.user)];
      if (IsSingleValued(f.kind) && latest[{f.user, f.kind}] != f.key) {
        // A value the user replaced later: asked as history ("... before?"), reported apart.
        s.text = HistoryQuestion(f.kind, user, f.key);
        s.kind = std::string(kFactNames[f.kind]) + "_history";
      } else {
        s.text = Question(f.kind, user, f.key);
        s.kind = kFactNames[f.kind];
      }
      s.gold = &gold[FactKey(f.user, f.kind, f.key)];
    }
    specs.push_back(std::move(s));
  }
  // One untimed warm-up recall (opens statements, loads the schema).
  {
    RecallQuery warm;
    warm.text = "warm up";
    warm.namespace_name = kNamespace;
    (void)engine->Recall(warm);
  }
  std::cerr << fmt::format("recall: {} questions\n", specs.size());
  std::vector<QueryOutcome> outcomes;
  std::map<std::string, std::map<std::string, int64_t>> answerability;  // group → value → count
  std::map<std::string, std::pair<int64_t, int64_t>> hits;              // kind → (hits, asked)
  std::map<std::string, double> stage_sums;
  json misses = json::array();  // the first few answerable questions missed, with their top items
  for (const QuerySpec& s : specs) {
    RecallQuery q;
    q.text = s.text;
    q.namespace_name = kNamespace;
    q.limit = kRecallLimit;
    Clock::time_point t0 = Clock::now();
    const double cpu0 = ThreadCpuMs();
    Result<RecallResult> r = engine->Recall(q);
    QueryOutcome o;
    o.ms = MsSince(t0);
    o.cpu_ms = ThreadCpuMs() - cpu0;
    if (!r) return r.error().WithContext(fmt::format("Recall \"{}\"", s.text));
    o.text = s.text;
    o.answerability = r->answerability;
    o.stages = r->stages;
    for (const RecallStage& st : r->stages) stage_sums[st.name] += static_cast<double>(st.count);
    if (s.gold != nullptr) {
      std::set<std::string> g(s.gold->begin(), s.gold->end());
      for (const RecallItem& item : r->items) {
        if (item.type == "event" && g.count(item.id)) o.hit = true;
        for (const EvidenceRef& ev : item.evidence) {
          if (ev.relation == "supports" && g.count(ev.event_id)) o.hit = true;
        }
      }
      if (!o.hit && misses.size() < 5) {
        json top = json::array();
        for (size_t i = 0; i < std::min<size_t>(3, r->items.size()); ++i) {
          top.push_back(fmt::format("{} {} {}: {}", r->items[i].type, r->items[i].score,
                                    r->items[i].speaker, r->items[i].text));
        }
        misses.push_back({{"text", s.text}, {"gold", s.gold->size()}, {"top", top}});
      }
      ++hits[s.kind].second;
      hits[s.kind].first += o.hit ? 1 : 0;
      ++hits["all"].second;
      hits["all"].first += o.hit ? 1 : 0;
      const char* group = s.kind.find("_history") != std::string::npos ? "all_history" : "all_current";
      ++hits[group].second;
      hits[group].first += o.hit ? 1 : 0;
    }
    ++answerability[s.gold != nullptr ? "answerable" : "no_answer"][o.answerability];
    outcomes.push_back(std::move(o));
  }
  std::vector<double> ms;
  for (const QueryOutcome& o : outcomes) ms.push_back(o.ms);
  json lat;
  lat["p50_ms"] = Percentile(ms, 0.50);
  lat["p95_ms"] = Percentile(ms, 0.95);
  lat["p99_ms"] = Percentile(ms, 0.99);
  lat["max_ms"] = ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end());
  double sum = 0;
  for (double m : ms) sum += m;
  lat["mean_ms"] = ms.empty() ? 0.0 : sum / static_cast<double>(ms.size());
  (*report)["recall_latency"] = lat;
  std::vector<double> cpu;
  for (const QueryOutcome& o : outcomes) cpu.push_back(o.cpu_ms);
  (*report)["recall_cpu"] = {{"p50_ms", Percentile(cpu, 0.50)}, {"p95_ms", Percentile(cpu, 0.95)}};
  json rec;
  for (const auto& [kind, hv] : hits) {
    rec[kind] = {
        {"hits", hv.first},
        {"asked", hv.second},
        {"recall_at_10",
         hv.second ? static_cast<double>(hv.first) / static_cast<double>(hv.second) : 0.0}};
  }
  (*report)["recall_at_10"] = rec;
  (*report)["answerability"] = answerability;
  json stages_mean;
  for (const auto& [name, total] : stage_sums) {
    stages_mean[name] = outcomes.empty() ? 0.0 : total / static_cast<double>(outcomes.size());
  }
  (*report)["stages_mean"] = stages_mean;
  // The slowest queries with their stage counts: where the time goes.
  std::vector<const QueryOutcome*> slow;
  for (const QueryOutcome& o : outcomes) slow.push_back(&o);
  std::sort(slow.begin(), slow.end(),
            [](const QueryOutcome* a, const QueryOutcome* b) { return a->ms > b->ms; });
  json slowest = json::array();
  for (size_t i = 0; i < std::min<size_t>(5, slow.size()); ++i) {
    json st;
    for (const RecallStage& s : slow[i]->stages) st[s.name] = s.count;
    slowest.push_back({{"text", slow[i]->text}, {"ms", slow[i]->ms}, {"stages", st}});
  }
  (*report)["slowest"] = slowest;
  (*report)["misses"] = misses;
  (*report)["rss_after_recall_kib"] = MaxRssKiB();

  // ---- Pruned vs exhaustive matching, back to back per question ----
  if (opt.compare_exhaustive) {
    std::cerr << "recall again: pruned and exhaustive matching, back to back\n";
    const size_t saved = ExhaustiveMatchRows();
    std::vector<double> ms_by[2], cpu_by[2];
    int64_t differ = 0;
    for (const QuerySpec& s : specs) {
      RecallQuery q;
      q.text = s.text;
      q.namespace_name = kNamespace;
      q.limit = kRecallLimit;
      std::vector<std::pair<std::string, double>> items[2];
      for (int mode = 0; mode < 2; ++mode) {
        SetExhaustiveMatchRowsForTesting(mode == 0 ? saved : std::numeric_limits<size_t>::max());
        Clock::time_point t0 = Clock::now();
        const double cpu0 = ThreadCpuMs();
        Result<RecallResult> r = engine->Recall(q);
        ms_by[mode].push_back(MsSince(t0));
        cpu_by[mode].push_back(ThreadCpuMs() - cpu0);
        if (!r) {
          SetExhaustiveMatchRowsForTesting(saved);
          return r.error().WithContext(fmt::format("Recall \"{}\"", s.text));
        }
        for (const RecallItem& item : r->items) items[mode].emplace_back(item.id, item.score);
      }
      differ += items[0] != items[1] ? 1 : 0;
    }
    SetExhaustiveMatchRowsForTesting(saved);
    json cmp;
    for (int mode = 0; mode < 2; ++mode) {
      cmp[mode == 0 ? "pruned" : "exhaustive"] = {{"p50_ms", Percentile(ms_by[mode], 0.50)},
                                                  {"p95_ms", Percentile(ms_by[mode], 0.95)},
                                                  {"cpu_p50_ms", Percentile(cpu_by[mode], 0.50)},
                                                  {"cpu_p95_ms", Percentile(cpu_by[mode], 0.95)}};
    }
    cmp["questions_with_different_items"] = differ;
    (*report)["pruned_vs_exhaustive"] = cmp;
  }

  // ---- Size: closed and reopened, as a new process would see it ----
  engine.reset();
  Result<std::unique_ptr<Engine>> reopened = Engine::Open(options);
  if (!reopened) return reopened.error().WithContext("Engine::Open (reopen for Stats)");
  Result<StoreStats> stats = (*reopened)->Stats();
  if (!stats) return stats.error().WithContext("Stats");
  (*report)["db_bytes"] = stats->file_bytes + stats->wal_bytes;
  (*report)["stored_events"] = stats->events;
  (*report)["stored_claims"] = stats->claims;
  (*report)["active_claims"] = stats->active_claims;
  (*report)["db_path"] = db_path;
  reopened->reset();
  if (dir && opt.keep) std::cerr << fmt::format("kept {}\n", dir->Release());
  return Status::Ok();
}

void PrintTables(const json& r) {
  auto num = [&](const char* key) { return r.contains(key) ? r[key].get<double>() : 0.0; };
  fmt::print("engram-bench scale: N = {} events, seed {}, batch {}, claims {}\n",
             r["events"].get<int64_t>(), r["seed"].get<uint64_t>(), r["batch"].get<int>(),
             r["claims"].get<bool>() ? "on" : "off (--no-claims)");
  fmt::print("sessions {}, fact sentences {}\n", r["sessions"].get<int64_t>(),
             r["facts"].get<int64_t>());
  if (r.value("reused", false)) {
    fmt::print("store reused (--reuse): ingest and extraction below are replays, not rates\n");
  }
  fmt::print("\n");
  fmt::print("| phase | time (s) | events/s | peak RSS after (MiB) |\n|---|---:|---:|---:|\n");
  fmt::print("| generate (bench only) | {:.1f} | | |\n", num("generate_s"));
  fmt::print("| ingest (IngestBatch) | {:.1f} | {:.0f} | {:.0f} |\n", num("ingest_s"),
             num("ingest_events_per_s"), num("rss_after_ingest_kib") / 1024);
  if (r.contains("process_s")) {
    fmt::print("| extraction (Process drain) | {:.1f} | {:.0f} | {:.0f} |\n", num("process_s"),
               num("process_events_per_s"), num("rss_after_process_kib") / 1024);
  }
  const json& lat = r["recall_latency"];
  fmt::print("| recall ({} queries) | | | {:.0f} |\n\n", r["queries"].get<int>(),
             num("rss_after_recall_kib") / 1024);
  fmt::print("recall latency (ms): p50 {:.2f}  p95 {:.2f}  p99 {:.2f}  max {:.2f}  mean {:.2f}\n",
             lat["p50_ms"].get<double>(), lat["p95_ms"].get<double>(), lat["p99_ms"].get<double>(),
             lat["max_ms"].get<double>(), lat["mean_ms"].get<double>());
  if (r.contains("recall_cpu")) {
    fmt::print("recall thread CPU (ms): p50 {:.2f}  p95 {:.2f}\n", r["recall_cpu"]["p50_ms"].get<double>(),
               r["recall_cpu"]["p95_ms"].get<double>());
  }
  if (r.contains("pruned_vs_exhaustive")) {
    const json& c = r["pruned_vs_exhaustive"];
    for (const char* mode : {"pruned", "exhaustive"}) {
      fmt::print("again, {} matching (back to back): p50 {:.2f}  p95 {:.2f}  CPU p50 {:.2f}  p95 {:.2f}\n",
                 mode, c[mode]["p50_ms"].get<double>(), c[mode]["p95_ms"].get<double>(),
                 c[mode]["cpu_p50_ms"].get<double>(), c[mode]["cpu_p95_ms"].get<double>());
    }
    fmt::print("questions whose items differ: {}\n", c["questions_with_different_items"].get<int64_t>());
  }
  fmt::print("recall@10 of the gold events:");
  for (const auto& [kind, v] : r["recall_at_10"].items()) {
    fmt::print("  {} {:.3f} ({}/{})", kind, v["recall_at_10"].get<double>(),
               v["hits"].get<int64_t>(), v["asked"].get<int64_t>());
  }
  fmt::print("\nanswerability:");
  for (const auto& [group, m] : r["answerability"].items()) {
    fmt::print("  {}:", group);
    for (const auto& [value, n] : m.items()) fmt::print(" {} {}", value, n.get<int64_t>());
  }
  fmt::print("\nmean candidates per stage:");
  for (const auto& [name, v] : r["stages_mean"].items()) {
    fmt::print(" {} {:.0f}", name, v.get<double>());
  }
  fmt::print("\nstore: {:.1f} MiB ({} events, {} claims, {} active)\n",
             num("db_bytes") / (1024.0 * 1024.0), r["stored_events"].get<int64_t>(),
             r["stored_claims"].get<int64_t>(), r["active_claims"].get<int64_t>());
  fmt::print("slowest queries:\n");
  for (const json& s : r["slowest"]) {
    fmt::print("  {:.1f} ms  {}  {}\n", s["ms"].get<double>(), s["text"].get<std::string>(),
               s["stages"].dump());
  }
}

}  // namespace

int RunScaleBench(const ScaleBenchOptions& options) {
  if (options.events < 1 || options.queries < 1 || options.batch < 1) {
    std::cerr << "engram-bench scale: --events, --queries and --batch must be at least 1\n";
    return 2;
  }
  json report;
  report["queries"] = options.queries;
  Status st = Run(options, &report);
  if (!st.ok()) {
    std::cerr << "engram-bench scale: " << st.ToString() << "\n";
    return ExitCodeFor(st.code());
  }
  if (options.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    PrintTables(report);
  }
  return 0;
}

}  // namespace engram::bench
