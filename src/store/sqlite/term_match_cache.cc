#include "store/sqlite/term_match_cache.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "store/sqlite/quoted_phrases.h"

namespace engram::sqlite {
namespace {

// The row of `filter`'s session and time range.
bool InFilter(const SearchFilter& filter, int64_t session_rowid, TimestampMs occurred_at) {
  return (!filter.session_rowid || session_rowid == *filter.session_rowid) &&
         (!filter.since || occurred_at >= *filter.since) && (!filter.until || occurred_at < *filter.until);
}

}  // namespace

std::optional<std::vector<std::string_view>> OrPhrases(std::string_view match) {
  std::vector<std::string_view> phrases;
  if (!QuotedPhrases(match, &phrases)) return std::nullopt;
  // QuotedPhrases accepts " OR " and " AND " joiners; the expression is all-OR exactly when its
  // length is that of its quoted phrases and n - 1 joiners of 4 characters (" AND " has 5).
  size_t length = 4 * (phrases.size() - 1);
  for (std::string_view p : phrases) length += p.size() + 2;
  if (length != match.size()) return std::nullopt;
  return phrases;
}

std::string OrOfPhrases(const std::vector<std::string_view>& phrases) {
  std::string match;
  for (std::string_view p : phrases) {
    if (!match.empty()) match += " OR ";
    match.append("\"").append(p).append("\"");
  }
  return match;
}

std::vector<std::string_view> DistinctMissing(const std::vector<std::string_view>& phrases,
                                              const std::function<bool(std::string_view)>& held) {
  std::vector<std::string_view> missing;
  for (std::string_view p : phrases) {
    if (!held(p) && std::find(missing.begin(), missing.end(), p) == missing.end()) missing.push_back(p);
  }
  return missing;
}

void TermMatchCache::Clear() {
  phrases_.clear();
  speakers_.clear();
  speaker_ids_.clear();
  too_large_.clear();
  ranges_.clear();
  avg_length_ = 1.0;
  rows_ = 0;
}

const TermMatchCache::SeqRange* TermMatchCache::NamespaceRange(int64_t namespace_id) const {
  auto it = ranges_.find(namespace_id);
  return it == ranges_.end() ? nullptr : &it->second;
}

const std::string& TermMatchCache::Key(int64_t namespace_id, std::string_view phrase) const {
  key_.assign(reinterpret_cast<const char*>(&namespace_id), sizeof namespace_id);
  key_.append(phrase);
  return key_;
}

const TermMatchCache::Phrase* TermMatchCache::Find(int64_t namespace_id, std::string_view phrase) const {
  auto it = phrases_.find(Key(namespace_id, phrase));
  return it == phrases_.end() ? nullptr : &it->second;
}

uint32_t TermMatchCache::SpeakerId(const std::string& speaker) {
  auto [it, added] = speaker_ids_.try_emplace(speaker, static_cast<uint32_t>(speakers_.size()));
  if (added) speakers_.push_back(speaker);
  return it->second;
}

std::optional<std::vector<const TermMatchCache::Phrase*>> TermMatchCache::Lists(
    int64_t namespace_id, const std::vector<std::string_view>& phrases) const {
  std::vector<const Phrase*> lists;
  lists.reserve(phrases.size());
  for (std::string_view p : phrases) {
    const Phrase* found = Find(namespace_id, p);
    if (found == nullptr) return std::nullopt;
    lists.push_back(found);
  }
  return lists;
}

template <typename Emit>
void TermMatchCache::MergeRows(const std::vector<const Phrase*>& lists, int64_t after_seq, Emit&& emit) {
  const size_t n = lists.size();
  std::vector<size_t> at(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<Row>& rows = lists[i]->rows;
    at[i] = static_cast<size_t>(std::upper_bound(rows.begin(), rows.end(), after_seq,
                                                 [](int64_t seq, const Row& r) { return seq < r.seq; }) -
                                rows.begin());
  }
  std::vector<uint16_t> tf(n);
  // A k-way merge by seq: FTS5's order. Each merged row takes its count of every phrase.
  while (true) {
    int64_t seq = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < n; ++i) {
      if (at[i] < lists[i]->rows.size()) seq = std::min(seq, lists[i]->rows[at[i]].seq);
    }
    if (seq == std::numeric_limits<int64_t>::max()) return;
    const Row* row = nullptr;
    for (size_t i = 0; i < n; ++i) {
      tf[i] = 0;
      if (at[i] >= lists[i]->rows.size() || lists[i]->rows[at[i]].seq != seq) continue;
      row = &lists[i]->rows[at[i]++];
      tf[i] = row->tf;
    }
    if (!emit(*row, tf)) return;
  }
}

