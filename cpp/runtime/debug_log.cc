#include "runtime/debug_log.h"

#include <algorithm>

namespace shardlab {

DebugLog& DebugLog::instance() {
  static DebugLog log;
  return log;
}

void DebugLog::record(DebugRecord r) {
  size_t words = 0;
  for (const DebugValue& v : r.values) words += v.words.size();
  std::lock_guard<std::mutex> lock(mu_);
  if (words_ + words > kMaxWords) {
    ++dropped_;
    return;
  }
  words_ += words;
  const size_t slot = static_cast<size_t>(r.device + 1);
  if (counts_.size() <= slot) counts_.resize(slot + 1, {-1, 0});
  r.phase = phases_[slot];
  auto& [phase, count] = counts_[slot];
  if (phase != r.phase) phase = r.phase, count = 0;
  r.sequence = count++;
  records_.push_back(std::move(r));
}

std::vector<DebugRecord> DebugLog::take() {
  std::vector<DebugRecord> out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    out.swap(records_);
    counts_.clear();
    words_ = 0;
  }
  std::stable_sort(out.begin(), out.end(), [](const DebugRecord& a, const DebugRecord& b) {
    if (a.phase != b.phase) return a.phase < b.phase;
    return a.sequence != b.sequence ? a.sequence < b.sequence : a.device < b.device;
  });
  return out;
}

void DebugLog::set_phase(int device, int64_t eqn) { phases_[static_cast<size_t>(device + 1)] = eqn; }

int64_t DebugLog::take_dropped() {
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t n = dropped_;
  dropped_ = 0;
  return n;
}

}  // namespace shardlab
