// The dispatcher: key-set algebra, table computation with provenance, TLS guards, RAII handles,
// fallthrough, boxed/unboxed calls and the observer hook.
#include <doctest/doctest.h>

#include "core/dispatch/Library.h"

using namespace opscope;

namespace {
// Test kernels: each returns a tensor whose single element says which kernel ran.
Tensor tagged(int64_t tag) {
  Tensor t = make_empty({1}, ScalarType::Int64);
  *t.data_ptr<int64_t>() = tag;
  return t;
}
int64_t tag_of(const Tensor& t) {
  return *t.data_ptr<int64_t>();
}
Tensor cpu_kernel(const Tensor&) {
  return tagged(1);
}
Tensor explicit_kernel(const Tensor&) {
  return tagged(2);
}
Tensor implicit_kernel(const Tensor&) {
  return tagged(3);
}
Tensor meta_kernel(const Tensor&) {
  return tagged(4);
}
Tensor cpu_kernel_2(const Tensor&) {
  return tagged(5);
}

Tensor cpu_tensor() {
  return make_empty({2}, ScalarType::Float32);
}

struct Recorder final : DispatchObserver {
  std::vector<std::string> log;
  void on_enter(const DispatchStep& s) override {
    log.push_back(std::string(to_string(s.kind)) + " " + s.op->full_name() + " " +
                  std::string(to_string(s.chosen)) + " " + s.entry->kernel.name());
  }
  void on_exit(const DispatchStep&, const Stack*) override {}
};
}  // namespace

TEST_CASE("DispatchKeySet is an immutable value ordered by PyTorch's priority") {
  DispatchKeySet cpu{DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU};
  CHECK(cpu.highest_priority_key() == DispatchKey::AutogradCPU);
  CHECK((cpu - kAutogradKeys).highest_priority_key() == DispatchKey::ADInplaceOrView);
  CHECK((cpu & kAfterADInplaceOrView).highest_priority_key() == DispatchKey::CPU);
  DispatchKeySet added = cpu.add(DispatchKey::Python);
  CHECK(added.has(DispatchKey::Python));
  CHECK_FALSE(cpu.has(DispatchKey::Python));  // add returned a new set
  CHECK(DispatchKeySet().highest_priority_key() == DispatchKey::Undefined);
  CHECK(DispatchKeySet(DispatchKey::Python).highest_priority_key() == DispatchKey::Python);
  // Priority chain of the issue: autograd > ADInplaceOrView > Python > BackendSelect > backends.
  CHECK(DispatchKey::AutogradCPU > DispatchKey::AutogradOther);
  CHECK(DispatchKey::AutogradOther > DispatchKey::ADInplaceOrView);
  CHECK(DispatchKey::ADInplaceOrView > DispatchKey::Python);
  CHECK(DispatchKey::Python > DispatchKey::BackendSelect);
  CHECK(DispatchKey::BackendSelect > DispatchKey::PrivateUse1);
  CHECK(DispatchKey::Meta > DispatchKey::CUDA);
  CHECK(DispatchKey::CUDA > DispatchKey::CPU);
  CHECK(cpu.str() == "DispatchKeySet(CPU, ADInplaceOrView, AutogradCPU)");
  CHECK(runtime_keys_of_alias(DispatchKey::CompositeExplicitAutograd) == kBackendKeys);
  CHECK(runtime_keys_of_alias(DispatchKey::Autograd) == kAutogradKeys);
  CHECK(autograd_key_for_backend(DispatchKey::CUDA) == DispatchKey::AutogradCUDA);
  CHECK(parse_dispatch_key("CompositeImplicitAutograd") == DispatchKey::CompositeImplicitAutograd);
  CHECK_THROWS_AS(parse_dispatch_key("Nope"), ValueError);
}

TEST_CASE("a CPU tensor carries CPU, ADInplaceOrView and AutogradCPU") {
  Tensor t = cpu_tensor();
  CHECK(t.key_set() ==
        DispatchKeySet({DispatchKey::CPU, DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU}));
}

