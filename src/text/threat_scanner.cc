#include "text/threat_scanner.h"

#include <fmt/format.h>
#include <re2/re2.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <memory>

namespace engram::text {
namespace {

constexpr std::array<char32_t, 17> kInvisible = {0x200B, 0x200C, 0x200D, 0x202A, 0x202B, 0x202C,
                                                 0x202D, 0x202E, 0x2060, 0x2062, 0x2063, 0x2064,
                                                 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF};

bool IsInvisible(UChar32 c) { return std::binary_search(kInvisible.begin(), kInvisible.end(), c); }

struct PatternSpec {
  const char* id;
  ThreatScope scope;  // the narrowest scope that runs it
  const char* regex;  // RE2 syntax, case-insensitive; "@" stands for kGap8 and "%" for kGap4
};

// Up to 8 (4) words between key tokens: a word is a run of ASCII word characters, apostrophes,
// hyphens or non-ASCII characters, each followed by whitespace (after NFKC every Unicode space is
// an ASCII one). The bound is what makes "ignore" + 80,000 words + "instructions" no finding.
constexpr std::string_view kGap8 = R"((?:[\w'\-\x{80}-\x{10FFFF}]+\s+){0,8})";
constexpr std::string_view kGap4 = R"((?:[\w'\-\x{80}-\x{10FFFF}]+\s+){0,4})";

// The catalogue, in finding order. Ids and scopes: hermes.md §1.9; the regexes are written from
// its prose. Character spans are unbounded where the Hermes patterns bound them only against
// backtracking ([^>]*, [^\n]*): RE2 runs in linear time whatever they match.
constexpr PatternSpec kPatterns[] = {
    // ---- classic prompt injection (all) ----
    {"prompt_injection", ThreatScope::kAll,
     R"(\b(?:ignore|forget|override)\s+)"
     R"(@(?:previous|all|above|prior|earlier|preceding|foregoing|any|system|your|my)\s+)"
     R"(@(?:instructions?|prompts?|rules|directions|directives|guidelines|commands)\b)"
     // Chinese: 忽略/无视/忘记… + 之前/所有/系统… + 指令/规则/设定…, within a sentence.
     R"(|(?:忽略|忽视|无视|忘记|忘掉|不要理会|不用理会|别管)[^。！？!?\n]{0,10})"
     R"((?:之前|以前|先前|此前|上面|上述|以上|前面|所有|全部|一切|任何|系统|你的|原来|原有)[^。！？!?\n]{0,10})"
     R"((?:指令|指示|提示词|规则|设定|命令))"},
    {"sys_prompt_override", ThreatScope::kAll,
     R"(\bsystem\s+prompt\s+override\b|\boverride\s+(?:the\s+|your\s+)?system\s+prompt\b)"
     R"(|\bnew\s+system\s+prompt\s*(?::|is\b|follows\b))"},
    {"disregard_rules", ThreatScope::kAll,
     R"(\bdisregard\s+@(?:your|all|any|previous|prior|above|earlier|my)\s+)"
     R"(@(?:instructions?|rules|guidelines|directives|directions|prompts?)\b)"},
    {"bypass_restrictions", ThreatScope::kAll,
     R"(\bact\s+as\s+(?:if|though)\s+you\s+)"
     R"((?:have\s+no|had\s+no|don['’]?t\s+have|do\s+not\s+have|are\s+without)\s+)"
     R"(%(?:restrictions?|limits?|limitations?|rules|filters?|guidelines|boundaries)\b)"},
    {"html_comment_injection", ThreatScope::kAll,
     R"(<!--[^>]*(?:ignore|override|system|secret|hidden))"},
    {"hidden_div", ThreatScope::kAll, R"(<div\b[^>]*\bstyle\s*=[^>]*\bdisplay\s*:\s*none)"},
    {"translate_execute", ThreatScope::kAll,
     R"(\btranslate\s+@(?:into|to)\s+@(?:and\s+|then\s+)+(?:execute|run|eval(?:uate)?)\b)"},
    {"deception_hide", ThreatScope::kAll,
     R"(\b(?:do\s+not|don['’]?t)\s+@(?:tell|inform|notify|alert)\s+@(?:the\s+)?user\b)"},
    // ---- exfiltration from the command line (all) ----
    {"exfil_curl", ThreatScope::kAll,
     R"(\bcurl\b[^\n]*\$\{?\w*(?:key|token|secret|password|credential|api)\w*)"},
    {"exfil_wget", ThreatScope::kAll,
     R"(\bwget\b[^\n]*\$\{?\w*(?:key|token|secret|password|credential|api)\w*)"},
    {"read_secrets", ThreatScope::kAll,
     R"(\bcat\s+(?:-\S+\s+)*\S*(?:\.env\b|credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc))"},
    // ---- role or identity hijack (context) ----
    // "you are now a/an/the …"; a bare "you are now" (ready, on the main branch) is no finding,
    // but the jailbreak persona DAN ("Do Anything Now", upper case) and its modes are.
    {"role_hijack", ThreatScope::kContext,
     R"(\byou(?:\s+are|['’]re)\s+%now\s+(?:a|an|the)\s)"
     R"(|\byou(?:\s+are|['’]re)\s+now\s+)"
     R"((?:(?-i:DAN)\b|in\s+(?:developer|god|jailbreak|dan|unrestricted)\s+mode\b))"},
    {"role_pretend", ThreatScope::kContext, R"(\bpretend\s+@(?:you\s+are|you['’]re|to\s+be)\b)"},
    {"leak_system_prompt", ThreatScope::kContext,
     R"(\b(?:output|print|reveal|repeat|dump|leak|disclose)\s+)"
     R"(@(?:system|initial|original|hidden)\s+(?:prompt|instructions)\b)"},
    {"remove_filters", ThreatScope::kContext,
     R"(\b(?:respond|answer|reply)\s+%without\s+)"
     R"(%(?:restrictions?|limitations?|filters?|safety|censorship|guardrails)\b)"},
    {"fake_update", ThreatScope::kContext,
     R"(\byou(?:\s+have|['’]ve)\s+been\s+%(?:updated|upgraded|patched|reprogrammed)\s+to\b)"},
    {"identity_override", ThreatScope::kContext, R"(\bname\s+yourself\s+\S)"},
    // ---- C2 / "Brainworm" promptware (context) ----
    {"c2_node_registration", ThreatScope::kContext,
     R"(\bregister\s+(?:as\s+)?(?:a\s+|an\s+)?(?:new\s+)?node\b)"},
    {"c2_heartbeat", ThreatScope::kContext,
     R"(\b(?:heartbeats?|beacons?|beaconing|check-ins?)\s+(?:to|with)\b)"},
    {"c2_task_pull", ThreatScope::kContext,
     R"(\bpull\s+(?:down\s+)?(?:new\s+|any\s+|the\s+latest\s+)?task(?:ing|s)\b)"},
    {"c2_network_connect", ThreatScope::kContext, R"(\bconnect\s+to\s+the\s+network\b)"},
    {"forced_action", ThreatScope::kContext, R"(\byou\s+must\s+%(?:register|connect|report|beacon)\b)"},
    {"anti_forensic_oneliner", ThreatScope::kContext,
     R"(\b(?:only\s+use|use\s+only)\s+one[\s-]?liners?\b)"},
    {"anti_forensic_disk", ThreatScope::kContext,
     R"(\bnever\s+%(?:create|write|save|drop)\s+%(?:scripts?|files?)\s+%disk\b)"},
    {"env_var_unset_agent", ThreatScope::kContext,
     R"(\bunset\s+(?:\S+\s+){0,8}?\w*(?:claude|codex|hermes|agent|openai|anthropic)\w*)"},
    // Cobalt Strike, Metasploit and Brainworm by name; Sliver, Havoc and Mythic are English words
    // too ("wreak havoc"), so only next to a C2 term. "praxis" is deliberately not here.
    {"known_c2_framework", ThreatScope::kContext,
     R"(\b(?:cobalt\s*strike|metasploit|brainworm)\b)"
     R"(|\b(?:sliver|havoc|mythic)\s+)"
     R"((?:c2|implants?|beacons?|framework|teamserver|listeners?|payloads?|agents?)\b)"
     R"(|\b(?:c2|implants?|beacons?|framework|teamserver)\s+)"
     R"((?:like\s+|such\s+as\s+)?(?:sliver|havoc|mythic)\b)"},
    {"c2_explicit", ThreatScope::kContext,
     R"(\bc2\s+(?:servers?|channels?|infrastructure|beacons?|endpoints?)\b)"},
    {"c2_explicit_long", ThreatScope::kContext, R"(\bcommand[\s-]+and[\s-]+control\b)"},
    // ---- exfiltration by URL or of the context (strict) ----
    {"send_to_url", ThreatScope::kStrict,
     R"(\b(?:send|post|upload|transmit|forward|exfiltrate)\s+@(?:to|at)\s+https?://)"},
    {"context_exfil", ThreatScope::kStrict,
     R"(\b(?:include|output|print|share|send|reveal|dump|repeat)\s+@)"
     R"((?:(?:conversation|chat)\s+(?:history|log|transcript)|previous\s+messages)"
     R"(|(?:full|entire|whole)\s+(?:context|conversation))\b)"},
    // ---- persistence (strict) ----
    {"ssh_backdoor", ThreatScope::kStrict, R"(authorized_keys)"},
    {"ssh_access", ThreatScope::kStrict, R"((?:\$HOME|\$\{HOME\}|~)/\.ssh\b)"},
    {"hermes_env", ThreatScope::kStrict, R"((?:\$HOME|\$\{HOME\}|~)/\.hermes/\.env\b)"},
    {"agent_config_mod", ThreatScope::kStrict,
     R"(\b(?:update|modify|edit|write|change|append|add|overwrite|replace)\s+%(?:to\s+|in\s+|into\s+)?)"
     R"(\S*(?:AGENTS\.md|CLAUDE\.md|\.cursorrules|\.clinerules))"},
    {"hermes_config_mod", ThreatScope::kStrict,
     R"(\b(?:update|modify|edit|write|change|append|add|overwrite|replace)\s+%(?:to\s+|in\s+|into\s+)?)"
     R"(\S*\.hermes/(?:config\.yaml|SOUL\.md))"},
    // ---- secrets (strict) ----
    {"hardcoded_secret", ThreatScope::kStrict,
     R"((?:api[_-]?key|token|secret|password|passwd)["']?\s*[=:]\s*["'][A-Za-z0-9+/=_.\-]{20,}["'])"},
};

std::string Expand(std::string_view regex) {
  std::string out;
  for (char c : regex) {
    if (c == '@') {
      out += kGap8;
    } else if (c == '%') {
      out += kGap4;
    } else {
      out += c;
    }
  }
  return out;
}

std::unique_ptr<const RE2> Compile(const std::string& regex, int64_t max_mem) {
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  options.set_max_mem(max_mem);
  auto re = std::make_unique<const RE2>(regex, options);
  // The patterns are constants: threat_scanner_test compiles and fires every one of them.
  assert(re->ok());
  return re;
}

// The compiled catalogue: each pattern alone (for its id), and per scope the alternation of the
// scope's patterns, which answers "any finding?" in one pass over the text.
struct Catalogue {
  std::vector<std::unique_ptr<const RE2>> patterns;  // parallel to kPatterns
  std::array<std::unique_ptr<const RE2>, 3> any;     // by ThreatScope
};

const Catalogue& Patterns() {
  // Compiled once, on first use; RE2 objects are safe to match from several threads.
  static const Catalogue* const catalogue = [] {
    auto* c = new Catalogue;
    std::array<std::string, 3> unions;
    for (const PatternSpec& p : kPatterns) {
      const std::string regex = Expand(p.regex);
      c->patterns.push_back(Compile(regex, 8 << 20));
      for (size_t s = static_cast<size_t>(p.scope); s < unions.size(); ++s) {
        unions[s] += (unions[s].empty() ? "(?:" : "|(?:") + regex + ")";
      }
    }
    // The alternation's DFA holds every pattern's states: more room than one pattern's default.
    for (size_t s = 0; s < unions.size(); ++s) c->any[s] = Compile(unions[s], 64 << 20);
    return c;
  }();
  return *catalogue;
}

// The first kMaxThreatScanCodePoints code points of `text`.
std::string_view Capped(std::string_view text) {
  size_t i = 0, count = 0;
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const auto length = static_cast<int64_t>(text.size());
  while (i < text.size() && count < kMaxThreatScanCodePoints) {
    UChar32 c;
    auto at = static_cast<int64_t>(i);
    U8_NEXT(s, at, length, c);
    i = static_cast<size_t>(at);
    ++count;
  }
  return text.substr(0, i);
}

bool IsAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// What the patterns read: `capped` without its invisible characters, NFKC-normalised. ASCII text
// is its own NFKC form and holds no invisible character, so it is returned as it is.
std::string PatternText(std::string_view capped) {
  if (IsAscii(capped)) return std::string(capped);
  icu::UnicodeString visible;
  const auto* s = reinterpret_cast<const uint8_t*>(capped.data());
  const auto length = static_cast<int64_t>(capped.size());
  for (int64_t i = 0; i < length;) {
    UChar32 c;
    U8_NEXT(s, i, length, c);
    if (c < 0) c = 0xFFFD;
    if (!IsInvisible(c)) visible.append(c);
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  icu::UnicodeString normalized = U_SUCCESS(status) ? nfkc->normalize(visible, status) : visible;
  if (U_FAILURE(status)) normalized = visible;  // ICU's data is linked in: not expected
  std::string out;
  normalized.toUTF8String(out);
  return out;
}

}  // namespace

std::span<const char32_t> InvisibleCharacters() { return kInvisible; }

std::vector<std::string> ThreatPatternIds(ThreatScope scope) {
  std::vector<std::string> ids;
  for (const PatternSpec& p : kPatterns) {
    if (p.scope <= scope) ids.emplace_back(p.id);
  }
  return ids;
}

bool MatchesThreatPattern(std::string_view text, ThreatScope scope) {
  if (text.empty()) return false;
  return RE2::PartialMatch(PatternText(Capped(text)), *Patterns().any[static_cast<size_t>(scope)]);
}

std::vector<std::string> ScanForThreats(std::string_view text, ThreatScope scope) {
  std::vector<std::string> findings;
  if (text.empty()) return findings;
  const std::string_view capped = Capped(text);
  std::vector<UChar32> seen;
  const auto* s = reinterpret_cast<const uint8_t*>(capped.data());
  const auto length = static_cast<int64_t>(capped.size());
  for (int64_t i = 0; i < length;) {
    UChar32 c;
    U8_NEXT(s, i, length, c);
    if (!IsInvisible(c) || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    findings.push_back(fmt::format("invisible_unicode_U+{:04X}", static_cast<uint32_t>(c)));
  }
  const Catalogue& catalogue = Patterns();
  const std::string normalized = PatternText(capped);
  if (!RE2::PartialMatch(normalized, *catalogue.any[static_cast<size_t>(scope)])) return findings;
  for (size_t i = 0; i < std::size(kPatterns); ++i) {
    if (kPatterns[i].scope <= scope && RE2::PartialMatch(normalized, *catalogue.patterns[i])) {
      findings.emplace_back(kPatterns[i].id);
    }
  }
  return findings;
}

std::optional<std::string> FirstThreatMessage(std::string_view text, ThreatScope scope) {
  const std::vector<std::string> findings = ScanForThreats(text, scope);
  if (findings.empty()) return std::nullopt;
  const std::string& first = findings.front();
  constexpr std::string_view kInvisiblePrefix = "invisible_unicode_";
  if (first.starts_with(kInvisiblePrefix)) {
    return fmt::format("Blocked: content contains invisible unicode character {} (possible injection).",
                       first.substr(kInvisiblePrefix.size()));
  }
  return fmt::format(
      "Blocked: content matches threat pattern '{}'. Content is injected into the system prompt and must not "
      "contain injection or exfiltration payloads.",
      first);
}

}  // namespace engram::text