std::optional<TermMatchSet> TermMatchCache::Match(const std::vector<std::string_view>& phrases,
                                                  const SearchFilter& filter, size_t max_rows) const {
  const auto lists = Lists(filter.namespace_id, phrases);
  if (!lists) return std::nullopt;
  const size_t n = lists->size();
  TermMatchSet out;
  size_t most = 0;  // rows of every list: at least the merged rows
  for (const Phrase* p : *lists) most += p->rows.size();
  most = std::min(most, max_rows);
  out.rows.reserve(most);
  out.tf.reserve(most * n);
  MergeRows(*lists, std::numeric_limits<int64_t>::min(), [&](const Row& row, const std::vector<uint16_t>& tf) {
    if (out.rows.size() >= max_rows) return false;
    if (!InFilter(filter, row.session_rowid, row.occurred_at)) return true;
    out.tf.insert(out.tf.end(), tf.begin(), tf.end());
    TermMatchRow& r = out.rows.emplace_back();
    r.seq = row.seq;
    r.session_rowid = row.session_rowid;
    r.occurred_at = row.occurred_at;
    r.speaker = speakers_[row.speaker];
    r.doc_length = row.doc_length;
    return true;
  });
  out.stopped_at_max = out.rows.size() >= max_rows;
  if (!out.rows.empty()) {
    out.idf.reserve(n);
    for (const Phrase* p : *lists) out.idf.push_back(p->idf);
    out.avg_length = avg_length_;
  }
  return out;
}

std::optional<TermPostings> TermMatchCache::Postings(const std::vector<std::string_view>& phrases,
                                                     int64_t namespace_id, int64_t after_seq, int64_t last_seq,
                                                     size_t max_rows) const {
  const auto lists = Lists(namespace_id, phrases);
  if (!lists) return std::nullopt;
  TermPostings out;
  MergeRows(*lists, after_seq, [&](const Row& row, const std::vector<uint16_t>& tf) {
    if (out.seqs.size() >= max_rows || row.seq > last_seq) return false;
    out.seqs.push_back(row.seq);
    out.doc_lengths.push_back(row.doc_length);
    out.tf.insert(out.tf.end(), tf.begin(), tf.end());
    return true;
  });
  if (!out.seqs.empty()) {  // as MatchPostings: the statistics come with the first row
    out.phrases = static_cast<uint32_t>(lists->size());
    for (const Phrase* p : *lists) out.idf.push_back(p->idf);
    out.avg_length = avg_length_;
  }
  return out;
}

std::vector<std::string_view> TermMatchCache::Missing(int64_t namespace_id,
                                                      const std::vector<std::string_view>& phrases) const {
  return DistinctMissing(phrases, [&](std::string_view p) { return Find(namespace_id, p) != nullptr; });
}

void TermMatchCache::Remember(int64_t namespace_id, const std::vector<std::string_view>& phrases,
                              const TermMatchSet& all) {
  if (all.rows.empty() || all.stopped_at_max || all.idf.size() != phrases.size()) return;
  // Every row matched by some phrase (FTS5 has one column): a row without a count would be lost
  // by the merge, so such a set is not memoised.
  size_t adding = 0;
  for (size_t r = 0; r < all.rows.size(); ++r) {
    size_t held = 0;
    for (size_t i = 0; i < phrases.size(); ++i) held += all.Tf(r)[i] > 0 ? 1 : 0;
    if (held == 0) return;
    adding += held;
  }
  for (std::string_view p : phrases) adding += EntryUnits(p);
  if (adding > kMaxRows) return;
  MakeRoom(adding);
  avg_length_ = all.avg_length;
  std::vector<uint32_t> speaker(all.rows.size());
  for (size_t r = 0; r < all.rows.size(); ++r) speaker[r] = SpeakerId(all.rows[r].speaker);
  for (size_t i = 0; i < phrases.size(); ++i) {
    if (Find(namespace_id, phrases[i]) != nullptr) continue;  // a phrase given twice, or memoised before
    // Built whole before it is inserted: an allocation failure never leaves a phrase with part
    // of its rows in the memo.
    Phrase phrase;
    phrase.idf = all.idf[i];
    for (size_t r = 0; r < all.rows.size(); ++r) {
      const uint16_t tf = all.Tf(r)[i];
      if (tf == 0) continue;
      const TermMatchRow& m = all.rows[r];
      phrase.rows.push_back({m.seq, m.session_rowid, m.occurred_at, speaker[r], m.doc_length, tf});
    }
    phrase.rows.shrink_to_fit();
    const size_t units = phrase.rows.size() + EntryUnits(phrases[i]);
    phrases_.emplace(Key(namespace_id, phrases[i]), std::move(phrase));
    rows_ += units;
  }
}

void TermMatchCache::RememberAbsent(int64_t namespace_id, std::string_view phrase, double idf) {
  if (Find(namespace_id, phrase) != nullptr) return;
  const size_t units = EntryUnits(phrase);
  MakeRoom(units);
  phrases_.emplace(Key(namespace_id, phrase), Phrase{idf, {}});
  rows_ += units;
}

size_t TermMatchCache::EntryUnits(std::string_view phrase) {
  // An entry's key, its Phrase and its hash node (about 100 bytes with a short key), counted in
  // rows of 40 bytes, so that phrases without rows also fill the memo.
  return 3 + phrase.size() / sizeof(Row);
}

void TermMatchCache::MakeRoom(size_t adding) {
  if (rows_ + adding <= kMaxRows) return;
  phrases_.clear();
  speakers_.clear();
  speaker_ids_.clear();
  rows_ = 0;
}

}  // namespace engram::sqlite