TEST_CASE("dispatch table precedence and provenance, with RAII undo") {
  Library lib(Library::FRAGMENT, "test_prec");
  lib.def("f(Tensor self) -> Tensor");
  OperatorHandle op = Dispatcher::singleton().find_or_throw("test_prec::f", "");
  auto typed = op.typed<Tensor(const Tensor&)>();

  // Nothing registered: missing on CPU; calling names the backends.
  CHECK(op.entry().lookup(DispatchKey::CPU).provenance == Provenance::Missing);
  CHECK_THROWS_WITH_AS(
      typed.call(cpu_tensor()),
      doctest::Contains("Could not run 'test_prec::f' with arguments from the 'CPU' backend"),
      NotImplementedError);

  {
    Library implicit(Library::IMPL, "test_prec");
    implicit.impl("f", DispatchKey::CompositeImplicitAutograd, fn<&implicit_kernel>);
    CHECK(op.entry().lookup(DispatchKey::CPU).provenance == Provenance::Math);
    CHECK(op.entry().lookup(DispatchKey::AutogradCPU).provenance == Provenance::Math);
    CHECK(tag_of(typed.call(cpu_tensor())) == 3);

    {
      Library expl(Library::IMPL, "test_prec");
      expl.impl("f", DispatchKey::CompositeExplicitAutograd, fn<&explicit_kernel>);
      // Explicit beats implicit on backends, and then autograd no longer takes the math kernel:
      // it falls back to the (fallthrough) autograd backend fallback.
      CHECK(op.entry().lookup(DispatchKey::CPU).provenance == Provenance::DefaultBackend);
      CHECK(op.entry().lookup(DispatchKey::AutogradCPU).provenance == Provenance::BackendFallback);
      CHECK(tag_of(typed.call(cpu_tensor())) == 2);
      {
        Library direct(Library::IMPL, "test_prec");
        direct.impl("f", DispatchKey::CPU, fn<&cpu_kernel>);
        direct.impl("f", DispatchKey::Meta, fn<&meta_kernel>);
        CHECK(op.entry().lookup(DispatchKey::CPU).provenance == Provenance::Kernel);
        CHECK(op.entry().lookup(DispatchKey::CUDA).provenance == Provenance::DefaultBackend);
        CHECK(tag_of(typed.call(cpu_tensor())) == 1);
        {
          // A newer registration for the same key shadows the older one...
          Library again(Library::IMPL, "test_prec");
          again.impl("f", DispatchKey::CPU, fn<&cpu_kernel_2>);
          CHECK(tag_of(typed.call(cpu_tensor())) == 5);
        }
        // ...and dropping it brings the older one back.
        CHECK(tag_of(typed.call(cpu_tensor())) == 1);
        CHECK(op.entry().lookup(DispatchKey::CPU).kernel.name() == "{anonymous}::cpu_kernel");
        std::string table = op.entry().dump_table();
        CHECK(table.find("CPU: registered at tests/cpp/test_dispatch.cpp") != std::string::npos);
        CHECK(table.find("[kernel]") != std::string::npos);
        CHECK(table.find("CUDA: registered at") != std::string::npos);
        CHECK(table.find("[default backend kernel]") != std::string::npos);
        CHECK(table.find("BackendSelect: fallthrough registered at core/ops/fallbacks.cpp") !=
              std::string::npos);
      }
      CHECK(tag_of(typed.call(cpu_tensor())) == 2);
    }
    CHECK(tag_of(typed.call(cpu_tensor())) == 3);
  }
  CHECK(op.entry().lookup(DispatchKey::CPU).provenance == Provenance::Missing);
}

