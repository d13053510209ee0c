// The recurrent layers' composite kernels (schemas in core/ops/nn.cpp, registered at the end of
// this file): lstm / gru / rnn_tanh / rnn_relu over whole sequences, their one-step cells
// (lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell) and the gate split they use
// (unsafe_split, unsafe_chunk).
//
// Semantically an RNN layer runs a cell over the time steps of its input, carrying a hidden
// state; a bidirectional layer runs a second cell from the last step back and concatenates the
// two outputs; layers stack, the output of one the input of the next (with dropout between them
// while training). The cells, with x the step's input and h the carried state:
//
//   rnn:  h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)                          act = tanh | relu
//   lstm: i, f, g, o = chunks of (x W_ih^T + b_ih + h W_hh^T + b_hh)
//         c' = sigmoid(f) * c + sigmoid(i) * tanh(g);  h' = sigmoid(o) * tanh(c') [W_hr^T]
//   gru:  r, z = sigmoid(chunks 0, 1 of (x W_ih^T + b_ih) + (h W_hh^T + b_hh))
//         n = tanh(chunk 2 of (x W_ih^T + b_ih) + r * chunk 2 of (h W_hh^T + b_hh))
//         h' = (h - n) * z + n
//
// In implementation terms these are CompositeImplicitAutograd, as in torch 1.13 on CPU
// (aten/src/ATen/native/RNN.cpp): every step calls linear / add_ / unsafe_chunk / sigmoid_ /
// tanh_ / mul through the dispatcher in torch's order, so autograd differentiates them and a
// trace shows what torch's shows. The input projection x W_ih^T + b_ih of a whole layer is one
// linear (one addmm) before the time loop; each step then adds it to its h W_hh^T + b_hh.
#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/linear.h"
#include "core/ops/nn.h"
#include "core/ops/shape.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// Ops the cells call whose handles their family headers do not declare (no other C++ caller).
// linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor
constexpr Op<Tensor(const Tensor&, const Tensor&, Default<const Tensor&>)> linear_{"aten::linear"};
// dropout(Tensor input, float p, bool train) -> Tensor
constexpr Op<Tensor(const Tensor&, double, bool)> dropout_{"aten::dropout"};
// sigmoid_(Tensor(a!) self) -> Tensor(a!), tanh_(Tensor(a!) self) -> Tensor(a!)
constexpr Op<Tensor(const Tensor&)> sigmoid_{"aten::sigmoid_"};
constexpr Op<Tensor(const Tensor&)> tanh_{"aten::tanh_"};
// unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]
constexpr Op<std::vector<Tensor>(const Tensor&, int64_t, Default<int64_t>)> unsafe_chunk_{
    "aten::unsafe_chunk"};
// unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]
constexpr Op<std::vector<Tensor>(const Tensor&, int64_t, Default<int64_t>)> unsafe_split_{
    "aten::unsafe_split.Tensor"};

// One layer-direction's weights: w_ih (G, I), w_hh (G, H'), b_ih / b_hh (G) or undefined,
// w_hr (H', H) or undefined (an LSTM's projection; H' = proj_size, else H' = H).
struct CellParams {
  Tensor w_ih, w_hh, b_ih, b_hh, w_hr;

  // x (*, I) -> (*, G)
  Tensor linear_ih(const Tensor& x) const { return linear_(x, w_ih, b_ih); }
  // h (B, H') -> (B, G)
  Tensor linear_hh(const Tensor& h) const { return linear_(h, w_hh, b_hh); }
  // h (B, H) -> (B, H'): the LSTM projection, or h itself
  Tensor matmul_hr(const Tensor& h) const {
    return w_hr.defined() ? ops::matmul(h, ops::t(w_hr)) : h;
  }
};

