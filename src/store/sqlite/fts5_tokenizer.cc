#include "store/sqlite/fts5_tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "engram/options.h"
#include "store/sqlite/phrase_count_cache.h"
#include "store/sqlite/quoted_phrases.h"
#include "text/analyzer.h"
#include "text/dialogue_act.h"

namespace engram::sqlite {
namespace {

// ---------------------------------------------------------------------------------------------
// Tokenizer. FTS5 calls these through C function pointers, so no exception may escape.

struct EngramTokenizer {
  std::unique_ptr<text::Analyzer> analyzer;
};

int TokenizerCreate(void* /*context*/, const char** args, int num_args, Fts5Tokenizer** out) {
  try {
    TextAnalysis analysis = TextAnalysis::kFull;
    if (num_args > 1) return SQLITE_ERROR;
    if (num_args == 1) {
      if (std::strcmp(args[0], "full") == 0) {
        analysis = TextAnalysis::kFull;
      } else if (std::strcmp(args[0], "plain") == 0) {
        analysis = TextAnalysis::kPlain;
      } else {
        return SQLITE_ERROR;
      }
    }
    auto analyzer = text::Analyzer::Create(analysis);
    if (!analyzer) return SQLITE_ERROR;
    *out = reinterpret_cast<Fts5Tokenizer*>(new EngramTokenizer{std::move(*analyzer)});
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (...) {
    return SQLITE_ERROR;
  }
}

void TokenizerDelete(Fts5Tokenizer* tokenizer) {
  delete reinterpret_cast<EngramTokenizer*>(tokenizer);
}

int TokenizerTokenize(Fts5Tokenizer* tokenizer, void* context, int flags, const char* text,
                      int num_bytes,
                      int (*emit)(void* context, int token_flags, const char* token, int num_token,
                                  int start, int end)) {
  if (text == nullptr || num_bytes <= 0) return SQLITE_OK;
  try {
    auto* self = reinterpret_cast<EngramTokenizer*>(tokenizer);
    const text::TokenizeMode mode = (flags & FTS5_TOKENIZE_QUERY) != 0 ? text::TokenizeMode::kQuery
                                                                       : text::TokenizeMode::kIndex;
    int rc = SQLITE_OK;
    self->analyzer->Tokenize(std::string_view(text, static_cast<size_t>(num_bytes)), mode,
                             [&](std::string_view token, int start, int end, bool colocated) {
                               if (rc != SQLITE_OK) return;  // FTS5 asked to stop; skip the rest
                               rc = emit(context, colocated ? FTS5_TOKEN_COLOCATED : 0,
                                         token.data(), static_cast<int>(token.size()), start, end);
                             });
    return rc;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (...) {
    return SQLITE_ERROR;
  }
}

fts5_tokenizer kTokenizer = {TokenizerCreate, TokenizerDelete, TokenizerTokenize};

// ---------------------------------------------------------------------------------------------
// engram_bm25. Per-query statistics are computed on the first row and cached as FTS5 auxdata
// (which lives as long as the query's cursor), as FTS5's own bm25() does.

struct Bm25Stats {
  double avgdl = 1.0;
  std::vector<double> idf;  // per phrase
};

void DeleteBm25Stats(void* p) { delete static_cast<Bm25Stats*>(p); }

void DeletePhraseCountCache(void* p) { delete static_cast<PhraseCountCache*>(p); }

int CountRow(const Fts5ExtensionApi* /*api*/, Fts5Context* /*fts*/, void* user_data) {
  ++*static_cast<int64_t*>(user_data);
  return SQLITE_OK;
}

// Where a statement may memoise its phrases' row counts: the connection's cache, the table's
// name and the phrases of its MATCH expression (from the optional `table, match` arguments of
// engram_bm25 and engram_term_counts). `cache` is null when there is nothing to memoise.
struct PhraseMemo {
  PhraseCountCache* cache = nullptr;
  std::string_view table;
  std::vector<std::string_view> phrases;
};

// Takes the optional (table, match) arguments, args[first] and args[first + 1], when there are
// `first + 2` arguments (both null otherwise). False, with the SQL error "<function>: table and
// match must be text" set on `result`, when they are given but not both text.
bool TakeMemoArguments(const char* function, int num_args, sqlite3_value** args, int first,
                       sqlite3_context* result, sqlite3_value** table, sqlite3_value** match) {
  *table = num_args == first + 2 ? args[first] : nullptr;
  *match = num_args == first + 2 ? args[first + 1] : nullptr;
  if (*table == nullptr || (sqlite3_value_type(*table) == SQLITE_TEXT &&
                            sqlite3_value_type(*match) == SQLITE_TEXT)) {
    return true;
  }
  sqlite3_result_error(result, (std::string(function) + ": table and match must be text").c_str(),
                       -1);
  return false;
}

// The memo of a statement given the (table, match) arguments (both null when absent, else text:
// TakeMemoArguments). A match that is not a plain list of quoted phrases gets no cache.
PhraseMemo ReadPhraseMemo(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_value* table,
                          sqlite3_value* match) {
  PhraseMemo memo;
  if (table == nullptr || match == nullptr) return memo;
  auto text = [](sqlite3_value* v) {
    const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
    return std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(v)));
  };
  memo.table = text(table);
  if (QuotedPhrases(text(match), &memo.phrases) &&
      memo.phrases.size() == static_cast<size_t>(api->xPhraseCount(fts))) {
    memo.cache = static_cast<PhraseCountCache*>(api->xUserData(fts));
  }
  return memo;
}

// Rows of the table matching phrase `phrase`: from the memo when it has them, else counted
// (xQueryPhrase walks the phrase's whole doclist) and memoised. Returns an SQLite result code.
int PhraseRows(const Fts5ExtensionApi* api, Fts5Context* fts, int phrase, const PhraseMemo& memo,
               bool use_memo, int64_t* rows) {
  const std::string_view text = use_memo ? memo.phrases[phrase] : std::string_view();
  if (use_memo) {
    if (auto found = memo.cache->Find(memo.table, text)) {
      *rows = *found;
      return SQLITE_OK;
    }
  }
  *rows = 0;
  const int rc = api->xQueryPhrase(fts, phrase, rows, CountRow);
  if (rc == SQLITE_OK && use_memo) memo.cache->Put(memo.table, text, *rows);
  return rc;
}

// Returns the cached stats of the current query, computing them first if needed (with the
// connection's PhraseCountCache when `table` and `match` are given: TakeMemoArguments). Sets *rc.
Bm25Stats* GetBm25Stats(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_value* table,
                        sqlite3_value* match, int* rc) {
  auto* stats = static_cast<Bm25Stats*>(api->xGetAuxdata(fts, 0));
  if (stats != nullptr) return stats;

  auto owned = std::make_unique<Bm25Stats>();
  sqlite3_int64 num_rows = 0;
  sqlite3_int64 total_tokens = 0;
  *rc = api->xRowCount(fts, &num_rows);
  if (*rc == SQLITE_OK) *rc = api->xColumnTotalSize(fts, 0, &total_tokens);
  if (*rc != SQLITE_OK) return nullptr;
  if (num_rows > 0 && total_tokens > 0) {
    owned->avgdl = static_cast<double>(total_tokens) / static_cast<double>(num_rows);
  }
  const PhraseMemo memo = ReadPhraseMemo(api, fts, table, match);
  const bool use_memo = memo.cache != nullptr && memo.cache->Begin();
  const int num_phrases = api->xPhraseCount(fts);
  owned->idf.assign(num_phrases, 0.0);
  for (int i = 0; i < num_phrases; ++i) {
    int64_t hits = 0;
    *rc = PhraseRows(api, fts, i, memo, use_memo, &hits);
    if (*rc != SQLITE_OK) return nullptr;
    const double n = static_cast<double>(hits);
    const double big_n = static_cast<double>(num_rows);
    owned->idf[i] = std::log(1.0 + (big_n - n + 0.5) / (n + 0.5));
  }
  stats = owned.release();
  *rc = api->xSetAuxdata(fts, stats, DeleteBm25Stats);  // on failure SQLite deletes `stats`
  return *rc == SQLITE_OK ? stats : nullptr;
}

// Column 0's token count from a %_docsize.sz value. False when it is not such a blob.
bool DocSizeOfColumn0(sqlite3_value* sz, int* doc_len) {
  if (sqlite3_value_type(sz) != SQLITE_BLOB) return false;
  const auto* p = static_cast<const char*>(sqlite3_value_blob(sz));
  return ParseDocSizeColumn0(std::string_view(p, static_cast<size_t>(sqlite3_value_bytes(sz))),
                             doc_len);
}

// Instances of phrase `phrase` in column 0 of the current row (walking the phrase's own position
// list is cheaper than xInstCount/xInst, which first merge every phrase's instances into one
// array). Returns an SQLite result code.
int PhraseHitsInColumn0(const Fts5ExtensionApi* api, Fts5Context* fts, int phrase, int* tf) {
  Fts5PhraseIter iter;
  int column = 0;
  int offset = 0;
  const int rc = api->xPhraseFirst(fts, phrase, &iter, &column, &offset);
  if (rc != SQLITE_OK) return rc;
  *tf = 0;
  for (; column >= 0; api->xPhraseNext(fts, &iter, &column, &offset)) {
    if (column == 0) ++*tf;
  }
  return SQLITE_OK;
}

// What BM25 needs of the current row: the call's k1 and b, the query's stats, the row's length.
struct Bm25Row {
  double k1 = 1.2;
  double b = 0.75;
  Bm25Stats* stats = nullptr;
  int doc_len = 0;
};

// Reads the arguments `(k1, b [, docsize [, table, match]])` of `function` (engram_bm25 or
// engram_bm25_shares) for the current row. False, with the error set on `result`, when they are
// wrong or SQLite fails.
bool ReadBm25Row(const char* function, const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* result,
                 int num_args, sqlite3_value** args, Bm25Row* row) {
  if (num_args > 5 || num_args == 4) {
    sqlite3_result_error(result, (std::string(function) + ": expected at most 3 arguments (k1, b, docsize) or 5 (… table, match)").c_str(),
                         -1);
    return false;
  }
  sqlite3_value* table = nullptr;
  sqlite3_value* match = nullptr;
  if (!TakeMemoArguments(function, num_args, args, 3, result, &table, &match)) return false;
  if (num_args >= 1 && sqlite3_value_type(args[0]) != SQLITE_NULL) row->k1 = sqlite3_value_double(args[0]);
  if (num_args >= 2 && sqlite3_value_type(args[1]) != SQLITE_NULL) row->b = sqlite3_value_double(args[1]);
  if (!(row->k1 >= 0.0) || !(row->b >= 0.0 && row->b <= 1.0)) {
    sqlite3_result_error(result, (std::string(function) + ": need k1 >= 0 and 0 <= b <= 1").c_str(), -1);
    return false;
  }
  int rc = SQLITE_OK;
  row->stats = GetBm25Stats(api, fts, table, match, &rc);
  if (num_args >= 3) {
    // The caller joined the row's <table>_docsize.sz: reading dl from it saves xColumnSize's
    // nested SQL lookup of the same value, which costs more than the rest of this function.
    if (!DocSizeOfColumn0(args[2], &row->doc_len)) {
      sqlite3_result_error(result, (std::string(function) + ": docsize must be the row's %_docsize.sz").c_str(), -1);
      return false;
    }
  } else if (rc == SQLITE_OK) {
    rc = api->xColumnSize(fts, 0, &row->doc_len);
  }
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(result, rc);
    return false;
  }
  return true;
}

// Each phrase's share of the row's BM25 score (fts5_tokenizer.h), in phrase order, into
// shares[0..n): idf · tf · (k1 + 1) / (tf + norm), 0 for a phrase the row lacks. Returns an
// SQLite result code.
int Bm25Shares(const Fts5ExtensionApi* api, Fts5Context* fts, const Bm25Row& row, double* shares) {
  const double norm = row.k1 * (1.0 - row.b + row.b * static_cast<double>(row.doc_len) / row.stats->avgdl);
  for (size_t i = 0; i < row.stats->idf.size(); ++i) {
    int tf = 0;
    const int rc = PhraseHitsInColumn0(api, fts, static_cast<int>(i), &tf);
    if (rc != SQLITE_OK) return rc;
    shares[i] = tf > 0 ? row.stats->idf[i] * tf * (row.k1 + 1.0) / (tf + norm) : 0.0;
  }
  return SQLITE_OK;
}

// Calls `use(shares, n)` with the current row's Bm25Shares (on the stack for up to 64 phrases: no
// allocation per row), or sets the error on `result`.
template <typename Use>
void WithBm25Shares(const char* function, const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* result,
                    int num_args, sqlite3_value** args, Use use) {
  try {
    Bm25Row row;
    if (!ReadBm25Row(function, api, fts, result, num_args, args, &row)) return;
    const size_t n = row.stats->idf.size();
    constexpr size_t kStackPhrases = 64;
    double stack_shares[kStackPhrases];
    std::vector<double> heap_shares;
    double* shares = stack_shares;
    if (n > kStackPhrases) {
      heap_shares.resize(n);
      shares = heap_shares.data();
    }
    const int rc = Bm25Shares(api, fts, row, shares);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(result, rc);
      return;
    }
    use(shares, n);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(result);
  } catch (...) {
    sqlite3_result_error(result, (std::string(function) + ": internal error").c_str(), -1);
  }
}