TEST_CASE("TLS guards change the keys a call dispatches on, and restore them") {
  Library lib(Library::FRAGMENT, "test_tls");
  lib.def("g(Tensor self) -> Tensor");
  lib.impl("g", DispatchKey::CPU, fn<&cpu_kernel>);
  lib.impl("g", DispatchKey::Autograd, fn<&cpu_kernel_2>);  // stands for all autograd keys
  auto typed = typed_op<Tensor(const Tensor&)>("test_tls::g");
  CHECK(Dispatcher::singleton()
            .find_or_throw("test_tls::g", "")
            .entry()
            .lookup(DispatchKey::AutogradCPU)
            .provenance == Provenance::AutogradAlias);
  CHECK(tag_of(typed.call(cpu_tensor())) == 5);
  DispatchKeySet before = local_dispatch_key_set().excluded;
  {
    AutoDispatchBelowAutograd guard;
    CHECK(local_dispatch_key_set().excluded.has(DispatchKey::AutogradCPU));
    CHECK(tag_of(typed.call(cpu_tensor())) == 1);
  }
  CHECK(local_dispatch_key_set().excluded == before);
  CHECK(tag_of(typed.call(cpu_tensor())) == 5);
  {
    // A guard undoes itself when an exception passes.
    try {
      ExcludeDispatchKeyGuard g(DispatchKey::CPU);
      throw std::runtime_error("x");
    } catch (const std::runtime_error&) {
    }
    CHECK(local_dispatch_key_set().excluded == before);
  }
  CHECK(local_dispatch_key_set().included == kDefaultIncluded);
  {
    IncludeDispatchKeyGuard g(DispatchKey::Python);
    CHECK(local_dispatch_key_set().included.has(DispatchKey::Python));
  }
  CHECK_FALSE(local_dispatch_key_set().included.has(DispatchKey::Python));
}

TEST_CASE("boxed calls, redispatch and the observer hook") {
  Library lib(Library::FRAGMENT, "test_box");
  lib.def("h(Tensor self) -> Tensor");
  lib.impl("h", DispatchKey::CPU, fn<&cpu_kernel>);
  // A boxed Autograd kernel that redispatches below autograd.
  lib.impl(
      "h", DispatchKey::Autograd,
      KernelFunction::boxed([](const OperatorHandle& op, DispatchKeySet ks,
                               Stack* stack) { op.redispatch_boxed(ks & kAfterAutograd, stack); },
                            "test::boxed_autograd"));
  OperatorHandle op = Dispatcher::singleton().find_or_throw("test_box::h", "");

  auto recorder = std::make_shared<Recorder>();
  {
    ObserverHandle handle = add_dispatch_observer(recorder);
    Tensor r = op.typed<Tensor(const Tensor&)>().call(cpu_tensor());
    CHECK(tag_of(r) == 1);
    Stack stack{IValue(cpu_tensor())};
    op.call_boxed(&stack);
    REQUIRE(stack.size() == 1);
    CHECK(tag_of(stack[0].to_tensor()) == 1);
  }
  // Removed with its handle: later calls are not seen.
  op.typed<Tensor(const Tensor&)>().call(cpu_tensor());
  REQUIRE(recorder->log.size() == 4);
  CHECK(recorder->log[0] == "call test_box::h AutogradCPU test::boxed_autograd");
  CHECK(recorder->log[1] == "redispatchBoxed test_box::h CPU {anonymous}::cpu_kernel");
  CHECK(recorder->log[2] == "callBoxed test_box::h AutogradCPU test::boxed_autograd");
  CHECK(recorder->log[3] == "redispatchBoxed test_box::h CPU {anonymous}::cpu_kernel");
}

TEST_CASE("registration errors") {
  Library lib(Library::FRAGMENT, "test_err");
  lib.def("k(Tensor self) -> Tensor");
  CHECK_THROWS_WITH_AS(lib.def("k(Tensor self) -> Tensor"), doctest::Contains("multiple times"),
                       Error);
  Library impl(Library::IMPL, "test_err");
  CHECK_THROWS_WITH_AS(impl.def("k2(Tensor self) -> Tensor"), doctest::Contains("cannot def"),
                       Error);
  lib.impl("k", DispatchKey::CPU, fn<&cpu_kernel>);
  // A kernel with another C++ signature is refused at registration.
  auto wrong = [](const Tensor& a, int64_t) { return a; };
  (void)wrong;
  CHECK_THROWS_WITH_AS(Dispatcher::singleton()
                           .find_or_throw("test_err::k", "")
                           .typed<Tensor(const Tensor&, int64_t)>(),
                       doctest::Contains("wrong C++ signature"), Error);
  CHECK_THROWS_WITH_AS(Dispatcher::singleton().find_or_throw("test_err::nope", ""),
                       doctest::Contains("Could not find schema for test_err::nope"), Error);
}