// The flat parameter list (per layer and direction: w_ih, w_hh[, b_ih, b_hh][, w_hr]) as one
// CellParams per layer-direction.
std::vector<CellParams> gather_params(TensorList params, bool has_biases, bool has_projections) {
  const size_t per = 2 + (has_biases ? 2 : 0) + (has_projections ? 1 : 0);
  OPSCOPE_CHECK(params.size() % per == 0, "got an incorrect number of RNN parameters");
  std::vector<CellParams> result;
  result.reserve(params.size() / per);
  for (size_t i = 0; i < params.size(); i += per) {
    CellParams p{params[i], params[i + 1], {}, {}, {}};
    if (has_biases) {
      p.b_ih = params[i + 2];
      p.b_hh = params[i + 3];
    }
    if (has_projections) p.w_hr = params[i + per - 1];
    result.push_back(std::move(p));
  }
  return result;
}

// --- the cells: one step each -------------------------------------------------------------------
// `x` is the step's input (B, I), or, when precomputed, its projection x W_ih^T + b_ih (B, G).

using LSTMHidden = std::pair<Tensor, Tensor>;  // (h (B, H'), c (B, H))

// LSTM step: (h, c) -> (h', c'). See the file's top comment for the formulas.
LSTMHidden lstm_step(const Tensor& x, const LSTMHidden& hidden, const CellParams& p,
                     bool precomputed) {
  const auto& [hx, cx] = hidden;
  // Statements, not nested calls, fix the order of the ops (C++ leaves argument order open).
  const Tensor hh = p.linear_hh(hx);
  const Tensor gates = ops::add_(hh, precomputed ? x : p.linear_ih(x));
  const std::vector<Tensor> chunked = unsafe_chunk_(gates, 4, 1);
  const Tensor ingate = sigmoid_(chunked[0]);
  const Tensor forgetgate = sigmoid_(chunked[1]);
  const Tensor cellgate = tanh_(chunked[2]);
  const Tensor outgate = sigmoid_(chunked[3]);
  const Tensor kept = ops::mul(forgetgate, cx);
  Tensor cy = ops::add_(kept, ops::mul(ingate, cellgate));
  Tensor hy = p.matmul_hr(ops::mul(outgate, ops::tanh(cy)));
  return {std::move(hy), std::move(cy)};
}

// GRU step: h -> h'.
Tensor gru_step(const Tensor& x, const Tensor& hx, const CellParams& p, bool precomputed) {
  const std::vector<Tensor> igates = unsafe_chunk_(precomputed ? x : p.linear_ih(x), 3, 1);
  const std::vector<Tensor> hgates = unsafe_chunk_(p.linear_hh(hx), 3, 1);
  const Tensor reset_gate = sigmoid_(ops::add_(hgates[0], igates[0]));
  const Tensor input_gate = sigmoid_(ops::add_(hgates[1], igates[1]));
  const Tensor new_gate = tanh_(ops::add(igates[2], ops::mul_(hgates[2], reset_gate)));
  return ops::add_(ops::mul_(ops::sub(hx, new_gate), input_gate), new_gate);
}

// Elman step: h -> act(x W_ih^T + b_ih + h W_hh^T + b_hh).
template <bool Relu>
Tensor simple_step(const Tensor& x, const Tensor& hx, const CellParams& p, bool precomputed) {
  const Tensor hh = p.linear_hh(hx);
  const Tensor pre = ops::add_(hh, precomputed ? x : p.linear_ih(x));
  return Relu ? ops::relu(pre) : ops::tanh(pre);
}

// What a layer returns as the step's output: h (an LSTM's h of its (h, c)).
const Tensor& as_output(const Tensor& h) {
  return h;
}
const Tensor& as_output(const LSTMHidden& h) {
  return h.first;
}

// --- layers and the stack -----------------------------------------------------------------------

template <typename Hidden>
using Step = Hidden (*)(const Tensor&, const Hidden&, const CellParams&, bool);

template <typename Hidden>
struct LayerOutput {
  Tensor outputs;                    // (T, B, D*H')
  std::vector<Hidden> final_hidden;  // one per direction
};

