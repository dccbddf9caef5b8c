#include "providers/openai_embedder.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace engram::providers {
namespace {

using nlohmann::json;

struct Reply {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  int delay_ms = 0;  // the handler sleeps this long before answering
};

struct RecordedRequest {
  std::string path;
  json body;
  std::string authorization;
};

// A local OpenAI-compatible server on 127.0.0.1 (port chosen by the OS). Each POST is answered by
// the next scripted reply when there is one, else by `fallback(request body)`. No network.
class ScriptedServer {
 public:
  using Handler = std::function<Reply(const json& request)>;

  ScriptedServer(std::vector<Reply> replies, Handler fallback)
      : replies_(std::move(replies)), fallback_(std::move(fallback)) {
    server_.Post(R"(/.*)", [this](const httplib::Request& req, httplib::Response& res) {
      json body = json::parse(req.body, nullptr, false);
      Reply reply{500, R"({"error":{"message":"script exhausted"}})", {}, 0};
      bool scripted = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back({req.path, body, req.get_header_value("Authorization")});
        if (next_ < replies_.size()) {
          reply = replies_[next_++];
          scripted = true;
        }
      }
      if (!scripted && fallback_) reply = fallback_(body);
      if (reply.delay_ms > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(reply.delay_ms));
      }
      res.status = reply.status;
      for (const auto& [name, value] : reply.headers) res.set_header(name, value);
      res.set_content(reply.body, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  explicit ScriptedServer(Handler fallback) : ScriptedServer({}, std::move(fallback)) {}
  ~ScriptedServer() {
    server_.stop();
    thread_.join();
  }

  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<RecordedRequest> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mu_;
  std::vector<Reply> replies_;
  Handler fallback_;
  size_t next_ = 0;
  std::vector<RecordedRequest> requests_;
};

// A deterministic embedding of a text: [byte length, 1, 0, ...] of `dim` values.
std::vector<float> FakeVector(const std::string& text, int dim) {
  std::vector<float> v(static_cast<size_t>(dim), 0.0f);
  v[0] = static_cast<float>(text.size());
  if (dim > 1) v[1] = 1.0f;
  return v;
}

// An OpenAI-style reply embedding every input of `request` with FakeVector, listed in reverse so
// that clients must use "index".
Reply EmbeddingsReply(const json& request, int dim) {
  json data = json::array();
  const json& input = request["input"];
  for (size_t i = input.size(); i-- > 0;) {
    data.push_back({{"object", "embedding"},
                    {"index", i},
                    {"embedding", FakeVector(input[i].get<std::string>(), dim)}});
  }
  json body = {
      {"object", "list"},
      {"data", data},
      {"model", request.value("model", "")},
      {"usage", {{"prompt_tokens", 3 * input.size()}, {"total_tokens", 3 * input.size()}}}};
  return {200, body.dump(), {}, 0};
}

ScriptedServer::Handler Embeds(int dim) {
  return [dim](const json& request) { return EmbeddingsReply(request, dim); };
}

OpenAiEmbedderOptions TestOptions(ScriptedServer& server, std::vector<int>* waits) {
  OpenAiEmbedderOptions options;
  options.base_url = server.base_url();
  options.model = "embed-test";
  options.api_key = "sk-test";
  options.timeout_ms = 2000;
  options.max_retries = 2;
  options.retry_backoff_ms = 100;
  options.sleep_for_ms = [waits](int ms) { waits->push_back(ms); };
  return options;
}

std::vector<float> Normalized(std::vector<float> v) {
  L2Normalize(v);
  return v;
}

TEST(OpenAiEmbedderTest, BatchesTextsAndKeepsInputOrder) {
  ScriptedServer server(Embeds(3));
  std::vector<int> waits;
  OpenAiEmbedderOptions options = TestOptions(server, &waits);
  options.batch_size = 2;
  OpenAiEmbedder embedder(options);
  EXPECT_EQ(embedder.ModelId(), "openai:embed-test");
  EXPECT_EQ(embedder.Dimension(), 0);  // not known before the first reply

  const std::vector<std::string> texts = {"a", "bb", "ccc", "我住在杭州", "eeeee"};
  auto vectors = embedder.Embed(texts);
  ASSERT_TRUE(vectors.has_value()) << vectors.error().ToString();
  ASSERT_EQ(vectors->size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<float> expected = Normalized(FakeVector(texts[i], 3));
    ASSERT_EQ((*vectors)[i].size(), 3u);
    for (size_t j = 0; j < 3; ++j) EXPECT_FLOAT_EQ((*vectors)[i][j], expected[j]) << i;
  }
  EXPECT_EQ(embedder.Dimension(), 3);

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].path, "/v1/embeddings");
  EXPECT_EQ(requests[0].authorization, "Bearer sk-test");
  EXPECT_EQ(requests[0].body["model"], "embed-test");
  EXPECT_EQ(requests[0].body["input"], json({"a", "bb"}));
  EXPECT_EQ(requests[1].body["input"], json({"ccc", "我住在杭州"}));
  EXPECT_EQ(requests[2].body["input"], json({"eeeee"}));
  EXPECT_FALSE(requests[0].body.contains("dimensions"));

