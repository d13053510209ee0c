// The composite kernels of the linear family (schemas in core/ops/linear.cpp, registered at the end
// of this file): matmul, linear, outer, ger, einsum and tensordot (CompositeImplicitAutograd) and
// linear.out and tensordot.out (CompositeExplicitAutograd). Each decomposes exactly as PyTorch 1.13's at::native
// function, calling every child op through ops:: so the trace shows the same sequence as torch's.
// See Notes [How matmul decomposes] and [How linear decomposes] in core/ops/linear.h and
// [How einsum decomposes] below.
#include <algorithm>
#include <array>
#include <cctype>
#include <deque>
#include <string_view>
#include <vector>

#include "core/ops/copy.h"
#include "core/dispatch/Library.h"
#include "core/ops/binary.h"
#include "core/ops/linear.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"
#include "core/ops/compare.h"
#include "core/ops/unary.h"
#include "core/ops/TensorIterator.h"

namespace opscope::composite {

namespace {

int64_t product(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// torch 1.13's should_fold: fold the batch of an N-D (N >= 3) operand into the rows of one mm /
// mv when the other operand is 1-D or 2-D — except a 3-D · 2-D product whose 3-D operand is a
// batch of transposed matrices (stride[0] == size[1] * size[2], stride[-1] != 1): folding it
// would copy, while bmm reads each transposed matrix as it is.
bool should_fold(const Tensor& tensor1, int64_t dim_tensor2) {
  int64_t dim_tensor1 = tensor1.dim();
  if (dim_tensor1 < 3 || (dim_tensor2 != 1 && dim_tensor2 != 2)) return false;
  IntArrayRef sizes = tensor1.sizes(), strides = tensor1.strides();
  bool transposed_batch = dim_tensor1 == 3 && dim_tensor2 == 2 && strides.back() != 1 &&
                          strides.front() == sizes[1] * sizes[2];
  return !transposed_batch;
}

}  // namespace

// (*b1, n, k) · (*b2, k, m) -> (broadcast(b1, b2), n, m), 1-D operands promoted and squeezed.
Tensor matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t dim_tensor1 = tensor1.dim(), dim_tensor2 = tensor2.dim();
  OPSCOPE_CHECK(dim_tensor1 != 0 && dim_tensor2 != 0,
                "both arguments to matmul need to be at least 1D, but they are ", dim_tensor1,
                "D and ", dim_tensor2, "D");

  if (dim_tensor1 == 1 && dim_tensor2 == 1) return ops::dot(tensor1, tensor2);
  if (dim_tensor1 == 2 && dim_tensor2 == 1) return ops::mv(tensor1, tensor2);
  if (dim_tensor1 == 1 && dim_tensor2 == 2)  // torch squeezes in place (squeeze_); same values
    return ops::squeeze(ops::mm(ops::unsqueeze(tensor1, 0), tensor2), 0);
  if (dim_tensor1 == 2 && dim_tensor2 == 2) return ops::mm(tensor1, tensor2);

  if (should_fold(tensor1, dim_tensor2) || should_fold(tensor2, dim_tensor1)) {
    // Fold the larger operand t1 (transposing the problem when it is the second one) into a
    // matrix of prod(t1.sizes()[:-1]) rows. Invariant: t1.dim() >= 3, t2.dim() in {1, 2}.
    const bool transpose = dim_tensor2 > dim_tensor1;
    const Tensor t1 = transpose ? ops::transpose(tensor2, -2, -1) : tensor1;
    const Tensor t2 = !transpose ? tensor2 : dim_tensor1 == 2 ? ops::t(tensor1) : tensor1;
    IntArrayRef sizes_1 = t1.sizes();
    DimVector output_shape(sizes_1.begin(), sizes_1.end() - 1);
    const int64_t folded_dim1 = product(output_shape);
    const bool t2_is_matrix = t2.dim() == 2;
    if (t2_is_matrix) output_shape.push_back(t2.size(1));
    // reshape, not view: [3, 5, 0] @ [0, 0] would make view(-1, 0) ambiguous.
    const Tensor t1_folded = ops::reshape(t1, {folded_dim1, sizes_1.back()});
    if (!t2_is_matrix) return ops::_unsafe_view(ops::mv(t1_folded, t2), output_shape);
    Tensor output = ops::_unsafe_view(ops::mm(t1_folded, t2), output_shape);
    if (!transpose) return output;
    Tensor back = ops::transpose(output, -2, -1);
    return back.is_contiguous() ? back : ops::contiguous(back);  // Tensor::contiguous()
  }