// Runs `step` over the projected inputs in order; the outputs stacked (T, B, H').
template <typename Hidden>
std::pair<Tensor, Hidden> run_direction(Step<Hidden> step, const std::vector<Tensor>& step_inputs,
                                        Hidden hidden, const CellParams& p, bool reverse) {
  OPSCOPE_CHECK(!step_inputs.empty(), "Expected sequence length to be larger than 0 in RNN");
  const size_t n = step_inputs.size();
  std::vector<Tensor> outputs(n);
  for (size_t k = 0; k < n; ++k) {
    const size_t t = reverse ? n - 1 - k : k;
    hidden = step(step_inputs[t], hidden, p, /*precomputed=*/true);
    outputs[t] = as_output(hidden);
  }
  return {ops::stack(outputs, 0), std::move(hidden)};
}

// One layer: input (T, B, I) -> outputs (T, B, D*H'); hiddens / params hold D entries. The input
// projection of each direction is one linear over all T steps (torch's CPU path), unbound into
// the steps.
template <typename Hidden>
LayerOutput<Hidden> run_layer(Step<Hidden> step, const Tensor& input,
                              const std::vector<Hidden>& hiddens,
                              const std::vector<CellParams>& params) {
  auto fw =
      run_direction(step, ops::unbind(params[0].linear_ih(input), 0), hiddens[0], params[0], false);
  if (params.size() == 1) return {std::move(fw.first), {std::move(fw.second)}};
  auto rev =
      run_direction(step, ops::unbind(params[1].linear_ih(input), 0), hiddens[1], params[1], true);
  const int64_t last = fw.first.dim() - 1;
  return {ops::cat(std::vector<Tensor>{fw.first, rev.first}, last),
          {std::move(fw.second), std::move(rev.second)}};
}

// The layers in turn; dropout on the input of every layer but the first while training.
// hiddens / params: num_layers * D entries, layer-major (l0, l0_reverse, l1, ...).
template <typename Hidden>
std::pair<Tensor, std::vector<Hidden>> run_stack(Step<Hidden> step, const Tensor& input,
                                                 const std::vector<Hidden>& hiddens,
                                                 const std::vector<CellParams>& params,
                                                 int64_t num_layers, double dropout_p, bool train,
                                                 bool bidirectional) {
  const size_t dirs = bidirectional ? 2 : 1;
  OPSCOPE_CHECK(
      hiddens.size() == static_cast<size_t>(num_layers) * dirs && params.size() == hiddens.size(),
      "rnn: expected ", num_layers * static_cast<int64_t>(dirs),
      " hidden states and parameter groups, got ", hiddens.size(), " and ", params.size());
  Tensor layer_input = input;
  std::vector<Hidden> final_hidden;
  final_hidden.reserve(hiddens.size());
  for (size_t l = 0; l < static_cast<size_t>(num_layers); ++l) {
    std::vector<Hidden> layer_hidden(hiddens.begin() + l * dirs, hiddens.begin() + (l + 1) * dirs);
    std::vector<CellParams> layer_params(params.begin() + l * dirs,
                                         params.begin() + (l + 1) * dirs);
    LayerOutput<Hidden> out = run_layer(step, layer_input, layer_hidden, layer_params);
    for (Hidden& h : out.final_hidden) final_hidden.push_back(std::move(h));
    layer_input = std::move(out.outputs);
    if (dropout_p != 0 && train && static_cast<int64_t>(l) < num_layers - 1)
      layer_input = dropout_(layer_input, dropout_p, true);
  }
  return {std::move(layer_input), std::move(final_hidden)};
}

void check_same_device(const Tensor& input, TensorList params, TensorList hx) {
  for (const Tensor& t : params)
    OPSCOPE_CHECK(t.device() == input.device(),
                  "Input and parameter tensors are not at the same device, found input tensor at ",
                  input.device().str(), " and parameter tensor at ", t.device().str());
  for (const Tensor& t : hx)
    OPSCOPE_CHECK(t.device() == input.device(),
                  "Input and hidden tensors are not at the same device, found input tensor at ",
                  input.device().str(), " and hidden tensor at ", t.device().str());
}

