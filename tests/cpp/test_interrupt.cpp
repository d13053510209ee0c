// The interrupt flag as the loops see it (Note [Interrupting long ops], core/runtime/Interrupt.cpp):
// parallel_for stops on a watched thread, runs to the end on an unwatched one, and the pieces
// it hands out still cover the range exactly once.
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "core/runtime/Interrupt.h"
#include "core/runtime/Parallel.h"

using namespace opscope;

namespace {

// Sets the flag and this thread's mark for a test; clears both after.
struct Flagged {
  bool previous;
  explicit Flagged(bool watched) : previous(set_interrupt_watched(watched)) { request_interrupt(); }
  ~Flagged() {
    clear_interrupt();
    set_interrupt_watched(previous);
  }
};

}  // namespace

TEST_CASE("parallel_for covers the range once, in pieces, when nothing interrupts") {
  const int64_t n = 100 * kGrainSize + 7;
  std::vector<std::atomic<int>> seen(static_cast<size_t>(n));
  std::atomic<int64_t> calls{0};
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    ++calls;
    CHECK(e - b <= kGrainSize * kInterruptGrains);
    for (int64_t i = b; i < e; ++i) seen[static_cast<size_t>(i)]++;
  });
  int64_t wrong = 0;
  for (auto& s : seen) wrong += s.load() != 1;
  CHECK(wrong == 0);
  CHECK(calls.load() >= n / (kGrainSize * kInterruptGrains));
}

TEST_CASE("a SIGINT stops parallel_for on the watched thread with Interrupted") {
  for (int threads : {1, 2}) {
    const int saved = get_num_threads();
    set_num_threads(threads);
    std::atomic<int64_t> done{0};
    {
      Flagged flag(/*watched=*/true);
      CHECK_THROWS_AS(parallel_for(0, 1000 * kGrainSize, kGrainSize,
                                   [&](int64_t b, int64_t e) { done += e - b; }),
                      Interrupted);
    }
    // At most one piece per thread ran before the look.
    CHECK(done.load() <= threads * kGrainSize * kInterruptGrains);
    set_num_threads(saved);
  }
}

TEST_CASE("work on an unwatched thread runs to the end under a SIGINT") {
  std::atomic<int64_t> done{0};
  Flagged flag(/*watched=*/false);
  CHECK_FALSE(interrupt_pending());
  parallel_for(0, 1000 * kGrainSize, kGrainSize, [&](int64_t b, int64_t e) { done += e - b; });
  CHECK(done.load() == 1000 * kGrainSize);
}

TEST_CASE("no SIGINT, no throw; a cleared flag is forgotten") {
  CHECK_FALSE(interrupt_requested());
  CHECK_NOTHROW(check_interrupt());
  {
    Flagged flag(/*watched=*/true);
    CHECK(interrupt_pending());
    CHECK_THROWS_AS(check_interrupt(), Interrupted);
  }
  CHECK_FALSE(interrupt_pending());
}