  // Both have a batch (or a transposed 3-D batch against a matrix): broadcast the batch dims,
  // flatten them into one, bmm. n and m1 / m2 and p are tracked separately so that a mismatch
  // is reported by bmm with the sizes the user gave.
  const int64_t n = dim_tensor1 > 1 ? tensor1.size(-2) : 1;
  const int64_t m1 = tensor1.size(-1);
  IntArrayRef batch_tensor1 =
      tensor1.sizes().first(static_cast<size_t>(std::max<int64_t>(dim_tensor1 - 2, 0)));
  const int64_t m2 = dim_tensor2 > 1 ? tensor2.size(-2) : tensor2.size(0);
  const int64_t p = dim_tensor2 > 1 ? tensor2.size(-1) : 1;
  IntArrayRef batch_tensor2 =
      tensor2.sizes().first(static_cast<size_t>(std::max<int64_t>(dim_tensor2 - 2, 0)));

  DimVector output_shape = broadcast_shapes(batch_tensor1, batch_tensor2);
  DimVector tensor1_expand_size = output_shape;
  tensor1_expand_size.push_back(n);
  tensor1_expand_size.push_back(m1);
  DimVector tensor2_expand_size = output_shape;
  tensor2_expand_size.push_back(m2);
  tensor2_expand_size.push_back(p);
  const int64_t expand_batch_product = product(output_shape);

  const Tensor tensor1_expanded =
      ops::reshape(ops::expand(tensor1, tensor1_expand_size), {expand_batch_product, n, m1});
  const Tensor tensor2_expanded =
      ops::reshape(ops::expand(tensor2, tensor2_expand_size), {expand_batch_product, m2, p});

  if (dim_tensor1 > 1) output_shape.push_back(n);
  if (dim_tensor2 > 1) output_shape.push_back(p);
  return ops::_unsafe_view(ops::bmm(tensor1_expanded, tensor2_expanded), output_shape);
}

// matmul into out: the products with an out= form of their own (dot, mv, mm) write out directly,
// as torch's _matmul_impl does; the folded and batched cases compute matmul, then resize out and
// copy into it.
Tensor matmul_out(const Tensor& tensor1, const Tensor& tensor2, const Tensor& out) {
  const int64_t dim_tensor1 = tensor1.dim(), dim_tensor2 = tensor2.dim();
  if (dim_tensor1 == 1 && dim_tensor2 == 1) return ops::dot_out(tensor1, tensor2, out);
  if (dim_tensor1 == 2 && dim_tensor2 == 1) return ops::mv_out(tensor1, tensor2, out);
  if (dim_tensor1 == 2 && dim_tensor2 == 2) return ops::mm_out(tensor1, tensor2, out);
  const Tensor product = matmul(tensor1, tensor2);
  resize_output(out, product.sizes());
  ops::copy_(out, product);
  return out;
}

// --- linear --------------------------------------------------------------------------------------

// input (*, K), weight (N,K), bias broadcastable to (*, N) -> (*, N).
// See Note [How linear decomposes].
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (input.dim() == 2 && bias.defined()) return ops::addmm(bias, input, ops::t(weight));
  if (bias.defined() && input.dim() == 3 && input.is_contiguous()) {
    // One addmm over the B*M rows (torch: "hit the fused path for contiguous 3D input").
    const Tensor weight_t = ops::t(weight);
    IntArrayRef sizes = input.sizes();
    const Tensor result =
        ops::addmm(bias, ops::view(input, {sizes[0] * sizes[1], sizes[2]}), weight_t);
    return ops::view(result, {sizes[0], sizes[1], result.size(1)});
  }
  Tensor output = ops::matmul(input, ops::t(weight));
  if (bias.defined()) ops::add_(output, bias);
  return output;
}

