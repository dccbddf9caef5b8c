#include "codec/compact_json.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "util/utf8.h"

namespace engram {
namespace {

// The escape nlohmann writes for byte c (< 0x20, '"' or '\\').
void AppendEscape(unsigned char c, std::string* out) {
  switch (c) {
    case '\b': *out += "\\b"; return;
    case '\t': *out += "\\t"; return;
    case '\n': *out += "\\n"; return;
    case '\f': *out += "\\f"; return;
    case '\r': *out += "\\r"; return;
    case '"': *out += "\\\""; return;
    case '\\': *out += "\\\\"; return;
    default: {
      constexpr char kHex[] = "0123456789abcdef";  // nlohmann: "\\u%04x", lower case
      const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
      out->append(u, 6);
    }
  }
}

// The index of the first byte at or after `from` that JSON escapes (< 0x20, '"', '\\'), or
// s.size(); sets *non_ascii when a byte >= 0x80 was passed. Eight bytes at a time: "has a byte
// less than n" and "has a zero byte" are exact word tests (Bit Twiddling Hacks, S. E. Anderson).
size_t NextEscape(const std::string& s, size_t from, bool* non_ascii) {
  constexpr uint64_t k01 = 0x0101010101010101ull;
  constexpr uint64_t k80 = 0x8080808080808080ull;
  uint64_t high = 0;
  size_t i = from;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    high |= w;
    const uint64_t quote = w ^ (k01 * '"');
    const uint64_t backslash = w ^ (k01 * '\\');
    const uint64_t control = (w - k01 * 0x20) & ~w;
    if (((control | ((quote - k01) & ~quote) | ((backslash - k01) & ~backslash)) & k80) != 0) break;
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    high |= c;
    if (c < 0x20 || c == '"' || c == '\\') break;
  }
  if ((high & k80) != 0) *non_ascii = true;
  return i;
}

void AppendString(const std::string& s, std::string* out) {
  const size_t start = out->size();
  out->push_back('"');
  bool non_ascii = false;
  size_t run = 0;  // start of the bytes not yet copied
  for (size_t i = NextEscape(s, 0, &non_ascii); i < s.size(); i = NextEscape(s, i + 1, &non_ascii)) {
    out->append(s, run, i - run);
    AppendEscape(static_cast<unsigned char>(s[i]), out);
    run = i + 1;
  }
  out->append(s, run, s.size() - run);
  out->push_back('"');
  if (non_ascii && !IsValidUtf8(s)) {
    // nlohmann's replacement of bad bytes, exactly.
    out->resize(start);
    *out += OrderedJson(s).dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
  }
}

template <typename Int>
void AppendInteger(Int v, std::string* out) {
  std::array<char, 24> buf;
  const auto end = std::to_chars(buf.data(), buf.data() + buf.size(), v).ptr;
  out->append(buf.data(), static_cast<size_t>(end - buf.data()));
}

void AppendFloat(double v, std::string* out) {
  if (!std::isfinite(v)) {
    *out += "null";
    return;
  }
  // nlohmann's own shortest round-trip form (serializer::dump_float calls the same function).
  std::array<char, 64> buf;
  char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v);
  out->append(buf.data(), static_cast<size_t>(end - buf.data()));
}

}  // namespace

void AppendCompactJson(const OrderedJson& j, std::string* out) {
  using Type = OrderedJson::value_t;
  switch (j.type()) {
    case Type::null:
      *out += "null";
      return;
    case Type::boolean:
      *out += j.get_ref<const OrderedJson::boolean_t&>() ? "true" : "false";
      return;
    case Type::number_integer:
      AppendInteger(j.get_ref<const OrderedJson::number_integer_t&>(), out);
      return;
    case Type::number_unsigned:
      AppendInteger(j.get_ref<const OrderedJson::number_unsigned_t&>(), out);
      return;
    case Type::number_float:
      AppendFloat(j.get_ref<const OrderedJson::number_float_t&>(), out);
      return;
    case Type::string:
      AppendString(j.get_ref<const OrderedJson::string_t&>(), out);
      return;
    case Type::array: {
      out->push_back('[');
      bool first = true;
      for (const OrderedJson& v : j.get_ref<const OrderedJson::array_t&>()) {
        if (!first) out->push_back(',');
        first = false;
        AppendCompactJson(v, out);
      }
      out->push_back(']');
      return;
    }
    case Type::object: {
      out->push_back('{');
      bool first = true;
      for (const auto& [key, v] : j.get_ref<const OrderedJson::object_t&>()) {
        if (!first) out->push_back(',');
        first = false;
        AppendString(key, out);
        out->push_back(':');
        AppendCompactJson(v, out);
      }
      out->push_back('}');
      return;
    }
    case Type::binary:
    case Type::discarded:
      break;
  }
  *out += j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);  // not in our documents
}

}  // namespace engram