// engram_bm25: the sum of the row's shares, in phrase order from 0.
void Bm25Function(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* result, int num_args,
                  sqlite3_value** args) {
  WithBm25Shares("engram_bm25", api, fts, result, num_args, args, [&](const double* shares, size_t n) {
    double score = 0.0;
    for (size_t i = 0; i < n; ++i) score += shares[i];
    sqlite3_result_double(result, score);
  });
}

// engram_bm25_shares: the row's shares as a blob of n native doubles.
void Bm25SharesFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* result, int num_args,
                        sqlite3_value** args) {
  WithBm25Shares("engram_bm25_shares", api, fts, result, num_args, args, [&](const double* shares, size_t n) {
    sqlite3_result_blob(result, shares, static_cast<int>(n * sizeof(double)), SQLITE_TRANSIENT);
  });
}

// engram_term_counts(tbl, docsize [, table, match]): what the engine's own scorers need of a
// matching row, as a blob (layout in fts5_tokenizer.h, kTermCountsHeader…): the phrase count n,
// the row's length, the table's average length, each phrase's idf (the same as engram_bm25's) and
// each phrase's count in the row.
void TermCountsFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* result,
                        int num_args, sqlite3_value** args) {
  try {
    if (num_args != 1 && num_args != 3) {
      sqlite3_result_error(
          result, "engram_term_counts: expected 1 argument (docsize) or 3 (docsize, table, match)",
          -1);
      return;
    }
    sqlite3_value* table = nullptr;
    sqlite3_value* match = nullptr;
    if (!TakeMemoArguments("engram_term_counts", num_args, args, 1, result, &table, &match)) {
      return;
    }
    int doc_len = 0;
    if (!DocSizeOfColumn0(args[0], &doc_len)) {
      sqlite3_result_error(result, "engram_term_counts: docsize must be the row's %_docsize.sz",
                           -1);
      return;
    }
    int rc = SQLITE_OK;
    Bm25Stats* stats = GetBm25Stats(api, fts, table, match, &rc);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(result, rc);
      return;
    }
    const uint32_t n = static_cast<uint32_t>(stats->idf.size());
    // One call per matching row: a query of up to kStackPhrases phrases builds its blob on the
    // stack (no allocation per row).
    constexpr uint32_t kStackPhrases = 64;
    unsigned char stack_blob[TermCountsBlobSize(kStackPhrases)];
    std::vector<unsigned char> heap_blob;
    unsigned char* blob = stack_blob;
    const size_t blob_size = TermCountsBlobSize(n);
    if (n > kStackPhrases) {
      heap_blob.resize(blob_size);
      blob = heap_blob.data();
    }
    TermCountsHeader header{n, static_cast<uint32_t>(doc_len), static_cast<float>(stats->avgdl)};
    std::memcpy(blob, &header, sizeof header);
    unsigned char* p = blob + sizeof header;
    for (uint32_t i = 0; i < n; ++i) {
      const float idf = static_cast<float>(stats->idf[i]);
      std::memcpy(p + 4 * i, &idf, 4);
    }
    p += 4 * n;
    for (uint32_t i = 0; i < n; ++i) {
      int tf = 0;
      rc = PhraseHitsInColumn0(api, fts, static_cast<int>(i), &tf);
      if (rc != SQLITE_OK) {
        sqlite3_result_error_code(result, rc);
        return;
      }
      const uint16_t clamped = static_cast<uint16_t>(std::min(tf, 65535));
      std::memcpy(p + 2 * i, &clamped, 2);
    }
    sqlite3_result_blob(result, blob, static_cast<int>(blob_size), SQLITE_TRANSIENT);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(result);
  } catch (...) {
    sqlite3_result_error(result, "engram_term_counts: internal error", -1);
  }
}