Tensor linear_out(const Tensor& input, const Tensor& weight, const Tensor& bias,
                  const Tensor& out) {
  if (input.dim() == 2 && bias.defined())
    return ops::addmm_out(bias, input, ops::t(weight), 1, 1, out);
  const Tensor product = ops::matmul(input, ops::t(weight));
  resize_output(out, product.sizes());
  ops::copy_(out, product);
  if (bias.defined()) ops::add_(out, bias);
  return out;
}

// --- outer, ger ----------------------------------------------------------------------------------

namespace {
// torch's check_1d.
void check_1d(const Tensor& t, const char* arg, const char* fn) {
  OPSCOPE_CHECK(t.dim() == 1, fn, ": Expected 1-D argument ", arg, ", but got ", t.dim(), "-D");
}
}  // namespace

// self (M), vec2 (N) -> (M,N): a column times a row, broadcast by mul.
Tensor outer(const Tensor& self, const Tensor& vec2) {
  check_1d(self, "self", "outer");
  check_1d(vec2, "vec2", "outer");
  return ops::mul(ops::reshape(self, {self.size(0), 1}), vec2);
}

Tensor outer_out(const Tensor& self, const Tensor& vec2, const Tensor& out) {
  check_1d(self, "self", "outer");
  check_1d(vec2, "vec2", "outer");
  return ops::mul_out(out, ops::reshape(self, {self.size(0), 1}), vec2);
}

Tensor ger(const Tensor& self, const Tensor& vec2) {
  return ops::outer(self, vec2);
}

Tensor ger_out(const Tensor& self, const Tensor& vec2, const Tensor& out) {
  return ops::outer_out(self, vec2, out);
}

// --- einsum, tensordot ------------------------------------------------------------------------

