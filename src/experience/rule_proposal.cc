#include "experience/rule_proposal.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <set>

#include "experience/rule_lifecycle.h"
#include "providers/model_answer.h"
#include "text/threat_scanner.h"
#include "util/utf8.h"

namespace engram::experience {
namespace {

using nlohmann::json;

std::string TextField(const json& item, const char* key) {
  auto it = item.find(key);
  if (it == item.end() || !it->is_string()) return "";
  return TruncateCodePoints(std::string(providers::TrimAscii(it->get_ref<const std::string&>())),
                            kMaxProposalTextChars);
}

// Why `text` must not reach an agent's context, or nullopt: a control character (other than tab
// and line breaks), else the threat scanner's first finding (invisible characters, injection).
std::optional<std::string> UnsafeText(std::string_view text) {
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      return fmt::format("control character U+{:04X}", static_cast<unsigned>(c));
    }
  }
  const std::vector<std::string> findings = text::ScanForThreats(text, text::ThreatScope::kContext);
  if (findings.empty()) return std::nullopt;
  return findings.front();
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

// The strings of an array field (a lone string counts as one); non-strings are skipped.
std::vector<std::string> Strings(const json& item, const char* key) {
  std::vector<std::string> out;
  auto it = item.find(key);
  if (it == item.end()) return out;
  if (it->is_string()) return {std::string(providers::TrimAscii(it->get_ref<const std::string&>()))};
  if (!it->is_array()) return out;
  for (const json& v : *it) {
    if (v.is_string()) out.emplace_back(providers::TrimAscii(v.get_ref<const std::string&>()));
  }
  return out;
}

class Checker {
 public:
  Checker(const std::vector<Episode>& shown, ProposalCheck* out) : shown_(shown), out_(out) {
    for (size_t i = 0; i < shown.size(); ++i) {
      index_[EpisodeRef(i)] = i;
      index_[Lower(EpisodeRef(i))] = i;
      index_[shown[i].id] = i;
      tools_.push_back(EpisodeTools(shown[i]));
      for (const std::string& t : tools_.back()) known_tools_.insert(t);
    }
  }

  std::optional<ProposedRule> Check(const json& item, size_t n) {
    if (!item.is_object()) return Drop(n, kRuleDropNotObject, "not a JSON object");
    ProposedRule rule;
    rule.situation = TextField(item, "situation");
    if (rule.situation.empty()) return Drop(n, kRuleDropEmptySituation, "no situation");
    rule.action = TextField(item, "action");
    if (rule.action.empty()) return Drop(n, kRuleDropEmptyAction, "no action");
    if (auto why = UnsafeText(rule.situation + "\n" + rule.action)) return Drop(n, kRuleDropUnsafeText, *why);
    const std::string kind = Lower(TextField(item, "kind"));
    if (kind != "do" && kind != "avoid") return Drop(n, kRuleDropBadKind, fmt::format("kind \"{}\"", kind));
    auto pattern = PatternFrom(item, kind, n);
    if (!pattern) return std::nullopt;
    rule.pattern = std::move(*pattern);
    return CheckEpisodes(item, std::move(rule), n);
  }

  std::nullopt_t Drop(size_t n, const char* reason, const std::string& detail) {
    ++out_->dropped_by_reason[reason];
    out_->warnings.push_back(fmt::format("rule {} dropped ({}): {}", n, reason, detail));
    return std::nullopt;
  }

 private:
  std::optional<RulePattern> PatternFrom(const json& item, const std::string& kind, size_t n) {
    std::vector<std::string> tools;
    for (std::string& t : Strings(item, "tools")) {
      if (!t.empty() && std::find(tools.begin(), tools.end(), t) == tools.end()) tools.push_back(std::move(t));
    }
    if (tools.empty()) return Drop(n, kRuleDropNoTools, "no tools");
    for (const std::string& t : tools) {
      if (!known_tools_.contains(t)) {
        return Drop(n, kRuleDropUnknownTool, fmt::format("no episode shown called \"{}\"", t));
      }
    }
    auto flag = item.find("omission");
    const bool omission = flag != item.end() && flag->is_boolean() && flag->get<bool>();
    if (kind == "do") {
      if (omission) return Drop(n, kRuleDropOmissionOnDo, "omission is for avoid rules");
      return RulePattern{"do", tools.size() == 1 ? "tool" : "sequence", tools};
    }
    if (tools.size() != 1) {
      return Drop(n, kRuleDropAvoidNeedsOneTool, fmt::format("{} tools", tools.size()));
    }
    return RulePattern{"avoid", omission ? "omission" : "tool", tools};
  }