  EmbeddingUsage usage = embedder.usage();
  EXPECT_EQ(usage.requests, 3);
  EXPECT_EQ(usage.attempts, 3);
  EXPECT_EQ(usage.texts, 5);
  EXPECT_EQ(usage.prompt_tokens, 15);
  EXPECT_TRUE(waits.empty());
}

TEST(OpenAiEmbedderTest, BlankTextsAreZeroVectorsAndNotSent) {
  ScriptedServer server(Embeds(4));
  std::vector<int> waits;
  OpenAiEmbedder embedder(TestOptions(server, &waits));
  auto vectors = embedder.Embed({"", "hello", "  \n"});
  ASSERT_TRUE(vectors.has_value()) << vectors.error().ToString();
  ASSERT_EQ(vectors->size(), 3u);
  EXPECT_EQ((*vectors)[0], std::vector<float>(4, 0.0f));
  EXPECT_EQ((*vectors)[2], std::vector<float>(4, 0.0f));
  EXPECT_NEAR(Dot((*vectors)[1].data(), (*vectors)[1].data(), 4), 1.0f, 1e-6);
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].body["input"], json({"hello"}));
  EXPECT_TRUE(embedder.Embed({})->empty());
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(OpenAiEmbedderTest, OnlyBlankTextsProbeTheDimensionOnce) {
  ScriptedServer server(Embeds(2));
  std::vector<int> waits;
  OpenAiEmbedder embedder(TestOptions(server, &waits));
  auto vectors = embedder.Embed({""});
  ASSERT_TRUE(vectors.has_value()) << vectors.error().ToString();
  EXPECT_EQ((*vectors)[0], std::vector<float>(2, 0.0f));
  ASSERT_TRUE(embedder.Embed({" "}).has_value());
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(*embedder.DetectDimension(), 2);
}

