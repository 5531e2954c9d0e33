#include "runtime/timeline.h"

#include "platform/platform.h"

namespace shardlab {

namespace {
Timeline the_timeline;
}  // namespace

std::atomic<Timeline*> Timeline::armed_{nullptr};

void Timeline::arm() {
  for (Device& d : the_timeline.devices_) {
    d.spans.clear();
    d.dropped = 0;
    d.depth = 0;
  }
  armed_.store(&the_timeline, std::memory_order_release);
}

Recording Timeline::take() {
  armed_.store(nullptr, std::memory_order_release);
  Recording all;
  for (Device& d : the_timeline.devices_) {
    all.spans.insert(all.spans.end(), d.spans.begin(), d.spans.end());
    all.dropped += d.dropped;
    d.spans = {};
  }
  return all;
}

int64_t Timeline::begin(int d) {
  Device& dev = devices_[d];
  // Spans begun (the open ones are counted in depth) against the cap.
  if (dev.spans.size() + static_cast<size_t>(dev.depth) >= kMaxSpansPerDevice) {
    ++dev.dropped;
    return -1;
  }
  ++dev.depth;
  return platform::now_ns();
}

void Timeline::end(int d, SpanKind kind, int32_t index, const char* name, int64_t begin_ns) {
  Device& dev = devices_[d];
  const int32_t depth = dev.depth > 0 ? --dev.depth : 0;
  dev.spans.push_back(Span{d, kind, depth, index, name, begin_ns, platform::now_ns()});
}

}  // namespace shardlab
