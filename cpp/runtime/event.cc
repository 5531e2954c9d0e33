#include "runtime/event.h"

namespace shardlab {

namespace {
std::atomic<int64_t> g_spin_budget_ns{2000};
}

void set_spin_budget_ns(int64_t ns) { g_spin_budget_ns.store(ns < 0 ? 0 : ns); }

int64_t spin_budget_ns() { return g_spin_budget_ns.load(std::memory_order_relaxed); }

}  // namespace shardlab
