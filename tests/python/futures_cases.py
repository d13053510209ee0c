"""Scenarios of torch.futures' behaviour, run against torch 1.13 by make_torch_reference_futures.py
(recorded into data/futures.json) and against opscope.futures by test_futures.py.

Each case is a function of the library's `futures` module returning something JSON can hold; an
exception it raises is recorded as {"error": type name, "message": str(e)}."""
import threading
import time


def c_set_result_then_wait(F):
    f = F.Future()
    before = f.done()
    f.set_result(5)
    return [before, f.done(), f.wait(), f.value()]


def c_value_before_done(F):
    return F.Future().value()


def c_set_result_twice(F):
    f = F.Future()
    f.set_result(1)
    f.set_result(2)


def c_set_exception_then_wait(F):
    f = F.Future()
    f.set_exception(ValueError("foo"))
    assert f.done()
    f.wait()


def c_set_exception_then_value(F):
    f = F.Future()
    f.set_exception(KeyError("k"))
    f.value()


def c_set_exception_same_object(F):
    f, e = F.Future(), ValueError("same")
    f.set_exception(e)
    try:
        f.wait()
    except ValueError as got:
        return got is e


def c_set_exception_not_an_exception(F):
    F.Future().set_exception(5)


def c_set_exception_base_exception(F):
    F.Future().set_exception(KeyboardInterrupt())


def c_set_result_after_exception(F):
    f = F.Future()
    f.set_exception(ValueError("x"))
    f.set_result(3)


def c_then_chain(F):
    f = F.Future()
    g = f.then(lambda x: x.wait() + 1).then(lambda x: x.wait() * 2)
    before = g.done()
    f.set_result(3)
    return [before, g.done(), g.wait()]


def c_then_inline_when_done(F):
    order = []
    f = F.Future()
    f.set_result(1)
    g = f.then(lambda x: order.append("callback") or 7)
    order.append("after then")
    return [order, g.done(), g.wait()]


def c_then_callback_gets_the_future(F):
    f, seen = F.Future(), []
    f.then(lambda x: seen.append(x is f))
    f.set_result(0)
    return seen


def c_then_callback_raises(F):
    f = F.Future()

    def bad(x):
        raise ValueError("bad callback")
    g = f.then(bad)
    f.set_result(1)
    return [g.done(), g.wait()]


def c_then_callback_raises_type(F):
    f = F.Future()

    def bad(x):
        raise ValueError("bad callback")
    g = f.then(bad)
    f.set_result(1)
    try:
        g.wait()
    except Exception as e:
        return [type(e).__name__, "bad callback" in str(e)]


def c_then_on_failed_future(F):
    f = F.Future()
    g = f.then(lambda x: x.wait())
    f.set_exception(ValueError("upstream"))
    g.wait()


def c_then_callback_ignores_failure(F):
    f = F.Future()
    g = f.then(lambda x: "recovered")
    f.set_exception(ValueError("upstream"))
    return g.wait()


def c_then_returns_none(F):
    f = F.Future()
    g = f.then(lambda x: None)
    f.set_result(1)
    return [g.wait() is None, g.done()]


def c_add_done_callback(F):
    order, f = [], F.Future()
    r = f.add_done_callback(lambda x: order.append(("first", x.value(), x is f)))
    f.add_done_callback(lambda x: order.append(("second", x.value())))
    order.append("set")
    f.set_result(4)
    f.add_done_callback(lambda x: order.append("inline"))
    return [r is None, order]


def c_add_done_callback_raises(F):
    order, f = [], F.Future()

    def bad(x):
        raise ValueError("in callback")
    f.add_done_callback(bad)
    f.add_done_callback(lambda x: order.append(x.value()))
    f.set_result(9)
    return [order, f.wait()]


def c_collect_all(F):
    a, b = F.Future(), F.Future()
    c = F.collect_all([a, b])
    before = c.done()
    a.set_result(1)
    middle = c.done()
    b.set_result(2)
    got = c.wait()
    # (torch's list holds new Python objects for a and b: `got[0] is a` is False there.)
    return [before, middle, c.done(), len(got), [x.value() for x in got]]


def c_collect_all_with_error(F):
    a, b = F.Future(), F.Future()
    c = F.collect_all([a, b])
    a.set_exception(ValueError("one failed"))
    b.set_result(2)
    return [c.done(), [x.done() for x in c.wait()]]


def c_collect_all_error_wait(F):
    a, b = F.Future(), F.Future()
    c = F.collect_all([a, b])
    a.set_exception(ValueError("one failed"))
    b.set_result(2)
    return c.wait()[0].wait()


def c_collect_all_empty(F):
    c = F.collect_all([])
    return [c.done(), c.wait()]


def c_collect_all_not_futures(F):
    F.collect_all([1, 2])


def c_wait_all(F):
    a, b = F.Future(), F.Future()
    a.set_result("x")
    b.set_result([1, 2])
    return F.wait_all([a, b])


def c_wait_all_error(F):
    a, b = F.Future(), F.Future()
    a.set_result(1)
    b.set_exception(ValueError("b failed"))
    F.wait_all([a, b])


def c_wait_all_empty(F):
    return F.wait_all([])


def c_wait_from_another_thread(F):
    f = F.Future()
    threading.Timer(0.05, lambda: f.set_result("late")).start()
    t0 = time.monotonic()
    v = f.wait()
    return [v, time.monotonic() - t0 >= 0.04]


def c_then_from_another_thread(F):
    f = F.Future()
    g = f.then(lambda x: x.value() * 3)
    threading.Timer(0.02, lambda: f.set_result(2)).start()
    return g.wait()


def c_value_is_same_object(F):
    f, v = F.Future(), {"k": [1]}
    f.set_result(v)
    return [f.wait() is v, f.value() is v]


def c_generic_subscript(F):
    return F.Future[int] is not None


def c_collect_all_error_early(F):
    a, b = F.Future(), F.Future()
    c = F.collect_all([a, b])
    a.set_exception(ValueError("early"))
    early = c.done()
    b.set_result(1)
    return [early, c.done()]


def c_devices_cpu(F):
    F.Future(devices=["cpu"])


def c_positional_devices(F):
    F.Future([])


def c_then_not_callable(F):
    f = F.Future()
    g = f.then(5)
    f.set_result(1)
    return g.wait()


CASES = {name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("c_")}


def run_case(fn, F):
    try:
        return {"value": fn(F)}
    except BaseException as e:  # noqa: B902  (recorded)
        return {"error": type(e).__name__, "message": str(e)}
