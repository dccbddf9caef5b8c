// capture/tool_call_record_test.cc — what a record keeps of a tools/call request and its response.
#include "capture/tool_call_record.h"

#include <gtest/gtest.h>

#include "util/sha256.h"
#include "util/utf8.h"

namespace engram::capture {
namespace {

using json = nlohmann::json;

json Call(json params) { return {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", std::move(params)}}; }

TEST(ToolCallRecordTest, ArgumentsAreSummarisedToTwoHundredCharactersWithAHashOfTheWhole) {
  const std::string long_text(500, 'x');
  const std::string cjk = "日本語のテキスト";
  ToolCallRecord r;
  ASSERT_TRUE(DescribeRequest(Call({{"name", "search"}, {"arguments", {{"q", cjk + long_text}}}}), &r).ok());
  const std::string whole = json({{"q", cjk + long_text}}).dump();
  EXPECT_EQ(r.tool_name, "search");
  EXPECT_EQ(r.args_bytes, static_cast<int64_t>(whole.size()));
  EXPECT_EQ(r.args_sha256, Sha256Hex(whole));
  EXPECT_EQ(CodePointCount(r.args_summary), kArgsSummaryChars + 1);  // 200 and the "…" that says it was cut
  EXPECT_EQ(r.args_summary.rfind("{\"q\":\"日本語", 0), 0u);
}

TEST(ToolCallRecordTest, ARequestWithoutAToolNameIsRefusedNamingTheField) {
  ToolCallRecord r;
  const Status st = DescribeRequest(Call({{"arguments", json::object()}}), &r);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("params.name"), std::string::npos) << st.message();
  EXPECT_FALSE(DescribeRequest(json{{"method", "tools/list"}}, &r).ok());
}

TEST(ToolCallRecordTest, CorrelationComesFromBaggageAndTraceparentInMeta) {
  ToolCallRecord r;
  json meta = {{"baggage", "other=1, engram.session_id = s-7 ;prop=x,engram.task_id=refund-3"},
               {"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}};
  ASSERT_TRUE(DescribeRequest(Call({{"name", "t"}, {"_meta", meta}}), &r).ok());
  EXPECT_EQ(r.correlation.session_id, "s-7");
  EXPECT_EQ(r.correlation.task_id, "refund-3");
  EXPECT_EQ(r.correlation.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(SessionOf(r, "fallback"), "s-7");

  ToolCallRecord traced;
  meta = {{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}};
  ASSERT_TRUE(DescribeRequest(Call({{"name", "t"}, {"_meta", meta}}), &traced).ok());
  EXPECT_EQ(SessionOf(traced, "fallback"), "trace-4bf92f3577b34da6a3ce929d0e0e4736");

  ToolCallRecord bad;  // an all-zero or malformed trace id names nothing
  meta = {{"traceparent", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"}};
  ASSERT_TRUE(DescribeRequest(Call({{"name", "t"}, {"_meta", meta}}), &bad).ok());
  EXPECT_EQ(SessionOf(bad, "fallback"), "fallback");
}

TEST(ToolCallRecordTest, AToolErrorIsReadFromIsErrorNotFromTheJsonRpcLayer) {
  ToolCallRecord r;
  DescribeResponse({{"jsonrpc", "2.0"}, {"id", 1},
                    {"result", {{"isError", true}, {"content", {{{"type", "text"}, {"text", "order already shipped"}}}}}}},
                   &r);
  EXPECT_EQ(r.outcome, "tool_error");
  EXPECT_EQ(r.error_message, "order already shipped");

  ToolCallRecord rpc;
  DescribeResponse({{"jsonrpc", "2.0"}, {"id", 1}, {"error", {{"code", -32602}, {"message", "unknown tool"}}}}, &rpc);
  EXPECT_EQ(rpc.outcome, "rpc_error");
  EXPECT_EQ(rpc.rpc_error_code, -32602);
  EXPECT_EQ(rpc.error_message, "unknown tool");
}

TEST(ToolCallRecordTest, ResultMetadataCountsTypesBytesAndRows) {
  const json result = {{"content", {{{"type", "text"}, {"text", "[1,2,3]"}}, {{"type", "image"}, {"data", "AAAA"}}}},
                       {"structuredContent", {{"orders", {1, 2, 3, 4}}}}};
  ToolCallRecord r;
  DescribeResponse({{"jsonrpc", "2.0"}, {"id", 1}, {"result", result}}, &r);
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_EQ(r.content_types, (std::map<std::string, int64_t>{{"image", 1}, {"text", 1}}));
  EXPECT_EQ(r.result_bytes, static_cast<int64_t>(result.dump().size()));
  ASSERT_TRUE(r.row_count.has_value());
  EXPECT_EQ(*r.row_count, 4);  // structuredContent's one array wins over the text
  EXPECT_EQ(r.result_preview, "[1,2,3]");

  ToolCallRecord text_rows;
  DescribeResponse({{"id", 1}, {"result", {{"content", {{{"type", "text"}, {"text", "[{\"a\":1},{\"a\":2}]"}}}}}}},
                   &text_rows);
  ASSERT_TRUE(text_rows.row_count.has_value());
  EXPECT_EQ(*text_rows.row_count, 2);

  ToolCallRecord prose;
  DescribeResponse({{"id", 1}, {"result", {{"content", {{{"type", "text"}, {"text", "[note] not JSON"}}}}}}}, &prose);
  EXPECT_FALSE(prose.row_count.has_value());
}

TEST(ToolCallRecordTest, JsonRoundTripKeepsEveryField) {
  ToolCallRecord r;
  r.capture_id = "01J0000000000000000000000A";
  r.connection_id = "c1";
  r.request_id = "\"abc\"";
  r.tool_name = "get_order";
  r.started_at = 1'700'000'000'123;
  r.duration_us = 12'345;
  r.args_summary = "{\"id\":7}";
  r.args_sha256 = Sha256Hex(r.args_summary);
  r.args_bytes = 8;
  r.outcome = "rpc_error";
  r.rpc_error_code = -32000;
  r.error_message = "boom";
  r.result_bytes = 40;
  r.content_types = {{"text", 2}};
  r.row_count = 0;
  r.result_preview = "p";
  r.correlation = {"s", "t", "4bf92f3577b34da6a3ce929d0e0e4736"};
  r.args_json = "{\"id\":7}";
  r.result_ref = "sha256:" + std::string(64, 'a');
  auto back = FromJson(ToJson(r));
  ASSERT_TRUE(back.has_value()) << back.error().message();
  EXPECT_EQ(ToJson(*back), ToJson(r));
  EXPECT_FALSE(FromJson(json{{"capture_id", 1}}).has_value());
}

TEST(ToolCallRecordTest, TheRecallLineSaysWhatWasCalledAndHowItWent) {
  ToolCallRecord r;
  r.tool_name = "cancel_order";
  r.args_summary = "{\"order_id\":\"#W42\"}";
  r.outcome = "tool_error";
  r.error_message = "order already shipped";
  r.content_types = {{"text", 1}};
  r.result_bytes = 80;
  r.duration_us = 12'000;
  EXPECT_EQ(DescribeForRecall(r),
            "tool cancel_order({\"order_id\":\"#W42\"}) → tool_error: 1 text, 80 bytes, 12 ms: order already shipped");
}

}  // namespace
}  // namespace engram::capture