// rnn_tanh / rnn_relu / gru: hx (L*D, B, H) -> (output, h_n (L*D, B, H)).
std::tuple<Tensor, Tensor> rnn_with_hx(Step<Tensor> step, const Tensor& input_, const Tensor& hx,
                                       TensorList params, bool has_biases, int64_t num_layers,
                                       double dropout_p, bool train, bool bidirectional,
                                       bool batch_first) {
  check_same_device(input_, params, TensorList(&hx, 1));
  const Tensor input = batch_first ? ops::transpose(input_, 0, 1) : input_;
  const std::vector<CellParams> cell_params = gather_params(params, has_biases, false);
  auto [output, final_hidden] = run_stack(step, input, ops::unbind(hx, 0), cell_params, num_layers,
                                          dropout_p, train, bidirectional);
  Tensor h_n = ops::stack(final_hidden, 0);
  // torch transposes gru / rnn_* outputs back in place (transpose_, TransposeBackward1); here
  // out of place, as its lstm does: opscope's stack returns a view, which transpose_ refuses.
  if (batch_first) output = ops::transpose(output, 0, 1);
  return {std::move(output), std::move(h_n)};
}

// --- packed sequences -------------------------------------------------------------------------
// As PackedSequence's docstring (core/python/opscope/nn/utils/rnn.py) says: data (N, *) holds step
// 0 of the B sequences (sorted by decreasing length), then step 1 of those that are that long, ...;
// batch_sizes[t] of them.

// A hidden state's rows [start, start + length) (the sequences ending at some step).
Tensor hidden_slice(const Tensor& h, int64_t start, int64_t length) {
  return ops::narrow(h, 0, start, length);
}
LSTMHidden hidden_slice(const LSTMHidden& h, int64_t start, int64_t length) {
  return {ops::narrow(h.first, 0, start, length), ops::narrow(h.second, 0, start, length)};
}
Tensor hidden_concat(const std::vector<Tensor>& hs) {
  return ops::cat(hs, 0);
}
LSTMHidden hidden_concat(const std::vector<LSTMHidden>& hs) {
  std::vector<Tensor> h, c;
  for (const auto& [a, b] : hs) {
    h.push_back(a);
    c.push_back(b);
  }
  return {ops::cat(h, 0), ops::cat(c, 0)};
}

std::vector<int64_t> read_batch_sizes(const Tensor& batch_sizes) {
  OPSCOPE_CHECK(batch_sizes.dim() == 1 && batch_sizes.dtype() == ScalarType::Int64,
                "batch_sizes must be a 1-D int64 tensor, got ", batch_sizes.dim(), "-D ",
                cpp_name(batch_sizes.dtype()));
  const Tensor bs = ops::contiguous(batch_sizes);
  const auto* p = static_cast<const int64_t*>(bs->data());
  std::vector<int64_t> out(p, p + bs.numel());
  OPSCOPE_CHECK(!out.empty(), "Expected sequence length to be larger than 0 in RNN");
  return out;
}

// Forward over packed data: at each step the sequences that ended leave the batch, their hidden
// rows kept for h_n. data (N, I) -> (outputs (N, H'), h_n (B, ...)).
template <typename Hidden>
std::pair<Tensor, Hidden> packed_forward(Step<Hidden> step, const Tensor& data,
                                         const std::vector<int64_t>& batch_sizes, Hidden hidden,
                                         const CellParams& p) {
  const Tensor input_w = p.linear_ih(data);
  std::vector<Tensor> outputs;
  std::vector<Hidden> finished;
  int64_t offset = 0, last = batch_sizes[0];
  for (int64_t batch : batch_sizes) {
    const Tensor step_input = ops::narrow(input_w, 0, offset, batch);
    offset += batch;
    if (batch < last) {  // sequences batch..last ended at the previous step
      finished.push_back(hidden_slice(hidden, batch, last - batch));
      hidden = hidden_slice(hidden, 0, batch);
    }
    last = batch;
    hidden = step(step_input, hidden, p, /*precomputed=*/true);
    outputs.push_back(as_output(hidden));
  }
  finished.push_back(std::move(hidden));
  std::reverse(finished.begin(), finished.end());
  return {ops::cat(outputs, 0), hidden_concat(finished)};
}

