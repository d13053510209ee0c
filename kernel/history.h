// The kernel's history: what history_request answers (Jupyter's %history, the console's up-arrow
// across sessions), read from IPython's own history database.
//
// Semantically this is ipykernel's do_history: a tail of the last n cells, a range of one session
// (0 is this one, negative counts back), or a glob search, each entry (session, line, input) or
// (session, line, [input, output]), with the raw or the transformed input.
//
// In implementation terms it is an xeus::xhistory_manager whose every request asks the shell's
// IPython HistoryManager (sqlite, plus this session's inputs in memory). IPython records each cell
// itself when run_cell runs with store_history, so storing does nothing here. See Note [Whose
// history] in history.cpp.
#pragma once

#include <memory>

#include "xeus/xhistory_manager.hpp"

namespace xopscope {

std::unique_ptr<xeus::xhistory_manager> make_ipython_history_manager();

}  // namespace xopscope
