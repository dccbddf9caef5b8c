#include "write/admission.h"

#include <unicode/regex.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "text/injection_scanner.h"
#include "text/stopwords.h"
#include "util/normalize.h"
#include "util/utf8.h"
#include "write/extraction/lexicon.h"

namespace engram {
namespace {

// A thing's state said in common words ("the queue is down", "VPN's back up"): a thing_state word
// of the lexicon as the value of a state attribute is notable, stopwords or not.
bool IsThingState(const extraction::CandidateClaim& c) {
  if (c.predicate != "state") return false;
  std::string low = c.value;
  for (char& ch : low) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  const std::vector<std::string>& states = extraction::Lexicon::Get().Markers("thing_state");
  return std::find(states.begin(), states.end(), low) != states.end();
}

// A case-insensitive ICU pattern compiled once per call site (`cache` is that site's static).
bool Matches(const icu::RegexPattern* const& cache, std::string_view text) {
  if (cache == nullptr) return false;
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString input = icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  std::unique_ptr<icu::RegexMatcher> m(cache->matcher(input, status));
  return U_SUCCESS(status) && m->find(status) && U_SUCCESS(status);
}

const icu::RegexPattern* Compile(const char* pattern) {
  UErrorCode status = U_ZERO_ERROR;
  icu::RegexPattern* p = icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(pattern), UREGEX_CASE_INSENSITIVE, status);
  return U_SUCCESS(status) ? p : nullptr;
}

bool LooksLikeSecret(std::string_view text) {
  static const icu::RegexPattern* const kSecret = Compile(
      "\\b(sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{20,}|xox[baprs]-[A-Za-z0-9-]{10,}|"
      "eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,})|"
      "(password|passwd|passphrase|api[ _-]?key|secret[ _-]?key|access[ _-]?token|private[ _-]?key|"
      "密码|口令|密钥)\\s*(is|是|:|：|=)");
  return Matches(kSecret, text);
}

bool AllStopwords(std::string_view value) {
  std::string key = NormalizeKey(value);
  size_t start = 0;
  bool any_word = false;
  while (start <= key.size()) {
    size_t end = key.find(' ', start);
    if (end == std::string::npos) end = key.size();
    std::string_view word(key.data() + start, end - start);
    if (!word.empty()) {
      any_word = true;
      if (!text::IsEnglishStopword(word)) return false;
    }
    start = end + 1;
  }
  return any_word;
}

// Digit runs of `value` that the source text does not contain.
std::string MissingNumber(std::string_view value, std::string_view source) {
  for (size_t i = 0; i < value.size();) {
    if (value[i] >= '0' && value[i] <= '9') {
      size_t j = i;
      while (j < value.size() && value[j] >= '0' && value[j] <= '9') ++j;
      std::string_view digits = value.substr(i, j - i);
      if (source.find(digits) == std::string_view::npos) return std::string(digits);
      i = j;
    } else {
      ++i;
    }
  }
  return "";
}

AdmissionDecision Reject(const char* reason, std::string detail) {
  AdmissionDecision d;
  d.reason = reason;
  d.detail = std::move(detail);
  return d;
}

}  // namespace

ContentScreening ScreenContent(const extraction::CandidateClaim& c, const std::vector<Event>& batch) {
  ContentScreening out;
  auto reject = [&out](const char* reason, std::string detail) {
    out.rejection = Reject(reason, std::move(detail));
    return out;
  };
  if (c.source_events.empty()) return reject(kReasonNotLocatable, "no source event");
  for (size_t index : c.source_events) {
    if (index >= batch.size()) {
      return reject(kReasonNotLocatable, fmt::format("source event {} is outside the batch of {}", index, batch.size()));
    }
  }
  const Event& source = batch[c.source_events.front()];
  if (IsBlank(c.subject) || IsBlank(c.predicate) || IsBlank(c.value)) {
    return reject(kReasonEmpty, "blank subject, predicate or value");
  }
  if (!c.evidence_span.empty() && source.content.find(c.evidence_span) == std::string::npos) {
    return reject(kReasonNotLocatable, "the evidence span is not in the source event");
  }
  if (std::string missing = MissingNumber(c.value, source.content); !missing.empty()) {
    return reject(kReasonNotLocatable, fmt::format("the number {} is not in the source event", missing));
  }
  // (A one-character age is a number: "5", 我儿子五岁了.)
  if (CodePointCount(NormalizeKey(c.value)) < 2 && c.predicate != "age" &&
      !(c.value.size() == 1 && std::isdigit(static_cast<unsigned char>(c.value[0])))) {
    return reject(kReasonNotNotable, "value too short");
  }
  if (AllStopwords(c.value) && !IsThingState(c)) return reject(kReasonNotNotable, "value has only stopwords");
  if (LooksLikeSecret(c.value) || LooksLikeSecret(c.text) || LooksLikeSecret(c.evidence_span)) {
    return reject(kReasonSecret, "looks like a credential");
  }
  if (text::LooksLikeInstruction(c.value) || text::LooksLikeInstruction(c.text)) {
    return reject(kReasonInstructionLike, "looks like an instruction to the model; kept as event only");
  }

  // Provenance of the sources.
  for (size_t index : c.source_events) {
    const Event& e = batch[index];
    if (e.role == "user" && (e.origin_class == "direct_user")) out.any_user = true;
    if (e.role == "assistant") out.any_assistant = true;
  }
  if (!out.any_user && out.any_assistant) {
    std::string subject = NormalizeKey(c.subject);
    bool about_user = subject == "user" || subject == "the user" || subject == "用户" || subject == "我";
    for (const Event& e : batch) {
      if (e.role == "user" && !e.speaker.empty() && NormalizeKey(e.speaker) == subject) about_user = true;
    }
    if (about_user) {
      return reject(kReasonAssistantAttribution, "only the assistant said it; it is not a fact about the user");
    }
  }
  return out;
}

AdmissionDecision Admit(const ContentScreening& screening, std::string_view session_kind) {
  if (session_kind == "heartbeat" || session_kind == "subagent") {
    return Reject(kReasonSessionKind,
                  fmt::format("{} sessions keep their events but make no claims", session_kind));
  }
  if (screening.rejection) return *screening.rejection;
  AdmissionDecision d;
  d.admitted = true;
  d.reason = "admitted";
  if (session_kind == "cron") {
    d.authority = "low";
  } else if (screening.any_user) {
    d.authority = "high";
  } else if (screening.any_assistant) {
    d.authority = "medium";
  } else {
    d.authority = "low";
  }
  d.assertion = d.authority == "low" ? "observation" : "fact";
  return d;
}

AdmissionDecision Admit(const extraction::CandidateClaim& c, const std::vector<Event>& batch,
                        std::string_view session_kind) {
  return Admit(ScreenContent(c, batch), session_kind);
}

}  // namespace engram
