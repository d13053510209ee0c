// IPython's history behind history_request. See history.h.
#include "kernel/history.h"

#include <string>

#include "pybind11/embed.h"
#include "pybind11_json/pybind11_json.hpp"

namespace py = pybind11;
namespace nl = nlohmann;
using namespace pybind11::literals;

namespace xopscope {

// Note [Whose history]
// ~~~~~~~~~~~~~~~~~~~~
// xeus 2.4.1's own in-memory history manager answers with strings for numbers, reports every
// cell as line 1 of session "0" and has no search (kernel-pitfalls.md, 9). IPython already keeps
// the history the protocol asks for — run_cell(store_history=True) writes each cell to the
// shell's HistoryManager, with its raw and transformed input, its line number equal to the
// execution count, and the past sessions in ~/.ipython's sqlite database — so, like ipykernel,
// every request is answered from it and xeus's store_inputs call is ignored. One difference from
// ipykernel: entries of this session carry its number, never IPython's in-memory alias 0. Requests
// come on the shell channel, on the main thread, with the GIL released between requests (pitfall
// 6).
namespace {

class ipython_history_manager final : public xeus::xhistory_manager {
 private:
  void configure_impl() override {}

  void store_inputs_impl(int, int, const std::string&, const std::string&) override {}

  nl::json get_tail_impl(int n, bool raw, bool output) const override {
    return answer([&](py::object history) {
      return history.attr("get_tail")(n, "raw"_a = raw, "output"_a = output,
                                      "include_latest"_a = true);
    });
  }

  nl::json get_range_impl(int session, int start, int stop, bool raw, bool output) const override {
    return answer([&](py::object history) {
      return history.attr("get_range")(session, start, stop, "raw"_a = raw, "output"_a = output);
    });
  }

  nl::json search_impl(const std::string& pattern, bool raw, bool output, int n,
                       bool unique) const override {
    return answer([&](py::object history) {
      return history.attr("search")(pattern, "raw"_a = raw, "output"_a = output,
                                    "n"_a = n > 0 ? py::object(py::int_(n)) : py::none(),
                                    "unique"_a = unique);
    });
  }

  // Runs `query` on the shell's HistoryManager; the reply is its entries as lists, or an error
  // reply naming what went wrong (no shell yet, a database error).
  template <class Query>
  nl::json answer(Query query) const {
    py::gil_scoped_acquire acquire;
    try {
      py::object shell = py::module_::import("IPython").attr("get_ipython")();
      if (shell.is_none()) throw std::runtime_error("no IPython shell");
      py::object history = shell.attr("history_manager");
      py::object session = history.attr("session_number");
      py::list entries;
      for (py::handle entry : query(history)) {
        py::list e = py::module_::import("builtins").attr("list")(entry);
        // IPython numbers this session's lines as session 0 when it reads them from memory
        // (get_range of the current session); the protocol's client asked by its real number.
        if (py::int_(e[0]).cast<long>() == 0) e[0] = session;
        entries.append(e);
      }
      return nl::json{{"status", "ok"}, {"history", py::cast<nl::json>(entries)}};
    } catch (const std::exception& e) {
      return nl::json{{"status", "error"},
                      {"ename", "HistoryError"},
                      {"evalue", e.what()},
                      {"traceback", nl::json::array()},
                      {"history", nl::json::array()}};
    }
  }
};

}  // namespace

std::unique_ptr<xeus::xhistory_manager> make_ipython_history_manager() {
  return std::make_unique<ipython_history_manager>();
}

}  // namespace xopscope
