#include "recall/seq_index.h"

#include <utility>

namespace engram {
namespace {

constexpr size_t kMinSlots = 16;

// Fibonacci hashing: consecutive seqs (the usual keys) spread over the table.
size_t Mix(int64_t seq) { return static_cast<size_t>(static_cast<uint64_t>(seq) * 0x9E3779B97F4A7C15ull); }

}  // namespace

SeqIndex::SeqIndex(size_t expected) {
  size_t slots = kMinSlots;
  while (slots < 2 * expected) slots *= 2;
  slots_.resize(slots);
}

size_t SeqIndex::SlotOf(int64_t seq) const {
  const size_t mask = slots_.size() - 1;
  size_t i = (Mix(seq) >> 16) & mask;
  while (slots_[i].used && slots_[i].seq != seq) i = (i + 1) & mask;
  return i;
}

const size_t* SeqIndex::Find(int64_t seq) const {
  const Slot& s = slots_[SlotOf(seq)];
  return s.used ? &s.index : nullptr;
}

bool SeqIndex::Insert(int64_t seq, size_t index) {
  if (2 * (size_ + 1) > slots_.size()) Grow();
  Slot& s = slots_[SlotOf(seq)];
  if (s.used) return false;
  s = {seq, index, true};
  ++size_;
  return true;
}

void SeqIndex::Grow() {
  std::vector<Slot> old(slots_.size() * 2);
  old.swap(slots_);
  for (const Slot& s : old) {
    if (s.used) slots_[SlotOf(s.seq)] = s;
  }
}

}  // namespace engram
