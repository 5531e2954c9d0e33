// A list of dimension numbers, sizes or strides that keeps up to 8 entries
// inline. Evaluation rules build such lists for every equation on every
// device on every call; with std::vector each was a heap allocation (and in
// wasm a trip through the allocator's lock), which cost more than the
// arithmetic of a small array. Higher ranks still work, on the heap.
// Every operation is noexcept, and so are the layout helpers built on it
// (strides_of, block_index, strided_copy): with Emscripten's exception
// handling each call that may throw, made where a destructor is pending,
// goes out to JavaScript and back. The price is that running out of memory
// while copying a list of more than 8 entries terminates instead of throwing.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace shardlab {

/// A small vector of int64_t with 8 entries inline; see the file comment.
class Dims {
 public:
  /// An empty list.
  Dims() noexcept = default;
  /// `n` copies of `v`.
  Dims(size_t n, int64_t v) noexcept { resize(n, v); }
  /// The given entries.
  Dims(std::initializer_list<int64_t> v) noexcept { assign(v.begin(), v.end()); }
  /// A copy of a shape or other std::vector list.
  Dims(const std::vector<int64_t>& v) noexcept { assign(v.data(), v.data() + v.size()); }  // NOLINT: implicit on purpose
  /// A copy.
  Dims(const Dims& o) noexcept { assign(o.begin(), o.end()); }
  /// Becomes a copy of `o`.
  Dims& operator=(const Dims& o) noexcept {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }

  /// Number of entries.
  size_t size() const noexcept { return size_; }
  /// Whether there are no entries.
  bool empty() const noexcept { return size_ == 0; }
  /// The entries, contiguous.
  int64_t* data() noexcept { return heap_.empty() ? inline_ : heap_.data(); }
  /// The entries, contiguous.
  const int64_t* data() const noexcept { return heap_.empty() ? inline_ : heap_.data(); }
  /// Entry i.
  int64_t& operator[](size_t i) noexcept { return data()[i]; }
  /// Entry i.
  int64_t operator[](size_t i) const noexcept { return data()[i]; }
  /// Iteration over the entries.
  int64_t* begin() noexcept { return data(); }
  /// Iteration over the entries.
  int64_t* end() noexcept { return data() + size_; }
  /// Iteration over the entries.
  const int64_t* begin() const noexcept { return data(); }
  /// Iteration over the entries.
  const int64_t* end() const noexcept { return data() + size_; }

  /// Appends `v`.
  void push_back(int64_t v) noexcept { resize(size_ + 1, v); }
  /// Grows (new entries are `v`) or shrinks to `n` entries.
  void resize(size_t n, int64_t v = 0) noexcept {
    if (n > kInline && heap_.empty()) heap_.assign(inline_, inline_ + size_);
    if (!heap_.empty() || n > kInline) {
      heap_.resize(n, v);
    } else {
      std::fill(inline_ + std::min(size_, n), inline_ + n, v);
    }
    size_ = n;
  }
  /// Whether both hold the same entries.
  bool operator==(const Dims& o) const noexcept { return size_ == o.size_ && std::equal(begin(), end(), o.begin()); }
  /// Whether the entries differ.
  bool operator!=(const Dims& o) const noexcept { return !(*this == o); }
  /// The entries as a std::vector (a Shape).
  std::vector<int64_t> vec() const { return {begin(), end()}; }

 private:
  static constexpr size_t kInline = 8;

  void assign(const int64_t* first, const int64_t* last) noexcept {
    const size_t n = static_cast<size_t>(last - first);
    if (n > kInline) {
      heap_.assign(first, last);
    } else {
      heap_.clear();
      heap_.shrink_to_fit();
      std::copy(first, last, inline_);
    }
    size_ = n;
  }

  int64_t inline_[kInline] = {};
  size_t size_ = 0;
  std::vector<int64_t> heap_;  // used only beyond kInline entries
};

}  // namespace shardlab