// (left * right).sum(sum_dims, keepdim=True) as one bmm, torch 1.13's sumproduct_pair (a static
// helper there too, so no op of its own in a trace; einsum's and _trilinear's): left and right
// have the same number of dims, any of size 1 broadcasting. A summed dim only one side has is
// summed there first; the others sort into those both sides have (lro: bmm's batch), left's only
// (lo: its rows), right's only (ro: its columns) and the summed ones (bmm's inner dim), each group
// flattened by permute + reshape; the product is viewed back into those groups (1 for each summed
// dim) and permuted into the operands' order.
Tensor sumproduct_pair(const Tensor& left_in, const Tensor& right_in, IntArrayRef sum_dims) {
  OPSCOPE_CHECK(left_in.dim() == right_in.dim(), "number of dimensions must match");
  if (sum_dims.empty()) return ops::mul(left_in, right_in);
  const int64_t dim = left_in.dim();
  std::vector<bool> summed(static_cast<size_t>(dim), false);
  for (int64_t d : sum_dims) summed[static_cast<size_t>(d)] = true;

  Tensor left = left_in, right = right_in;
  DimVector lro, lo, ro;
  int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
  for (int64_t i = 0; i < dim; ++i) {
    const bool in_left = left.size(i) != 1, in_right = right.size(i) != 1;
    if (in_left && in_right)
      OPSCOPE_CHECK(left.size(i) == right.size(i), "non-broadcast dimensions must match");
    if (summed[static_cast<size_t>(i)]) {
      if (in_left && in_right) {
        sum_size *= left.size(i);
      } else if (in_left) {
        left = ops::sum(left, IntArrayRef(&i, 1), true, std::nullopt);
      } else if (in_right) {
        right = ops::sum(right, IntArrayRef(&i, 1), true, std::nullopt);
      }
    } else if (in_left && in_right) {
      lro.push_back(i);
      lro_size *= left.size(i);
    } else if (in_left) {
      lo.push_back(i);
      lo_size *= left.size(i);
    } else {
      ro.push_back(i);
      ro_size *= right.size(i);
    }
  }

  DimVector out_size, left_perm, right_perm;
  for (int64_t d : lro) out_size.push_back(left.size(d));
  for (int64_t d : lo) out_size.push_back(left.size(d));
  for (size_t k = 0; k < sum_dims.size(); ++k) out_size.push_back(1);
  for (int64_t d : ro) out_size.push_back(right.size(d));
  const auto append = [](DimVector& to, IntArrayRef dims) {
    for (int64_t d : dims) to.push_back(d);
  };
  for (IntArrayRef group : {IntArrayRef(lro), IntArrayRef(lo), sum_dims, IntArrayRef(ro)})
    append(left_perm, group);  // lro, lo, summed, ro
  for (IntArrayRef group : {IntArrayRef(lro), sum_dims, IntArrayRef(ro), IntArrayRef(lo)})
    append(right_perm, group);  // lro, summed, ro, lo
  DimVector out_perm(static_cast<size_t>(dim), 0);  // the inverse of left_perm
  for (size_t k = 0; k < left_perm.size(); ++k)
    out_perm[static_cast<size_t>(left_perm[k])] = static_cast<int64_t>(k);

  left = ops::reshape(ops::permute(left, left_perm), {lro_size, lo_size, sum_size});
  right = ops::reshape(ops::permute(right, right_perm), {lro_size, sum_size, ro_size});
  return ops::permute(ops::view(ops::bmm(left, right), out_size), out_perm);
}

namespace {

constexpr int kLetters = 26;
constexpr int kLabels = 2 * kLetters;  // A-Z, then a-z
constexpr int kEllipsis = kLabels;     // "..." among an operand's labels

int label_index(unsigned char c) {
  return std::isupper(c) ? c - 'A' : c - 'a' + kLetters;
}
char label_char(int index) {
  return static_cast<char>(index < kLetters ? 'A' + index : 'a' + index - kLetters);
}

}  // namespace

