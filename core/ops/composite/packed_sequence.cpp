// The padded and packed forms of a batch of sequences (schemas in core/ops/nn.cpp, registered at
// the end of this file): pad_sequence, _pack_padded_sequence and _pad_packed_sequence, which
// opscope.nn.utils.rnn calls as torch.nn.utils.rnn calls them (torch's PackedSequence.cpp).
// The layout of packed data is PackedSequence's docstring (core/python/opscope/nn/utils/rnn.py).
// CompositeImplicitAutograd: autograd differentiates the slices, copies and cat they run.
#include <algorithm>
#include <tuple>
#include <vector>

#include "core/dispatch/Library.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/shape.h"
#include "core/ops/views.h"

namespace opscope::composite {

// Sequences (L_i, *) -> (T, B, *) ((B, T, *) with batch_first), T = max L_i, the rest
// padding_value; each sequence copied into its slice of the result (torch's pad_sequence).
Tensor pad_sequence(TensorList sequences, bool batch_first, double padding_value) {
  OPSCOPE_CHECK(!sequences.empty(), "received an empty list of sequences");
  const IntArrayRef trailing = sequences[0].sizes().subspan(1);
  int64_t max_len = 0;
  for (const Tensor& s : sequences) max_len = std::max(max_len, s.size(0));
  const auto count = static_cast<int64_t>(sequences.size());
  DimVector out_dims = batch_first ? DimVector{count, max_len} : DimVector{max_len, count};
  for (int64_t d : trailing) out_dims.push_back(d);
  const Tensor out = ops::full(out_dims, Scalar(padding_value), sequences[0].dtype(), std::nullopt,
                               sequences[0].device());
  for (int64_t i = 0; i < count; ++i) {
    const Tensor& seq = sequences[static_cast<size_t>(i)];
    const int64_t length = seq.size(0);
    const Tensor slot = batch_first ? ops::narrow(ops::select(out, 0, i), 0, 0, length)
                                    : ops::select(ops::narrow(out, 0, 0, length), 1, i);
    ops::copy_(slot, seq);
  }
  return out;
}

namespace {

// lengths / batch_sizes as int64 values, with torch's message for anything else.
std::vector<int64_t> long_values(const Tensor& t, const char* name) {
  OPSCOPE_CHECK(t.dim() == 1 && t.dtype() == ScalarType::Int64, "'", name,
                "' argument should be a 1D CPU int64 tensor, but got ", t.dim(), "D ",
                t.device().str(), " ", cpp_name(t.dtype()), " tensor");
  const Tensor c = ops::contiguous(t);
  const auto* p = static_cast<const int64_t*>(c->data());
  return std::vector<int64_t>(p, p + c.numel());
}

}  // namespace

// input (T, B, *) ((B, T, *) with batch_first), lengths (B) decreasing -> (data (sum lengths, *),
// batch_sizes (max length)). CompositeImplicitAutograd here (torch: explicit, with its own
// PackPaddedSequenceBackward0), so autograd differentiates the slices and cat. Scans the sequences
// from the shortest: each time the length grows, the block of steps [previous length, length) of
// the sequences that long is cut out whole.
std::tuple<Tensor, Tensor> _pack_padded_sequence(const Tensor& input_, const Tensor& lengths_t,
                                                 bool batch_first) {
  const Tensor input = batch_first ? ops::transpose(input_, 0, 1) : input_;
  const std::vector<int64_t> lengths = long_values(lengths_t, "lengths");
  const int64_t batch_size = input.size(1);
  OPSCOPE_CHECK(input.numel() > 0, "Cannot pack empty tensors.");
  OPSCOPE_CHECK(static_cast<int64_t>(lengths.size()) == batch_size,
                "Expected `len(lengths)` to be equal to batch_size, but got ", lengths.size(),
                " (batch_size=", batch_size, ")");
  OPSCOPE_CHECK(lengths.back() > 0,
                "Length of all samples has to be greater than 0, but found an element in "
                "'lengths' that is <= 0");
  for (size_t i = 0; i + 1 < lengths.size(); ++i)
    OPSCOPE_CHECK(lengths[i] >= lengths[i + 1],
                  "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                  "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                  "pack_sequence to sidestep this requirement if you do not need ONNX "
                  "exportability.");
  DimVector step_shape{-1};
  for (int64_t d : input.sizes().subspan(2)) step_shape.push_back(d);
  std::vector<Tensor> steps;
  std::vector<int64_t> batch_sizes;
  int64_t prev_l = 0;
  for (int64_t i = 0; i < batch_size; ++i) {
    const int64_t l = lengths[static_cast<size_t>(batch_size - 1 - i)];
    if (l > prev_l) {
      const int64_t current_batch = batch_size - i;
      const Tensor block = ops::slice(ops::slice(input, 0, prev_l, l), 1, 0, current_batch);
      steps.push_back(ops::view(ops::contiguous(block), step_shape));
      batch_sizes.insert(batch_sizes.end(), static_cast<size_t>(l - prev_l), current_batch);
      prev_l = l;
    }
  }
  Tensor batch_sizes_t = ops::empty({static_cast<int64_t>(batch_sizes.size())}, ScalarType::Int64);
  std::copy(batch_sizes.begin(), batch_sizes.end(), static_cast<int64_t*>(batch_sizes_t->data()));
  return {ops::cat(steps, 0), std::move(batch_sizes_t)};
}

// data (N, *), batch_sizes (T) -> (padded (max(T, total_length), B, *), lengths (B)): each run
// of steps with the same batch size copied into its block at once.
std::tuple<Tensor, Tensor> _pad_packed_sequence(const Tensor& data, const Tensor& batch_sizes_t,
                                                bool batch_first, const Scalar& padding_value,
                                                int64_t total_length) {
  const std::vector<int64_t> batch_sizes = long_values(batch_sizes_t, "batch_sizes");
  OPSCOPE_CHECK(!batch_sizes.empty(), "_pad_packed_sequence: empty batch_sizes");
  const int64_t max_batch_size = batch_sizes[0];
  const auto max_real_seq_length = static_cast<int64_t>(batch_sizes.size());
  int64_t max_seq_length = max_real_seq_length;
  if (total_length > 0) {
    OPSCOPE_CHECK(total_length >= max_seq_length,
                  "Expected total_length to be at least the length of the longest sequence in "
                  "input, but got total_length=",
                  total_length, " and max sequence length being ", max_seq_length);
    max_seq_length = total_length;
  }
  DimVector output_size{max_seq_length, max_batch_size};
  for (int64_t d : data.sizes().subspan(1)) output_size.push_back(d);
  Tensor output = ops::full(output_size, padding_value, data.dtype(), std::nullopt, data.device());
  DimVector block_size = output_size;
  std::vector<int64_t> lengths(static_cast<size_t>(max_batch_size));
  int64_t data_offset = 0, prev_batch_size = max_batch_size, prev_i = 0;
  for (int64_t i = 0; i <= max_real_seq_length; ++i) {
    const int64_t batch = i != max_real_seq_length ? batch_sizes[static_cast<size_t>(i)] : 0;
    if (batch != prev_batch_size) {  // steps prev_i..i all had prev_batch_size sequences
      const int64_t l = prev_batch_size * (i - prev_i);
      block_size[0] = i - prev_i;
      block_size[1] = prev_batch_size;
      const Tensor block = ops::view(ops::slice(data, 0, data_offset, data_offset + l), block_size);
      ops::copy_(ops::slice(ops::slice(output, 0, prev_i, i), 1, 0, prev_batch_size), block);
      data_offset += l;
      prev_i = i;
    }
    for (int64_t j = batch; j < prev_batch_size; ++j) lengths[static_cast<size_t>(j)] = i;
    prev_batch_size = batch;
  }
  Tensor lengths_t = ops::empty({max_batch_size}, ScalarType::Int64);
  std::copy(lengths.begin(), lengths.end(), static_cast<int64_t*>(lengths_t->data()));
  if (batch_first) output = ops::transpose(output, 0, 1);
  return {std::move(output), std::move(lengths_t)};
}

static Library composite_implicit_packed_sequence(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("pad_sequence", fn<&pad_sequence>);
      m.impl("_pack_padded_sequence", fn<&_pack_padded_sequence>);
      m.impl("_pad_packed_sequence", fn<&_pad_packed_sequence>);
    });

}  // namespace opscope::composite