// Backward over packed data: starts from the last step with the shortest batch and lets each
// sequence join (with its initial hidden rows) at its last step.
template <typename Hidden>
std::pair<Tensor, Hidden> packed_reverse(Step<Hidden> step, const Tensor& data,
                                         const std::vector<int64_t>& batch_sizes,
                                         const Hidden& input_hidden, const CellParams& p) {
  const Tensor input_w = p.linear_ih(data);
  std::vector<Tensor> outputs;
  int64_t offset = data.size(0), last = batch_sizes.back();
  Hidden hidden = hidden_slice(input_hidden, 0, last);
  for (auto it = batch_sizes.rbegin(); it != batch_sizes.rend(); ++it) {
    const int64_t batch = *it;
    if (batch > last)
      hidden = hidden_concat(
          std::vector<Hidden>{hidden, hidden_slice(input_hidden, last, batch - last)});
    const Tensor step_input = ops::narrow(input_w, 0, offset - batch, batch);
    offset -= batch;
    last = batch;
    hidden = step(step_input, hidden, p, /*precomputed=*/true);
    outputs.push_back(as_output(hidden));
  }
  std::reverse(outputs.begin(), outputs.end());
  return {ops::cat(outputs, 0), std::move(hidden)};
}

// The layers over packed data (see run_stack): data (N, I) -> (N, D*H'), one final hidden per
// layer-direction.
template <typename Hidden>
std::pair<Tensor, std::vector<Hidden>> run_packed_stack(Step<Hidden> step, const Tensor& data,
                                                        const Tensor& batch_sizes_t,
                                                        const std::vector<Hidden>& hiddens,
                                                        const std::vector<CellParams>& params,
                                                        int64_t num_layers, double dropout_p,
                                                        bool train, bool bidirectional) {
  const std::vector<int64_t> batch_sizes = read_batch_sizes(batch_sizes_t);
  const size_t dirs = bidirectional ? 2 : 1;
  OPSCOPE_CHECK(
      hiddens.size() == static_cast<size_t>(num_layers) * dirs && params.size() == hiddens.size(),
      "rnn: expected ", num_layers * static_cast<int64_t>(dirs),
      " hidden states and parameter groups, got ", hiddens.size(), " and ", params.size());
  Tensor layer_input = data;
  std::vector<Hidden> final_hidden;
  for (size_t l = 0; l < static_cast<size_t>(num_layers); ++l) {
    auto fw = packed_forward(step, layer_input, batch_sizes, hiddens[l * dirs], params[l * dirs]);
    final_hidden.push_back(std::move(fw.second));
    if (bidirectional) {
      auto rev = packed_reverse(step, layer_input, batch_sizes, hiddens[l * dirs + 1],
                                params[l * dirs + 1]);
      final_hidden.push_back(std::move(rev.second));
      layer_input = ops::cat(std::vector<Tensor>{fw.first, rev.first}, -1);
    } else {
      layer_input = std::move(fw.first);
    }
    if (dropout_p != 0 && train && static_cast<int64_t>(l) < num_layers - 1)
      layer_input = dropout_(layer_input, dropout_p, true);
  }
  return {std::move(layer_input), std::move(final_hidden)};
}

// rnn_tanh / rnn_relu / gru over packed data: (data (N, D*H), h_n (L*D, B, H)).
std::tuple<Tensor, Tensor> packed_with_hx(Step<Tensor> step, const Tensor& data,
                                          const Tensor& batch_sizes, const Tensor& hx,
                                          TensorList params, bool has_biases, int64_t num_layers,
                                          double dropout_p, bool train, bool bidirectional) {
  const std::vector<CellParams> cell_params = gather_params(params, has_biases, false);
  auto [output, final_hidden] =
      run_packed_stack(step, data, batch_sizes, ops::unbind(hx, 0), cell_params, num_layers,
                       dropout_p, train, bidirectional);
  return {std::move(output), ops::stack(final_hidden, 0)};
}

}  // namespace

