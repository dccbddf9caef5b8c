#include "write/subject_resolution.h"

#include <algorithm>
#include <string>
#include <vector>

#include "write/extraction/lexicon.h"

namespace engram {
namespace {

// How many of a namespace's most recent current claims are looked through.
constexpr int kLookback = 50;

std::vector<std::string> LowerWords(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) words.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
  }
  if (!cur.empty()) words.push_back(std::move(cur));
  return words;
}

bool HasHighBytes(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
}

bool HasCoordinates(const std::vector<std::string>& qualifiers) {
  return std::any_of(qualifiers.begin(), qualifiers.end(), [](const std::string& q) {
    return q.find(extraction::kCoordinateSeparator) != std::string::npos;
  });
}

// The candidate said of `subject` instead, with `held`'s identity qualifiers when it has none.
extraction::CandidateClaim Adopt(const extraction::CandidateClaim& c, const Claim& held) {
  extraction::CandidateClaim out = c;
  out.subject = held.subject;
  out.subject_unsaid = false;
  if (!HasCoordinates(out.qualifiers)) {
    for (const std::string& q : held.qualifiers) {
      if (q.find(extraction::kCoordinateSeparator) != std::string::npos) out.qualifiers.push_back(q);
    }
    std::sort(out.qualifiers.begin(), out.qualifiers.end());
  }
  if (out.text.rfind(c.subject, 0) == 0) out.text = held.subject + out.text.substr(c.subject.size());
  return out;
}

}  // namespace

bool IsThingAttribute(const std::string& predicate) {
  if (predicate == "location" || predicate == "when" || predicate == "count") return true;
  const extraction::AttributeInfo* info = extraction::Lexicon::Get().Attribute(predicate);
  return info != nullptr && !info->facets.empty();
}

bool NamesPartOf(std::string_view part, std::string_view whole) {
  if (part.empty() || part.size() >= whole.size()) return false;
  if (HasHighBytes(part)) return whole.find(part) != std::string_view::npos;
  const std::vector<std::string> p = LowerWords(part), w = LowerWords(whole);
  if (p.empty() || p.size() >= w.size()) return false;
  for (size_t i = 0; i + p.size() <= w.size(); ++i) {
    if (std::equal(p.begin(), p.end(), w.begin() + static_cast<std::ptrdiff_t>(i))) return true;
  }
  return false;
}

Result<extraction::CandidateClaim> ResolveSubject(sqlite::ClaimStore& store, int64_t namespace_id,
                                                  const extraction::CandidateClaim& c,
                                                  const PredicateRegistry& registry) {
  const bool partial_possible = IsThingAttribute(c.predicate) && registry.IsSingleValued(c.predicate, c.slot);
  if (!c.subject_unsaid && !partial_possible) return c;
  auto recent = store.RecentCurrent(namespace_id, kLookback);
  if (!recent) return Error(recent.error());
  const Claim* found = nullptr;
  for (const sqlite::StoredClaim& held : *recent) {
    const Claim& h = held.claim;
    if (held.negated || h.predicate != c.predicate || h.slot != c.slot) continue;
    if (h.subject == c.subject) return c;  // the subject said holds the attribute already
    if (c.subject_unsaid) return Adopt(c, h);  // the attribute said last
    if (!NamesPartOf(c.subject, h.subject) && !NamesPartOf(h.subject, c.subject)) continue;
    if (found != nullptr && found->subject != h.subject) return c;  // ambiguous: keep it as said
    found = &h;
  }
  return found != nullptr ? Adopt(c, *found) : c;
}

}  // namespace engram