TEST(OpenAiEmbedderTest, ConfiguredDimensionsAreSentAndChecked) {
  ScriptedServer server(Embeds(3));
  std::vector<int> waits;
  OpenAiEmbedderOptions options = TestOptions(server, &waits);
  options.dimensions = 3;
  OpenAiEmbedder embedder(options);
  EXPECT_EQ(embedder.ModelId(), "openai:embed-test:dim=3");
  EXPECT_EQ(embedder.Dimension(), 3);
  ASSERT_TRUE(embedder.Embed({"x"}).has_value());
  EXPECT_EQ(server.requests()[0].body["dimensions"], 3);

  options.dimensions = 0;
  options.expected_dimension = 1536;
  OpenAiEmbedder expecting(options);
  EXPECT_EQ(expecting.ModelId(), "openai:embed-test");
  EXPECT_EQ(expecting.Dimension(), 1536);
  auto mismatch = expecting.Embed({"x"});
  ASSERT_FALSE(mismatch.has_value());
  EXPECT_EQ(mismatch.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(mismatch.error().message().find("returned 3-dimensional"), std::string::npos)
      << mismatch.error().message();
  EXPECT_NE(mismatch.error().message().find("1536"), std::string::npos);
  EXPECT_FALSE(server.requests().back().body.contains("dimensions"));
}

// B45: the provider switches to a model of another dimension under the same name.
TEST(OpenAiEmbedderTest, B45DimensionChangeBetweenRepliesIsAnError) {
  ScriptedServer server({EmbeddingsReply(json{{"input", json::array({"first"})}}, 1536),
                         EmbeddingsReply(json{{"input", json::array({"second"})}}, 1024)},
                        nullptr);
  std::vector<int> waits;
  OpenAiEmbedderOptions options = TestOptions(server, &waits);
  options.batch_size = 1;
  OpenAiEmbedder embedder(options);
  auto vectors = embedder.Embed({"first", "second"});
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().code(), StatusCode::kInvalidArgument);
  const std::string& message = vectors.error().message();
  EXPECT_NE(message.find("1024"), std::string::npos) << message;
  EXPECT_NE(message.find("1536"), std::string::npos) << message;
  EXPECT_NE(message.find("batch 2/2"), std::string::npos) << message;
  EXPECT_EQ(embedder.Dimension(), 1536);
  EXPECT_TRUE(waits.empty());  // not retried
}

TEST(OpenAiEmbedderTest, TimeoutIsIOError) {
  ScriptedServer server({{200, "{}", {}, 800}}, nullptr);
  std::vector<int> waits;
  OpenAiEmbedderOptions options = TestOptions(server, &waits);
  options.timeout_ms = 200;
  options.max_retries = 0;
  auto vectors = OpenAiEmbedder(options).Embed({"slow"});
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().code(), StatusCode::kIOError);
  EXPECT_NE(vectors.error().message().find("timeout 200 ms"), std::string::npos)
      << vectors.error().message();
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(OpenAiEmbedderTest, Retries429And5xxWithBackoff) {
  ScriptedServer server({{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "1"}}, 0},
                         {503, R"({"error":{"message":"overloaded"}})", {}, 0}},
                        Embeds(2));
  std::vector<int> waits;
  OpenAiEmbedder embedder(TestOptions(server, &waits));
  auto vectors = embedder.Embed({"x"});
  ASSERT_TRUE(vectors.has_value()) << vectors.error().ToString();
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(waits, (std::vector<int>{1000, 200}));
  EXPECT_EQ(embedder.usage().attempts, 3);
  EXPECT_EQ(embedder.usage().requests, 1);
}

