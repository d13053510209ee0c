// The trace recorder (profiler/Recorder.h) and op hooks (profiler/Hooks.h) from C++: a recorder
// sees allocations inside the op that made them and user scopes around the steps, and feeds
// OPSCOPE_LOG=dispatch's text (StepLog) without keeping anything; hooks see each op call once
// (its redispatches are the same call), nested calls in order, not the ops they run themselves,
// and a throwing op's exit; HookSlots take several hooks and refuse one too many.
#include <doctest/doctest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "core/dispatch/Observer.h"
#include "core/ops/binary.h"
#include "core/ops/factories.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"
#include "core/runtime/HookSlots.h"
#include "profiler/Hooks.h"
#include "profiler/Recorder.h"

using namespace opscope;
using profiler::Event;
using profiler::EventKind;

namespace {

std::vector<std::string> kinds(const profiler::Recording& recording) {
  std::vector<std::string> out;
  for (size_t i = 0; i < recording.events.size(); ++i) {
    const Event& e = recording.events[i];
    switch (e.kind) {
      case EventKind::Enter:
        out.push_back("enter " + e.op.full_name() + "[" + std::string(to_string(e.chosen)) + "]");
        break;
      case EventKind::Exit:
        out.push_back("exit");
        break;
      case EventKind::Alloc:
        out.push_back("alloc " + std::to_string(e.bytes));
        break;
      case EventKind::Free:
        out.push_back("free " + std::to_string(e.bytes));
        break;
      case EventKind::ScopeBegin:
        out.push_back("scope " + recording.detail_of(e)->name);
        break;
      case EventKind::ScopeEnd:
        out.push_back("end " + recording.detail_of(e)->name);
        break;
      default:
        out.push_back("other");
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a recorder sees the allocation inside the op and the scope around it") {
  Tensor a = ops::ones({4});
  auto r = std::make_shared<profiler::TraceRecorder>();
  r->start(r);
  {
    RecordScope scope("block");
    Tensor b = ops::add(a, a);
  }
  r->stop();
  std::vector<std::string> got = kinds(r->take());
  CHECK(got == std::vector<std::string>{"scope block", "enter aten::add.Tensor[AutogradCPU]",
                                        "enter aten::add.Tensor[CPU]", "alloc 16", "exit", "exit",
                                        "free 16", "end block"});
}

TEST_CASE("nothing is recorded once the recorder stopped, and memory can be left out") {
  auto r = std::make_shared<profiler::TraceRecorder>(profiler::RecorderOptions{false, false});
  r->start(r);
  Tensor b = ops::ones({8});
  r->stop();
  Tensor c = ops::ones({8});
  std::vector<std::string> got = kinds(r->take());
  CHECK(got == std::vector<std::string>{"enter aten::ones[BackendSelect]", "enter aten::ones[CPU]",
                                        "exit", "exit"});
}

TEST_CASE("OPSCOPE_LOG=dispatch's text comes from a recorder's events, which it need not keep") {
  Tensor a = ops::ones({2, 3});
  std::string text;
  profiler::RecorderOptions options;
  options.memory = false;
  options.keep = false;
  auto log = std::make_shared<profiler::StepLog>();
  options.sink = [&](const profiler::Recording& r, const Event& e) { text += log->lines(r, e); };
  auto r = std::make_shared<profiler::TraceRecorder>(std::move(options));
  r->start(r);
  Tensor b = ops::add(a, a);
  CHECK_THROWS(ops::add(a, ops::ones({4})));
  r->stop();
  CHECK(r->take().events.empty());
  // The op's step, its keys (> chosen, * fallthrough), arguments with their keys, TLS sets.
  const std::string add = "] op=[aten::add.Tensor], key=[AutogradCPU]  kernel: ";
  CHECK(text.rfind("[call", 0) == 0);
  CHECK(text.find(add) < text.find('\n'));
  CHECK(text.find("\n    keys: (CPU, BackendSelect*, ADInplaceOrView*, >AutogradCPU)\n") !=
        std::string::npos);
  const std::string args =
      "args: self=f32[2, 3] (CPU, ADInplaceOrView, AutogradCPU); other=f32[2, 3]";
  CHECK(text.find("\n    " + args) != std::string::npos);
  CHECK(text.find("\n    tls: included (BackendSelect, ADInplaceOrView) excluded ()\n") !=
        std::string::npos);
  // Its redispatch to the CPU, indented, with the op's arguments (the recording keeps them with
  // the first step only); the failing call's steps end in "(threw)".
  CHECK(text.find("\n  [redispatch") != std::string::npos);
  CHECK(text.find("] op=[aten::add.Tensor], key=[CPU]  kernel: ") != std::string::npos);
  CHECK(text.find("\n      " + args) != std::string::npos);
  CHECK(text.find("  (threw)\n") != std::string::npos);

  // set_dispatch_log: the same text, written to a descriptor as the steps are recorded.
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  profiler::set_dispatch_log(true, fds[1]);
  Tensor c = ops::add(a, a);
  profiler::set_dispatch_log(false);
  Tensor unseen = ops::add(a, a);
  close(fds[1]);
  std::string written;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) written.append(buf, n);
  close(fds[0]);
  CHECK(written.rfind("[call", 0) == 0);
  CHECK(written.find(add) < written.find('\n'));
  CHECK(written.find(add, written.find(add) + 1) == std::string::npos);  // once only
  CHECK(written.find("\n      " + args) != std::string::npos);
}

TEST_CASE("op hooks: one call per op, nested in order, not the hook's own ops") {
  std::vector<std::string> seen;
  Tensor a = ops::ones({2});
  profiler::OpHookHandle h = profiler::add_op_hook(
      [&](const profiler::OpCall& c) {
        CHECK(profiler::in_op_hook());
        seen.push_back("> " + c.op->full_name() + " " + std::to_string(c.inputs->size()));
        Tensor unseen = ops::mul(a, a);  // the hook's own op: not reported
      },
      [&](const profiler::OpCall& c) {
        seen.push_back("< " + c.op->full_name() + (c.outputs ? " ok" : " threw"));
      });
  Tensor b = ops::add(a, a);
  CHECK_THROWS(ops::add(a, ops::ones({3})));
  h.remove();
  Tensor c = ops::add(a, a);
  CHECK(seen == std::vector<std::string>{"> aten::add.Tensor 3", "< aten::add.Tensor ok",
                                         "> aten::ones 5", "< aten::ones ok",
                                         "> aten::add.Tensor 3", "< aten::add.Tensor threw"});
  CHECK_FALSE(profiler::in_op_hook());
}

namespace {
int g_calls = 0;
void hook_a(int x) {
  g_calls += x;
}
void hook_b(int x) {
  g_calls += 10 * x;
}
}  // namespace

TEST_CASE("HookSlots: several hooks in order, removal, and a clear error when full") {
  HookSlots<void (*)(int), 2> slots;
  CHECK(slots.empty());
  slots.call(1);
  CHECK(g_calls == 0);
  slots.add(&hook_a);
  slots.add(&hook_b);
  slots.call(1);
  CHECK(g_calls == 11);
  CHECK_THROWS_WITH(slots.add(&hook_a), doctest::Contains("all 2 hook slots are in use"));
  slots.remove(&hook_a);
  slots.call(1);
  CHECK(g_calls == 21);
  slots.remove(&hook_b);
  CHECK(slots.empty());
}

TEST_CASE("a hook that refuses an op: the call throws, and a recorder sees the step close") {
  auto r = std::make_shared<profiler::TraceRecorder>(profiler::RecorderOptions{false, false});
  r->start(r);
  Tensor a = ops::ones({2});
  {
    profiler::OpHookHandle h = profiler::add_op_hook(
        [](const profiler::OpCall& c) {
          if (c.op->full_name() == "aten::neg") throw std::runtime_error("no neg here");
        },
        nullptr);
    CHECK_THROWS_WITH(ops::neg(a), "no neg here");
  }
  r->stop();
  profiler::Recording rec = r->take();
  int open = 0;
  for (size_t i = 0; i < rec.events.size(); ++i) {
    const Event& e = rec.events[i];
    if (e.kind == EventKind::Enter) ++open;
    if (e.kind == EventKind::Exit) --open;
    if (e.kind == EventKind::Exit && i + 1 == rec.events.size()) CHECK(e.threw);
  }
  CHECK(open == 0);
}

TEST_CASE("a bounded recorder keeps whole items up to its bound and counts the rest") {
  Tensor a = ops::ones({4});
  profiler::RecorderOptions options;
  options.memory = false;
  options.max_events = 10;  // an add is 4 events (enter, redispatch, exit, exit)
  auto r = std::make_shared<profiler::TraceRecorder>(options);
  r->start(r);
  for (int i = 0; i < 5; ++i) Tensor b = ops::add(a, a);
  r->stop();
  profiler::Recording rec = r->take();
  CHECK(rec.events.size() == 12);  // three whole adds: the third began below the bound
  CHECK(r->dropped_items() == 2);
  CHECK(r->dropped_ns() > 0);
  profiler::ItemGroups g = profiler::group_items(rec, 100);
  CHECK(g.item_count == 3);
}

TEST_CASE("group_items: one group per way the items ran, in order of first appearance") {
  Tensor a = ops::ones({4}), b = ops::ones({2, 2});
  auto r = std::make_shared<profiler::TraceRecorder>(profiler::RecorderOptions{false, false});
  r->start(r);
  for (int i = 0; i < 3; ++i) {
    Tensor x = ops::add(a, a);  // same path, same shapes
    Tensor y = ops::add(b, b);  // same path, other shapes
    Tensor z = ops::mul(a, a);
  }
  r->stop();
  profiler::Recording rec = r->take();
  profiler::ItemGroups g = profiler::group_items(rec, 4);
  CHECK(g.item_count == 9);
  REQUIRE(g.groups.size() == 3);
  for (const profiler::ItemGroup& group : g.groups) {
    CHECK(group.count == 3);
    CHECK_FALSE(group.values_vary);
  }
  CHECK(rec.events[g.groups[0].first.begin].op.full_name() == "aten::add.Tensor");
  CHECK(rec.events[g.groups[2].first.begin].op.full_name() == "aten::mul.Tensor");
  REQUIRE(g.items.size() == 4);  // only the first keep_items
  CHECK(g.items[3].group == 0);
  CHECK(g.items[1].begin > g.items[0].end);
}