// Note [How einsum decomposes]
// As torch 1.13's einsum, so a trace lists the same ops: every operand is aligned to one layout
// — the output's dims (the ellipsis's among them), then the contracted ones — by diagonal +
// movedim for a label repeated in it, unsqueeze for a label it lacks, and one permute. With one
// operand the contracted dims are summed. With more, the operands are combined left to right
// (or in the order `path` gives, opt_einsum's format), two at a time by sumproduct_pair (one bmm,
// or mul when nothing is contracted between them); a contracted dim is summed as soon as only one
// operand still has it; at the end a view drops the contracted dims, all of size 1 by then.
// Labels are A-Z and a-z; an implicit output is the labels seen once, uppercase first.
Tensor einsum(std::string_view equation, TensorList operands, std::optional<IntArrayRef> path) {
  OPSCOPE_CHECK(!operands.empty(), "einsum(): must provide at least one operand");
  const size_t num_ops = operands.size();
  if (path) {
    const size_t path_size = num_ops == 1 ? 1 : (num_ops - 1) * 2;
    OPSCOPE_CHECK(path->size() == path_size,
                  "einsum(): expected contraction path given in path parameter to have size ",
                  path_size, " but got ", path->size());
  }

  // Each operand's labels, kEllipsis standing for "...".
  const size_t arrow = equation.find("->");
  const std::string_view lhs = equation.substr(0, arrow);
  std::vector<std::vector<int>> op_labels(num_ops);
  size_t curr_op = 0;
  bool ellipsis_seen = false;
  for (size_t i = 0; i < lhs.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(lhs[i]);
    if (c == ' ') continue;
    if (c == '.') {
      OPSCOPE_CHECK(!ellipsis_seen, "einsum(): found '.' for operand ", curr_op,
                    " for which an ellipsis was already found");
      OPSCOPE_CHECK(i + 2 < lhs.size() && lhs[++i] == '.' && lhs[++i] == '.',
                    "einsum(): found '.' for operand ", curr_op,
                    " that is not part of any ellipsis");
      op_labels[curr_op].push_back(kEllipsis);
      ellipsis_seen = true;
    } else if (c == ',') {
      ++curr_op;
      OPSCOPE_CHECK(curr_op < num_ops,
                    "einsum(): fewer operands were provided than specified in the equation");
      ellipsis_seen = false;
    } else {
      OPSCOPE_CHECK(std::isalpha(c), "einsum(): invalid subscript given at index ", i,
                    " in the equation string, subscripts must be in [a-zA-Z]");
      op_labels[curr_op].push_back(label_index(c));
    }
  }
  OPSCOPE_CHECK(curr_op == num_ops - 1,
                "einsum(): more operands were provided than specified in the equation");

  // How many operands each label appears in (once per appearance), and how many dims the widest
  // ellipsis covers.
  std::array<int64_t, kLabels> label_count{};
  int64_t ell_num_dim = 0;
  for (size_t i = 0; i < num_ops; ++i) {
    const int64_t ndims = operands[i].dim();
    int64_t nlabels = static_cast<int64_t>(op_labels[i].size());
    bool has_ellipsis = false;
    for (int label : op_labels[i]) {
      if (label == kEllipsis) {
        --nlabels;
        has_ellipsis = true;
        ell_num_dim = std::max(ell_num_dim, ndims - nlabels);
      } else {
        ++label_count[static_cast<size_t>(label)];
      }
    }
    OPSCOPE_CHECK(has_ellipsis ? nlabels <= ndims : nlabels == ndims,
                  "einsum(): the number of subscripts in the equation (", nlabels,
                  has_ellipsis ? ") is more than the number of dimensions ("
                               : ") does not match the number of dimensions (",
                  ndims, ") for operand ", i, has_ellipsis ? "" : " and no ellipsis was given");
  }

  // The common layout: label -> its dim; the output's first, then the contracted.
  std::array<int64_t, kLabels> label_perm_index;
  label_perm_index.fill(-1);
  int64_t perm_index = 0, ell_index = 0;
  bool ell_in_output = false;
  if (arrow == std::string_view::npos) {
    perm_index = ell_num_dim;  // implicit: the ellipsis, then the labels seen once
    ell_in_output = true;
    for (int label = 0; label < kLabels; ++label)
      if (label_count[static_cast<size_t>(label)] == 1) label_perm_index[static_cast<size_t>(label)] = perm_index++;
  } else {
    const std::string_view rhs = equation.substr(arrow + 2);
    for (size_t i = 0; i < rhs.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(rhs[i]);
      if (c == ' ') continue;
      if (c == '.') {
        OPSCOPE_CHECK(!ell_in_output,
                      "einsum(): found '.' for output but an ellipsis (...) was already found");
        OPSCOPE_CHECK(i + 2 < rhs.size() && rhs[++i] == '.' && rhs[++i] == '.',
                      "einsum(): found '.' for output that is not part of any ellipsis (...)");
        ell_index = perm_index;
        perm_index += ell_num_dim;
        ell_in_output = true;
        continue;
      }
      OPSCOPE_CHECK(std::isalpha(c), "einsum(): invalid subscript given at index ",
                    lhs.size() + 2 + i,
                    " in the equation string, subscripts must be in [a-zA-Z]");
      const auto label = static_cast<size_t>(label_index(c));
      OPSCOPE_CHECK(label_count[label] > 0 && label_perm_index[label] == -1,
                    "einsum(): output subscript ", c,
                    label_perm_index[label] > -1
                        ? " appears more than once in the output"
                        : " does not appear in the equation for any input operand");
      label_perm_index[label] = perm_index++;
    }
  }
  const int64_t out_num_dim = perm_index;
  if (!ell_in_output) {  // the ellipsis's dims are contracted
    ell_index = perm_index;
    perm_index += ell_num_dim;
  }
  for (size_t label = 0; label < kLabels; ++label)
    if (label_count[label] > 0 && label_perm_index[label] == -1)
      label_perm_index[label] = perm_index++;

  // Align every operand; count, for each dim of the layout, the operands where it is not 1.
  std::array<int64_t, kLabels> label_size;
  label_size.fill(1);
  DimVector ell_sizes(static_cast<size_t>(ell_num_dim), 1);
  DimVector dim_counts(static_cast<size_t>(perm_index), 0);
  std::deque<Tensor> ops;
  for (size_t i = 0; i < num_ops; ++i) {
    Tensor op = operands[i];
    DimVector permutation(static_cast<size_t>(perm_index), -1);
    int64_t dim = 0;
    for (int label : op_labels[i]) {
      if (label == kEllipsis) {
        const int64_t covered =
            op.dim() - (static_cast<int64_t>(op_labels[i].size()) - 1);
        for (int64_t j = ell_num_dim - covered; j < ell_num_dim; ++j) {
          const auto jj = static_cast<size_t>(j);
          if (op.size(dim) != 1) {
            OPSCOPE_CHECK(ell_sizes[jj] == 1 || ell_sizes[jj] == op.size(dim),
                          "einsum(): dimension ", dim, " covered by ellipsis in operand ", i,
                          "has size ", op.size(dim),  // torch 1.13's words, space and all
                          " which does not broadcast with previously seen ellipsis with size ",
                          ell_sizes[jj], " for the respective dimension");
            ell_sizes[jj] = op.size(dim);
            ++dim_counts[static_cast<size_t>(ell_index + j)];
          }
          permutation[static_cast<size_t>(ell_index + j)] = dim++;
        }
        continue;
      }
      const auto l = static_cast<size_t>(label);
      const auto slot = static_cast<size_t>(label_perm_index[l]);
      if (permutation[slot] == -1) {
        if (op.size(dim) != 1) {
          OPSCOPE_CHECK(label_size[l] == 1 || label_size[l] == op.size(dim),
                        "einsum(): subscript ", label_char(label), " has size ", op.size(dim),
                        " for operand ", i, " which does not broadcast with previously seen size ",
                        label_size[l]);
          label_size[l] = op.size(dim);
          ++dim_counts[slot];
        }
        permutation[slot] = dim++;
      } else {  // a repeated label: its diagonal, at the first one's place
        const int64_t prev_dim = permutation[slot];
        OPSCOPE_CHECK(op.size(dim) == op.size(prev_dim), "einsum(): subscript ",
                      label_char(label), " is repeated for operand ", i,
                      " but the sizes don't match, ", op.size(dim), " != ", op.size(prev_dim));
        op = ops::movedim(ops::diagonal(op, 0, prev_dim, dim), -1, prev_dim);
      }
    }
    for (int64_t& val : permutation) {  // a dim for each label this operand lacks
      if (val == -1) {
        op = ops::unsqueeze(op, dim);
        val = dim++;
      }
    }
    ops.push_back(ops::permute(op, permutation));
  }

  // Contract, two operands at a time.
  size_t next_path = 0;
  while (ops.size() > 1) {
    size_t i = 0, j = 1;
    if (path) {
      int64_t a = (*path)[next_path++], b = (*path)[next_path++];
      if (b < a) std::swap(a, b);
      OPSCOPE_CHECK(a != b && a >= 0 && b < static_cast<int64_t>(ops.size()),
                    "einsum(): invalid contraction (", a, ", ", b,
                    a == b ? ") cannot contract an operand with itself"
                           : ") operand index is out of bounds");
      i = static_cast<size_t>(a);
      j = static_cast<size_t>(b);
    }
    Tensor a = ops[i], b = ops[j];
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(j));
    ops.erase(ops.begin() + static_cast<std::ptrdiff_t>(i));

    DimVector sum_dims, a_dims_to_sum, b_dims_to_sum;
    for (int64_t dim = out_num_dim; dim < perm_index; ++dim) {
      const auto d = static_cast<size_t>(dim);
      const bool in_a = a.size(dim) != 1, in_b = b.size(dim) != 1;
      if (in_a && in_b) {
        if (--dim_counts[d] == 1) {  // only their product has it now: sum it in the product
          sum_dims.push_back(dim);
          dim_counts[d] = 0;
        }
      } else if (dim_counts[d] == 1) {  // only one of them has it: sum it there first
        if (in_a) {
          a_dims_to_sum.push_back(dim);
          dim_counts[d] = 0;
        } else if (in_b) {
          b_dims_to_sum.push_back(dim);
          dim_counts[d] = 0;
        }
      }
    }
    if (!a_dims_to_sum.empty()) a = ops::sum(a, IntArrayRef(a_dims_to_sum), true, std::nullopt);
    if (!b_dims_to_sum.empty()) b = ops::sum(b, IntArrayRef(b_dims_to_sum), true, std::nullopt);
    if (path)
      ops.push_back(sumproduct_pair(a, b, sum_dims));
    else
      ops.push_front(sumproduct_pair(a, b, sum_dims));
  }

  if (perm_index - out_num_dim == 0) return ops[0];
  if (num_ops > 1) {  // the contracted dims are all 1 by now
    DimVector sizes(ops[0].sizes().begin(), ops[0].sizes().begin() + out_num_dim);
    return ops::view(ops[0], sizes);
  }
  DimVector sum_dims;
  for (int64_t d = out_num_dim; d < perm_index; ++d) sum_dims.push_back(d);
  return ops::sum(ops[0], IntArrayRef(sum_dims), false, std::nullopt);
}