// --- the ops
// --------------------------------------------------------------------------------------

// self (.., n, ..) -> pieces of split_size along dim (the last shorter), sharing self's memory;
// autograd sees new tensors, not views (UnsafeSplitBackward0 joins their gradients), which is
// what makes it "unsafe": writing into a piece writes into self unseen.
std::vector<Tensor> unsafe_split(const Tensor& self, int64_t split_size, int64_t dim) {
  OPSCOPE_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  OPSCOPE_CHECK(split_size >= 0,
                "split expects split_size be non-negative, but got split_size=", split_size);
  const int64_t dim_size = self.size(dim);
  OPSCOPE_CHECK(split_size > 0 || dim_size == 0,
                "split_size can only be 0 if dimension size is 0, but got dimension size of ",
                dim_size);
  int64_t num_splits = 1;
  if (split_size != 0)
    num_splits = std::max<int64_t>(dim_size / split_size + (dim_size % split_size != 0), 1);
  std::vector<Tensor> splits;
  splits.reserve(static_cast<size_t>(num_splits));
  for (int64_t i = 0; i < num_splits; ++i) {
    const int64_t length = i < num_splits - 1 ? split_size : dim_size - split_size * i;
    // Not a view, with a version counter of its own: an in-place op on one piece neither
    // rewrites self's history nor invalidates what autograd saved of the other pieces.
    Tensor piece = make_alias_not_view(ops::narrow(self, dim, i * split_size, length));
    piece->reset_version_counter();
    splits.push_back(std::move(piece));
  }
  return splits;
}

// self (.., n, ..) -> `chunks` pieces of ceil(n / chunks) along dim, through unsafe_split.
std::vector<Tensor> unsafe_chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  OPSCOPE_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  OPSCOPE_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t dim_size = self.size(dim);
  const int64_t split_size = dim_size / chunks + (dim_size % chunks != 0);
  return unsafe_split_(self, split_size, dim);
}

// input (T, B, I) [(B, T, I) batch_first], hx = [h0 (L*D, B, H'), c0 (L*D, B, H)]
// -> (output (T, B, D*H'), h_n (L*D, B, H'), c_n (L*D, B, H)); H' = proj_size when the
// parameters carry projections (h0's last dim differs from c0's).
std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input_, TensorList hx, TensorList params,
                                        bool has_biases, int64_t num_layers, double dropout_p,
                                        bool train, bool bidirectional, bool batch_first) {
  OPSCOPE_CHECK(hx.size() == 2, "lstm expects two hidden states");
  check_same_device(input_, params, hx);
  const Tensor input = batch_first ? ops::transpose(input_, 0, 1) : input_;
  const bool has_projections = hx[0].size(2) != hx[1].size(2);
  const std::vector<CellParams> cell_params = gather_params(params, has_biases, has_projections);
  const std::vector<Tensor> layer_hx = ops::unbind(hx[0], 0);
  const std::vector<Tensor> layer_cx = ops::unbind(hx[1], 0);
  OPSCOPE_CHECK(layer_hx.size() == layer_cx.size(), "lstm: h0 holds ", layer_hx.size(),
                " layers but c0 holds ", layer_cx.size());
  std::vector<LSTMHidden> hiddens;
  hiddens.reserve(layer_hx.size());
  for (size_t i = 0; i < layer_hx.size(); ++i) hiddens.emplace_back(layer_hx[i], layer_cx[i]);
  auto [output, final_hidden] = run_stack<LSTMHidden>(&lstm_step, input, hiddens, cell_params,
                                                      num_layers, dropout_p, train, bidirectional);
  std::vector<Tensor> hy, cy;
  hy.reserve(final_hidden.size());
  cy.reserve(final_hidden.size());
  for (auto& [h, c] : final_hidden) {
    hy.push_back(std::move(h));
    cy.push_back(std::move(c));
  }
  if (batch_first) output = ops::transpose(output, 0, 1);
  return {std::move(output), ops::stack(hy, 0), ops::stack(cy, 0)};
}

