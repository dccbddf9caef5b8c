// recall/seq_index.h — a map from event seq to a position in a candidate list, for the hot loops
// of recall (ScoreTurns): open addressing in one array, so an insert allocates nothing but the
// array's occasional doubling (std::unordered_map allocates a node per entry, which was 2–3 % of a
// recall's instructions).
#ifndef ENGRAM_RECALL_SEQ_INDEX_H_
#define ENGRAM_RECALL_SEQ_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace engram {

// seq → index. Not thread-safe (one recall owns one).
class SeqIndex {
 public:
  // Room for `expected` entries before the first growth.
  explicit SeqIndex(size_t expected = 0);

  // The index stored for `seq`, or nullptr when there is none. The pointer stays valid until the
  // next Insert.
  const size_t* Find(int64_t seq) const;
  // Stores seq → index unless seq is already there (then nothing changes, as
  // std::unordered_map::emplace). Returns whether it was stored.
  bool Insert(int64_t seq, size_t index);
  // Entries stored.
  size_t size() const { return size_; }

 private:
  struct Slot {
    int64_t seq = 0;
    size_t index = 0;
    bool used = false;
  };
  size_t SlotOf(int64_t seq) const;  // the slot holding seq, or the empty one where it would go
  void Grow();

  std::vector<Slot> slots_;  // a power of two, at most half full
  size_t size_ = 0;
};

}  // namespace engram

#endif  // ENGRAM_RECALL_SEQ_INDEX_H_