// self · other over dims_self[i] == dims_other[i]: torch 1.13's tensordot. A contracted dim of
// size 1 on one side is summed on the other; then self's other dims and the contracted ones
// are flattened into a matrix (permute + reshape), other's likewise, one mm, reshaped to
// self's other dims followed by other's.
Tensor tensordot(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                 IntArrayRef dims_other) {
  OPSCOPE_CHECK(dims_self.size() == dims_other.size(),
                "both dimension lists should have same length");
  int64_t csize = 1;  // the contracted dims' product
  Tensor t1 = self, t2 = other;
  for (size_t i = 0; i < dims_self.size(); ++i) {
    const int64_t s1 = self.size(dims_self[i]), s2 = other.size(dims_other[i]);
    if (s2 == 1) {
      t1 = ops::sum(t1, IntArrayRef(&dims_self[i], 1), true, t1.dtype());
    } else if (s1 == 1) {
      t2 = ops::sum(t2, IntArrayRef(&dims_other[i], 1), true, t2.dtype());
    } else {
      OPSCOPE_CHECK(s1 == s2, "contracted dimensions need to match, but first has size ", s1,
                    " in dim ", dims_self[i], " and second has size ", s2, " in dim ",
                    dims_other[i]);
      csize *= s1;
    }
  }
  std::vector<bool> contracted1(static_cast<size_t>(self.dim()), false);
  std::vector<bool> contracted2(static_cast<size_t>(other.dim()), false);
  for (int64_t d : dims_self) {
    const auto w = static_cast<size_t>(wrap_dim(d, self.dim()));
    OPSCOPE_CHECK(!contracted1[w], "dim ", w, " appears multiple times in the list of dims");
    contracted1[w] = true;
  }
  for (int64_t d : dims_other) {
    const auto w = static_cast<size_t>(wrap_dim(d, other.dim()));
    OPSCOPE_CHECK(!contracted2[w], "dim ", w, " appears multiple times in the list of dims");
    contracted2[w] = true;
  }
  DimVector p1, p2, result_sizes;
  int64_t size1 = 1, size2 = 1;
  for (int64_t i = 0; i < self.dim(); ++i) {
    if (contracted1[static_cast<size_t>(i)]) continue;
    p1.push_back(i);
    size1 *= t1.size(i);
    result_sizes.push_back(t1.size(i));
  }
  for (int64_t d : dims_self) p1.push_back(wrap_dim(d, self.dim()));
  for (int64_t d : dims_other) p2.push_back(wrap_dim(d, other.dim()));
  for (int64_t i = 0; i < other.dim(); ++i) {
    if (contracted2[static_cast<size_t>(i)]) continue;
    p2.push_back(i);
    size2 *= t2.size(i);
    result_sizes.push_back(t2.size(i));
  }
  t1 = ops::reshape(ops::permute(t1, p1), {size1, csize});
  t2 = ops::reshape(ops::permute(t2, p2), {csize, size2});
  return ops::reshape(ops::mm(t1, t2), result_sizes);
}