// input (T, B, I) [(B, T, I) batch_first], hx (L*D, B, H) -> (output (T, B, D*H), h_n)
std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, TensorList params,
                               bool has_biases, int64_t num_layers, double dropout_p, bool train,
                               bool bidirectional, bool batch_first) {
  return rnn_with_hx(&gru_step, input, hx, params, has_biases, num_layers, dropout_p, train,
                     bidirectional, batch_first);
}

std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx, TensorList params,
                                    bool has_biases, int64_t num_layers, double dropout_p,
                                    bool train, bool bidirectional, bool batch_first) {
  return rnn_with_hx(&simple_step<false>, input, hx, params, has_biases, num_layers, dropout_p,
                     train, bidirectional, batch_first);
}

std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx, TensorList params,
                                    bool has_biases, int64_t num_layers, double dropout_p,
                                    bool train, bool bidirectional, bool batch_first) {
  return rnn_with_hx(&simple_step<true>, input, hx, params, has_biases, num_layers, dropout_p,
                     train, bidirectional, batch_first);
}

// Packed forms: data (N, I) and batch_sizes (T) int64 of a PackedSequence -> (data (N, D*H'),
// h_n[, c_n]) (torch's lstm.data / gru.data / rnn_*.data).
std::tuple<Tensor, Tensor, Tensor> lstm_data(const Tensor& data, const Tensor& batch_sizes,
                                             TensorList hx, TensorList params, bool has_biases,
                                             int64_t num_layers, double dropout_p, bool train,
                                             bool bidirectional) {
  OPSCOPE_CHECK(hx.size() == 2, "lstm expects two hidden states");
  const bool has_projections = hx[0].size(2) != hx[1].size(2);
  const std::vector<CellParams> cell_params = gather_params(params, has_biases, has_projections);
  const std::vector<Tensor> layer_hx = ops::unbind(hx[0], 0);
  const std::vector<Tensor> layer_cx = ops::unbind(hx[1], 0);
  std::vector<LSTMHidden> hiddens;
  for (size_t i = 0; i < std::min(layer_hx.size(), layer_cx.size()); ++i)
    hiddens.emplace_back(layer_hx[i], layer_cx[i]);
  auto [output, final_hidden] =
      run_packed_stack<LSTMHidden>(&lstm_step, data, batch_sizes, hiddens, cell_params, num_layers,
                                   dropout_p, train, bidirectional);
  std::vector<Tensor> hy, cy;
  for (auto& [h, c] : final_hidden) {
    hy.push_back(std::move(h));
    cy.push_back(std::move(c));
  }
  return {std::move(output), ops::stack(hy, 0), ops::stack(cy, 0)};
}

std::tuple<Tensor, Tensor> gru_data(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx,
                                    TensorList params, bool has_biases, int64_t num_layers,
                                    double dropout_p, bool train, bool bidirectional) {
  return packed_with_hx(&gru_step, data, batch_sizes, hx, params, has_biases, num_layers, dropout_p,
                        train, bidirectional);
}

std::tuple<Tensor, Tensor> rnn_tanh_data(const Tensor& data, const Tensor& batch_sizes,
                                         const Tensor& hx, TensorList params, bool has_biases,
                                         int64_t num_layers, double dropout_p, bool train,
                                         bool bidirectional) {
  return packed_with_hx(&simple_step<false>, data, batch_sizes, hx, params, has_biases, num_layers,
                        dropout_p, train, bidirectional);
}

std::tuple<Tensor, Tensor> rnn_relu_data(const Tensor& data, const Tensor& batch_sizes,
                                         const Tensor& hx, TensorList params, bool has_biases,
                                         int64_t num_layers, double dropout_p, bool train,
                                         bool bidirectional) {
  return packed_with_hx(&simple_step<true>, data, batch_sizes, hx, params, has_biases, num_layers,
                        dropout_p, train, bidirectional);
}