// The fts5_api of `db`, or null when FTS5 is missing.
fts5_api* GetFts5Api(sqlite3* db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, nullptr) != SQLITE_OK) {
    return nullptr;
  }
  sqlite3_bind_pointer(stmt, 1, &api, "fts5_api_ptr", nullptr);
  sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  return api;
}

}  // namespace

bool ParseDocSizeColumn0(std::string_view blob, int* doc_len) {
  const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
  uint64_t v = 0;
  for (size_t i = 0; i < blob.size() && i < 5; ++i) {
    v = (v << 7) | (p[i] & 0x7f);
    if ((p[i] & 0x80) == 0) {
      if (v > INT32_MAX) return false;
      *doc_len = static_cast<int>(v);
      return true;
    }
  }
  return false;
}

namespace {

// engram_asks_question(text) → 1 when text::AsksQuestion(text), else 0 (NULL → 0): the reply
// channel's "this event asks something" (store/sqlite/event_store.h, NeighbourRow).
void AsksQuestionFunction(sqlite3_context* ctx, int /*argc*/, sqlite3_value** argv) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  const int bytes = sqlite3_value_bytes(argv[0]);
  sqlite3_result_int(ctx, text != nullptr && text::AsksQuestion(std::string_view(text, static_cast<size_t>(bytes))) ? 1 : 0);
}

}  // namespace