  std::optional<ProposedRule> CheckEpisodes(const json& item, ProposedRule rule, size_t n) {
    std::vector<size_t> cited;
    for (const std::string& ref : Strings(item, "episode_ids")) {
      auto it = index_.find(ref);
      if (it == index_.end()) {
        return Drop(n, kRuleDropUnknownEpisode, fmt::format("\"{}\" is not an episode shown", ref));
      }
      if (std::find(cited.begin(), cited.end(), it->second) == cited.end()) cited.push_back(it->second);
    }
    if (cited.empty()) return Drop(n, kRuleDropNoEpisodes, "no episode_ids");
    const bool any_success = std::any_of(cited.begin(), cited.end(),
                                         [&](size_t i) { return shown_[i].outcome == "success"; });
    const bool any_failure = std::any_of(cited.begin(), cited.end(),
                                         [&](size_t i) { return shown_[i].outcome != "success"; });
    if (rule.pattern.polarity == "avoid" && !any_failure) {
      return Drop(n, kRuleDropAvoidFromSuccesses, "an avoid rule citing only successful episodes");
    }
    if (rule.pattern.polarity == "do" && !any_success) {
      return Drop(n, kRuleDropDoFromFailures, "a do rule citing only failed episodes");
    }
    const bool matched = std::any_of(cited.begin(), cited.end(),
                                     [&](size_t i) { return PatternMatches(rule.pattern, tools_[i]); });
    if (!matched) return Drop(n, kRuleDropNoMatchingEpisode, "none of its episodes did what it says");
    for (size_t i : cited) rule.episode_ids.push_back(shown_[i].id);
    return rule;
  }

  const std::vector<Episode>& shown_;
  ProposalCheck* out_;
  std::map<std::string, size_t> index_;  // "E3", "e3" and the ULID → position in shown_
  std::vector<std::vector<std::string>> tools_;
  std::set<std::string> known_tools_;
};

}  // namespace

std::string EpisodeRef(size_t index) { return fmt::format("E{}", index + 1); }

ProposalCheck CheckProposals(const json& items, const std::vector<Episode>& shown, int max_rules) {
  ProposalCheck out;
  if (!items.is_array()) return out;
  out.returned = static_cast<int>(items.size());
  Checker checker(shown, &out);
  std::set<std::string> seen;  // patterns kept, as keys
  for (size_t n = 0; n < items.size(); ++n) {
    auto rule = checker.Check(items[n], n);
    if (!rule) continue;
    if (!seen.insert(ProposalKey("", "", rule->pattern)).second) {
      checker.Drop(n, kRuleDropDuplicate, "the same pattern as an earlier rule of the answer");
      continue;
    }
    if (static_cast<int>(out.kept.size()) >= max_rules) {
      checker.Drop(n, kRuleDropOverLimit, fmt::format("more than {} rules", max_rules));
      continue;
    }
    out.kept.push_back(std::move(*rule));
  }
  return out;
}

std::string ProposalKey(std::string_view model, std::string_view task_type, const RulePattern& pattern) {
  std::string name(model);
  std::replace(name.begin(), name.end(), '|', '_');
  std::string tools;
  for (const std::string& t : pattern.tools) tools += (tools.empty() ? "" : ">") + t;
  return fmt::format("{}{}|{}|{}|{}|{}", sqlite::kLlmKeyPrefix, name, task_type, pattern.polarity, pattern.kind,
                     tools);
}

std::string ProposalText(std::string_view task_type, const ProposedRule& rule) {
  std::string situation = rule.situation;
  for (std::string_view lead : {"when ", "if "}) {
    if (Lower(situation.substr(0, lead.size())) == lead) situation = situation.substr(lead.size());
  }
  std::string action = rule.action;
  while (!action.empty() && action.back() == '.') action.pop_back();
  return fmt::format("For tasks of type {}, when {}: {}.", task_type, situation, action);
}

}  // namespace engram::experience