// --- the cells as ops: input (B, I), hx (B, H) -> (B, H)
// ------------------------------------------

namespace {

void check_cell_input(const Tensor& input, int64_t input_size) {
  OPSCOPE_CHECK(input.size(1) == input_size, "input has inconsistent input_size: got ",
                input.size(1), " expected ", input_size);
}

void check_cell_hidden(const Tensor& input, const Tensor& hx, int64_t hidden_size,
                       int64_t hidden_label) {
  OPSCOPE_CHECK(input.size(0) == hx.size(0), "Input batch size ", input.size(0),
                " doesn't match hidden", hidden_label, " batch size ", hx.size(0));
  OPSCOPE_CHECK(hx.size(1) == hidden_size, "hidden", hidden_label,
                " has inconsistent hidden_size: got ", hx.size(1), ", expected ", hidden_size);
}

CellParams cell_params(const Tensor& w_ih, const Tensor& w_hh, const Tensor& b_ih,
                       const Tensor& b_hh) {
  return CellParams{w_ih, w_hh, b_ih, b_hh, {}};
}

}  // namespace

std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih,
                                     const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh) {
  OPSCOPE_CHECK(hx.size() == 2, "lstm_cell expects two hidden states");
  check_cell_input(input, w_ih.size(1));
  const int64_t hidden_size = w_hh.size(1);
  check_cell_hidden(input, hx[0], hidden_size, 0);
  check_cell_hidden(input, hx[1], hidden_size, 0);
  auto [hy, cy] = lstm_step(input, {hx[0], hx[1]}, cell_params(w_ih, w_hh, b_ih, b_hh), false);
  return {std::move(hy), std::move(cy)};
}

Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                const Tensor& b_ih, const Tensor& b_hh) {
  check_cell_input(input, w_ih.size(1));
  check_cell_hidden(input, hx, w_hh.size(1), 0);
  return gru_step(input, hx, cell_params(w_ih, w_hh, b_ih, b_hh), false);
}

Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const Tensor& b_ih, const Tensor& b_hh) {
  check_cell_input(input, w_ih.size(1));
  check_cell_hidden(input, hx, w_hh.size(1), 0);
  return simple_step<false>(input, hx, cell_params(w_ih, w_hh, b_ih, b_hh), false);
}

Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const Tensor& b_ih, const Tensor& b_hh) {
  check_cell_input(input, w_ih.size(1));
  check_cell_hidden(input, hx, w_hh.size(1), 0);
  return simple_step<true>(input, hx, cell_params(w_ih, w_hh, b_ih, b_hh), false);
}

static Library composite_implicit_rnn(Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd,
                                      [](Library& m) {
                                        m.impl("lstm.input", fn<&lstm>);
                                        m.impl("gru.input", fn<&gru>);
                                        m.impl("rnn_tanh.input", fn<&rnn_tanh>);
                                        m.impl("rnn_relu.input", fn<&rnn_relu>);
                                        m.impl("lstm.data", fn<&lstm_data>);
                                        m.impl("gru.data", fn<&gru_data>);
                                        m.impl("rnn_tanh.data", fn<&rnn_tanh_data>);
                                        m.impl("rnn_relu.data", fn<&rnn_relu_data>);
                                        m.impl("lstm_cell", fn<&lstm_cell>);
                                        m.impl("gru_cell", fn<&gru_cell>);
                                        m.impl("rnn_tanh_cell", fn<&rnn_tanh_cell>);
                                        m.impl("rnn_relu_cell", fn<&rnn_relu_cell>);
                                        m.impl("unsafe_chunk", fn<&unsafe_chunk>);
                                      });

static Library composite_explicit_rnn(Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd,
                                      [](Library& m) {
                                        m.impl("unsafe_split.Tensor", fn<&unsafe_split>);
                                      });

}  // namespace opscope::composite