Tensor tensordot_out(const Tensor& self, const Tensor& other, IntArrayRef dims_self,
                     IntArrayRef dims_other, const Tensor& out) {
  const Tensor result = tensordot(self, other, dims_self, dims_other);
  OPSCOPE_CHECK(result.dtype() == out.dtype(),
                "tensordot: Expected the output tensor to have dtype ",
                cpp_name(result.dtype()), ", but got an output tensor with dtype ",
                cpp_name(out.dtype()));
  resize_output(out, result.sizes());
  ops::copy_(out, result);
  return out;
}

// self (*A, k), other (*B, k) -> (*A, *B): tensordot over the last dims (self * other when either
// is 0-d), after torch's check that those dims match (tensordot alone would sum a size-1 dim)
void check_inner(const Tensor& self, const Tensor& other) {
  OPSCOPE_CHECK(self.size(-1) == other.size(-1),
                "inner() the last dimension must match on both input tensors but got shapes ",
                shape_str(self.sizes()), " and ", shape_str(other.sizes()));
}
constexpr int64_t kLastDim[1] = {-1};

Tensor inner(const Tensor& self, const Tensor& other) {
  if (self.dim() == 0 || other.dim() == 0) return ops::mul(self, other);
  check_inner(self, other);
  return ops::tensordot(self, other, IntArrayRef(kLastDim, 1), IntArrayRef(kLastDim, 1));
}