Status RegisterFts5Extensions(sqlite3* db) {
  if (db == nullptr) return Status::InvalidArgument("RegisterFts5Extensions: null connection");
  fts5_api* api = GetFts5Api(db);
  if (api == nullptr) return Status::Internal("SQLite has no FTS5 (SELECT fts5(?1) failed)");
  if (api->iVersion < 2) {
    return Status::Internal("FTS5 api version " + std::to_string(api->iVersion) + " < 2");
  }
  int rc = api->xCreateTokenizer(api, "engram", nullptr, &kTokenizer, nullptr);
  if (rc != SQLITE_OK) {
    return Status::Internal(std::string("registering FTS5 tokenizer engram: ") +
                            sqlite3_errstr(rc));
  }
  // One memo of phrase row counts per connection, shared by both functions; FTS5 deletes it
  // (through engram_term_counts' destructor) when the connection closes.
  auto* phrase_counts = new PhraseCountCache(db);
  rc = api->xCreateFunction(api, "engram_term_counts", phrase_counts, TermCountsFunction,
                            DeletePhraseCountCache);
  if (rc != SQLITE_OK) {
    delete phrase_counts;  // FTS5 did not take it
    return Status::Internal(std::string("registering FTS5 function engram_term_counts: ") +
                            sqlite3_errstr(rc));
  }
  const std::pair<const char*, fts5_extension_function> ranking[] = {{"engram_bm25", Bm25Function},
                                                                      {"engram_bm25_shares", Bm25SharesFunction}};
  for (const auto& [name, function] : ranking) {
    rc = api->xCreateFunction(api, name, phrase_counts, function, nullptr);
    if (rc != SQLITE_OK) {
      return Status::Internal(std::string("registering FTS5 function ") + name + ": " + sqlite3_errstr(rc));
    }
  }
  rc = sqlite3_create_function_v2(db, "engram_asks_question", 1,
                                  SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nullptr,
                                  AsksQuestionFunction, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return Status::Internal(std::string("registering SQL function engram_asks_question: ") +
                            sqlite3_errstr(rc));
  }
  return Status::Ok();
}

}  // namespace engram::sqlite