TEST(OpenAiEmbedderTest, Persistent5xxIsIOErrorAnd429IsBusy) {
  Reply bad{502, R"({"error":{"message":"bad gateway"}})", {}, 0};
  ScriptedServer server({bad, bad, bad}, nullptr);
  std::vector<int> waits;
  auto vectors = OpenAiEmbedder(TestOptions(server, &waits)).Embed({"x"});
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().code(), StatusCode::kIOError);
  EXPECT_NE(vectors.error().message().find("bad gateway"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(waits, (std::vector<int>{100, 200}));

  Reply limited{429, R"({"error":{"message":"rate limit"}})", {}, 0};
  ScriptedServer busy({limited, limited, limited}, nullptr);
  auto busy_vectors = OpenAiEmbedder(TestOptions(busy, &waits)).Embed({"x"});
  ASSERT_FALSE(busy_vectors.has_value());
  EXPECT_EQ(busy_vectors.error().code(), StatusCode::kBusy);
}

TEST(OpenAiEmbedderTest, ClientErrorIsInvalidArgumentWithoutRetry) {
  ScriptedServer server({{404, R"({"error":"model \"nope\" not found"})", {}, 0}}, Embeds(2));
  std::vector<int> waits;
  auto vectors = OpenAiEmbedder(TestOptions(server, &waits)).Embed({"x"});
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(vectors.error().message().find("model \"nope\" not found"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_TRUE(waits.empty());
}

TEST(OpenAiEmbedderTest, MalformedRepliesAreIOError) {
  const std::vector<std::string> bodies = {
      "<html>proxy</html>",
      R"({"data":[]})",                                 // wrong count
      R"({"data":[{"index":0,"embedding":"AAAA"}]})",   // base64
      R"({"data":[{"index":5,"embedding":[1,2]}]})",    // bad index
      R"({"data":[{"index":0,"embedding":[]}]})",       // empty
      R"({"data":[{"index":0,"embedding":[1,"x"]}]})",  // not numbers
      R"({"object":"list"})",                           // no data
  };
  for (const std::string& body : bodies) {
    ScriptedServer server({{200, body, {}, 0}}, nullptr);
    std::vector<int> waits;
    auto vectors = OpenAiEmbedder(TestOptions(server, &waits)).Embed({"x"});
    ASSERT_FALSE(vectors.has_value()) << body;
    EXPECT_EQ(vectors.error().code(), StatusCode::kIOError) << body;
    EXPECT_EQ(server.requests().size(), 1u);
  }
  // Two inputs, vectors of different lengths in one reply.
  ScriptedServer server(
      {{200, R"({"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]})", {}, 0}},
      nullptr);
  std::vector<int> waits;
  auto vectors = OpenAiEmbedder(TestOptions(server, &waits)).Embed({"x", "y"});
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().code(), StatusCode::kIOError);
  EXPECT_NE(vectors.error().message().find("3 dimensions, data[0] has 2"), std::string::npos);
}

TEST(OpenAiEmbedderTest, UnreachableServerIsIOError) {
  std::string base_url;
  {
    ScriptedServer closed(nullptr);
    base_url = closed.base_url();
  }
  std::vector<int> waits;
  OpenAiEmbedderOptions options;
  options.base_url = base_url;
  options.model = "m";
  options.timeout_ms = 500;
  options.max_retries = 1;
  options.sleep_for_ms = [&waits](int ms) { waits.push_back(ms); };
  auto vectors = OpenAiEmbedder(options).Embed({"x"});
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().code(), StatusCode::kIOError);
  EXPECT_EQ(waits.size(), 1u);
}

TEST(OpenAiEmbedderTest, MisconfigurationIsInvalidArgument) {
  OpenAiEmbedderOptions options;
  options.base_url = "http://127.0.0.1:9/v1";
  EXPECT_EQ(OpenAiEmbedder(options).Embed({"x"}).error().code(), StatusCode::kInvalidArgument);
  options.model = "m";
  options.base_url = "127.0.0.1:9/v1";
  EXPECT_EQ(OpenAiEmbedder(options).Embed({"x"}).error().code(), StatusCode::kInvalidArgument);
  options.base_url = "ftp://127.0.0.1/v1";
  EXPECT_EQ(OpenAiEmbedder(options).Embed({"x"}).error().code(), StatusCode::kInvalidArgument);
  options.base_url = "http://127.0.0.1:9/v1";
  options.batch_size = 0;
  EXPECT_EQ(OpenAiEmbedder(options).Embed({"x"}).error().code(), StatusCode::kInvalidArgument);
}

TEST(OpenAiEmbedderTest, OptionsFromEnv) {
  setenv("ENGRAM_EMBED_BASE_URL", "http://127.0.0.1:11434/v1", 1);
  setenv("ENGRAM_EMBED_MODEL", "nomic-embed-text", 1);
  unsetenv("ENGRAM_EMBED_API_KEY");
  OpenAiEmbedderOptions options = OpenAiEmbedderOptionsFromEnv();
  EXPECT_EQ(options.base_url, "http://127.0.0.1:11434/v1");
  EXPECT_EQ(options.model, "nomic-embed-text");
  EXPECT_EQ(options.api_key, "");
  EXPECT_EQ(options.batch_size, 64);
  setenv("ENGRAM_EMBED_API_KEY", "sk-x", 1);
  EXPECT_EQ(OpenAiEmbedderOptionsFromEnv().api_key, "sk-x");
  unsetenv("ENGRAM_EMBED_BASE_URL");
  unsetenv("ENGRAM_EMBED_MODEL");
  unsetenv("ENGRAM_EMBED_API_KEY");
}

}  // namespace
}  // namespace engram::providers
