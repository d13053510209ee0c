// HookSlots: a few plain function hooks on a hot path, each called in turn, nearly free when none
// is set.
//
// Semantically a HookSlots<Fn> is a small set of function pointers that a hot path (every
// allocation, every BLAS call) calls in the order they were added. Several watchers can hang off
// the same path at once: OPSCOPE_LOG=alloc and a trace recording memory; a trace recording stacks
// and a test's stack probe.
//
//   HookSlots<void (*)(int)> g_hooks;
//   g_hooks.add(&print_it);        // throws when all slots are taken
//   g_hooks.call(42);              // print_it(42)
//   g_hooks.remove(&print_it);
//
// In implementation terms: a fixed array of atomic pointers and an atomic count. With nothing
// set, call() is one relaxed load and a predicted branch. add / remove take a mutex; a hook being
// removed may still be called once by a thread already past the count check, so a hook must stay
// callable after removal (plain functions always are). The mutex is a leaf: it is taken with other
// locks held (the observer list's, the BLAS listeners') and nothing under it takes another lock,
// the GIL included (see Note [No Python object dies under a lock] in core/dispatch/Observer.cpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <mutex>

#include "core/runtime/Exception.h"

namespace opscope {

template <typename Fn, size_t N = 4>
class HookSlots {
 public:
  void add(Fn fn) {
    std::lock_guard lock(mutex_);
    for (std::atomic<Fn>& s : slots_) {
      if (s.load(std::memory_order_relaxed) == nullptr) {
        s.store(fn, std::memory_order_release);
        count_.fetch_add(1, std::memory_order_release);
        return;
      }
    }
    OPSCOPE_CHECK(false, "HookSlots: all ", N, " hook slots are in use");
  }

  // Removes one registration of fn (nothing if it was not added).
  void remove(Fn fn) {
    std::lock_guard lock(mutex_);
    for (std::atomic<Fn>& s : slots_) {
      if (s.load(std::memory_order_relaxed) == fn) {
        s.store(nullptr, std::memory_order_release);
        count_.fetch_sub(1, std::memory_order_release);
        return;
      }
    }
  }

  bool empty() const { return count_.load(std::memory_order_relaxed) == 0; }

  template <typename... Args>
  void call(const Args&... args) const {
    if (__builtin_expect(empty(), 1)) return;
    for (const std::atomic<Fn>& s : slots_)
      if (Fn fn = s.load(std::memory_order_acquire)) fn(args...);
  }

  // Copies the hooks set now into `out`; returns how many. For a caller that must call them from
  // its own frame (a hook capturing the stack then sees that caller as its caller).
  size_t load(Fn (&out)[N]) const {
    size_t n = 0;
    for (const std::atomic<Fn>& s : slots_)
      if (Fn fn = s.load(std::memory_order_acquire)) out[n++] = fn;
    return n;
  }

 private:
  std::atomic<Fn> slots_[N] = {};
  std::atomic<int> count_{0};
  std::mutex mutex_;
};

}  // namespace opscope