Tensor inner_out(const Tensor& self, const Tensor& other, const Tensor& out) {
  if (self.dim() == 0 || other.dim() == 0) return ops::mul_out(out, self, other);
  check_inner(self, other);
  return ops::tensordot_out(out, self, other, IntArrayRef(kLastDim, 1), IntArrayRef(kLastDim, 1));
}

static Library composite_implicit_linear(
    Library::IMPL, "aten", DispatchKey::CompositeImplicitAutograd, [](Library& m) {
      m.impl("matmul", fn<&matmul>);
      m.impl("matmul.out", fn<&matmul_out>);
      m.impl("linear", fn<&linear>);
      m.impl("outer", fn<&outer>);
      m.impl("outer.out", fn<&outer_out>);
      m.impl("ger", fn<&ger>);
      m.impl("ger.out", fn<&ger_out>);
      m.impl("einsum", fn<&einsum>);
      m.impl("tensordot", fn<&tensordot>);
      m.impl("inner", fn<&inner>);
      m.impl("inner.out", fn<&inner_out>);
    });

static Library composite_explicit_linear(
    Library::IMPL, "aten", DispatchKey::CompositeExplicitAutograd, [](Library& m) {
      m.impl("linear.out", fn<&linear_out>);
      m.impl("tensordot.out", fn<&tensordot_out>);  // torch 1.13: one kernel, not decomposed
    });

}  // namespace opscope::composite
