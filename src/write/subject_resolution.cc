#include "write/subject_resolution.h"

#include <algorithm>
#include <cctype>
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

// The major number of a version value ("3" of "3.12", "v3.2", "Python 3.9"; "17" of "17" when
// `bare` allows a number with no dot), or "".
std::string MajorOf(std::string_view value, bool bare = false) {
  size_t i = 0;
  while (i < value.size() && !(value[i] >= '0' && value[i] <= '9')) ++i;
  size_t end = i;
  while (end < value.size() && value[end] >= '0' && value[end] <= '9') ++end;
  if (end == i) return "";
  const bool dotted = end + 1 < value.size() && value[end] == '.';
  if (!dotted && !bare) return "";
  return std::string(value.substr(i, end - i));
}

// True when the dotted version `newer` continues `older`: "3.12" continues "3.9", "1.29" "1.26",
// "17.4" "17".
bool SameMajor(std::string_view newer, std::string_view older) {
  const std::string major = MajorOf(newer);
  return !major.empty() && major == MajorOf(older, /*bare=*/true);
}

// True for a subject that names all things at once ("everything", "it all", "all of it").
bool SaysEverything(std::string_view subject) {
  std::string low(subject);
  for (char& ch : low) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return low == "everything" || low == "it all" || low == "all of it" || low == "all" || low == "everything's";
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
  const Claim* said_last = nullptr;
  for (const sqlite::StoredClaim& held : *recent) {
    const Claim& h = held.claim;
    if (held.negated || h.predicate != c.predicate || h.slot != c.slot) continue;
    if (h.subject == c.subject) return c;  // the subject said holds the attribute already
    if (c.subject_unsaid) {
      // The attribute said last, or an older version its number continues ("everything's on 3.12
      // now" after "Python 3.9" and "React 17").
      if (c.predicate == "version" && SameMajor(c.value, h.value)) return Adopt(c, h);
      // ("It" is the thing said last, whatever its number: "upgraded it to 24.04" after "Ubuntu
      // 20.04". "Everything" at a number of another major is no version of it: "Ops bumped
      // everything to 4.3" after "Python 3.11" is not Python's.)
      if (said_last == nullptr && !(c.predicate == "version" && !MajorOf(c.value).empty() && SaysEverything(c.subject))) {
        said_last = &h;
      }
      continue;
    }
    if (!NamesPartOf(c.subject, h.subject) && !NamesPartOf(h.subject, c.subject)) continue;
    if (found != nullptr && found->subject != h.subject) return c;  // ambiguous: keep it as said
    found = &h;
  }
  if (said_last != nullptr) return Adopt(c, *said_last);
  return found != nullptr ? Adopt(c, *found) : c;
}

}  // namespace engram
