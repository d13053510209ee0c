// bilinear and _trilinear (declared in core/ops/nn.cpp, see core/ops/nn.h): torch 1.13's
// (Linear.cpp), with its keys, so a trace and the autograd nodes read as torch's.
//
//   bilinear   (CompositeImplicitAutograd)   input1 (*, I1), input2 (*, I2), weight (O, I1, I2)
//              out[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o]
//              = reshape(_trilinear(input1 (B, I1), weight, input2 (B, I2),
//                                   expand1 [1, 3], expand2 [0], expand3 [1, 2],
//                                   sumdim [2, 3]), (*, O)) + bias
//   _trilinear (CompositeExplicitAutograd; torch's CompositeExplicitAutogradNonFunctional)
//              i1, i2, i3 each unsqueezed at its expand dims to one rank D, then
//              (i1 * i2 * i3).sum(sumdim), the summed dims dropped
//
// In bilinear's call the common rank is 4, (B, O, I1, I2): input1 is (B, 1, I1, 1), weight
// (1, O, I1, I2), input2 (B, 1, 1, I2), summed over I1 and I2. _trilinear builds the product one
// index k of unroll_dim (default 1: O) at a time, as torch's: two sumproduct_pair contractions
// (one bmm each) of the k-th slices, added into a zeros output's slice k. Its derivative
// (TrilinearBackward0) is _trilinear again with grad in the place of the input it differentiates.
#include <bitset>

#include "core/dispatch/Library.h"
#include "core/ops/TensorIterator.h"
#include "core/ops/binary.h"
#include "core/ops/copy.h"
#include "core/ops/factories.h"
#include "core/ops/linear.h"
#include "core/ops/nn.h"
#include "core/ops/views.h"

namespace opscope::composite {

namespace {

// squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)
constexpr Op<Tensor(const Tensor&, int64_t)> squeeze_dim_{"aten::squeeze_.dim"};

constexpr size_t kMaxDims = 64;  // torch's dim_list_to_bitset bound

// torch's dim_list_to_bitset: each dim wrapped into [0, ndims), none twice.
std::bitset<kMaxDims> dim_set(IntArrayRef dims, int64_t ndims) {
  OPSCOPE_CHECK(ndims <= static_cast<int64_t>(kMaxDims), "only tensors with up to ", kMaxDims,
                " dims are supported");
  std::bitset<kMaxDims> set;
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndims);
    OPSCOPE_CHECK(!set[static_cast<size_t>(w)], "dim ", w,
                  " appears multiple times in the list of dims");
    set.set(static_cast<size_t>(w));
  }
  return set;
}

}  // namespace

// i1, i2, i3 unsqueezed at expand1 / expand2 / expand3 to one rank -> their product summed over
// sumdim (dropped), built one index of unroll_dim at a time
Tensor _trilinear(const Tensor& i1_in, const Tensor& i2_in, const Tensor& i3_in,
                  IntArrayRef expand1_dims, IntArrayRef expand2_dims, IntArrayRef expand3_dims,
                  IntArrayRef sumdim_dims, int64_t unroll_dim) {
  const int64_t total_dim = i1_in.dim() + static_cast<int64_t>(expand1_dims.size());
  OPSCOPE_CHECK(unroll_dim >= 0 && unroll_dim < total_dim, "unroll_dim must be in [0,",
                total_dim - 1, "]");
  const auto expand1 = dim_set(expand1_dims, total_dim);
  const auto expand2 = dim_set(expand2_dims, total_dim);
  const auto expand3 = dim_set(expand3_dims, total_dim);
  const auto sumdim = dim_set(sumdim_dims, total_dim);
  Tensor i1 = i1_in, i2 = i2_in, i3 = i3_in;
  DimVector output_size, sum_dims_12, sum_dims_23;
  int64_t unroll_size = -1;
  for (int64_t i = 0; i < total_dim; ++i) {
    const auto at = static_cast<size_t>(i);
    int64_t s = 0;
    if (expand1[at]) {
      i1 = ops::unsqueeze(i1, i);
    } else {
      s = i1.size(i);
    }
    if (expand2[at]) {
      i2 = ops::unsqueeze(i2, i);
    } else {
      s = i2.size(i);
    }
    // a summed dim i3 lacks is summed in the first product, one i3 has in the second
    if (expand3[at]) {
      i3 = ops::unsqueeze(i3, i);
      if (sumdim[at] && i != unroll_dim) sum_dims_12.push_back(i);
    } else {
      s = i3.size(i);
      if (sumdim[at] && i != unroll_dim) sum_dims_23.push_back(i);
    }
    output_size.push_back(sumdim[at] ? 1 : s);
    if (i == unroll_dim) unroll_size = s;
  }
  const auto unrolled = static_cast<size_t>(unroll_dim);
  const int64_t step1 = expand1[unrolled] ? 0 : 1;
  const int64_t step2 = expand2[unrolled] ? 0 : 1;
  const int64_t step3 = expand3[unrolled] ? 0 : 1;

  Tensor output = ops::zeros(output_size, i1.dtype(), std::nullopt, i1.device());
  // (an empty input leaves the zeros)
  if (i1.numel() != 0 && i2.numel() != 0 && i3.numel() != 0) {
    for (int64_t k = 0; k < unroll_size; ++k) {
      Tensor buf = sumproduct_pair(ops::narrow(i1, unroll_dim, k * step1, 1),
                                   ops::narrow(i2, unroll_dim, k * step2, 1), sum_dims_12);
      buf = sumproduct_pair(buf, ops::narrow(i3, unroll_dim, k * step3, 1), sum_dims_23);
      // a summed unroll_dim adds every slice into the output's one
      const Tensor into = sumdim[unrolled] ? output : ops::narrow(output, unroll_dim, k, 1);
      ops::add_(into, buf);
    }
  }
  for (int64_t i = output.dim() - 1; i >= 0; --i)
    if (sumdim[static_cast<size_t>(i)]) squeeze_dim_(output, i);
  return output;
}

Tensor _trilinear_out(const Tensor& i1, const Tensor& i2, const Tensor& i3, IntArrayRef expand1,
                      IntArrayRef expand2, IntArrayRef expand3, IntArrayRef sumdim,
                      int64_t unroll_dim, const Tensor& out) {
  const Tensor result = ops::_trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim);
  resize_output(out, result.sizes());
  ops::copy_(out, result);
  return out;
}

// input1 (*, I1), input2 (*, I2), weight (O, I1, I2), bias (O) -> (*, O)
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const Tensor& bias) {
  OPSCOPE_CHECK(input1.dim() == input2.dim(), "bilinear(): input dimensions do not match: got ",
                input1.dim(), " and ", input2.dim());
  for (int64_t i = 0; i < input1.dim() - 1; ++i)
    OPSCOPE_CHECK(input1.size(i) == input2.size(i),
                  "bilinear(): input batch dimensions do not match at dim ", i, ": got ",
                  input1.size(i), " and ", input2.size(i));
  OPSCOPE_CHECK(input1.size(input1.dim() - 1) == weight.size(1),
                "bilinear(): input1 size does not match weight size: got ",
                input1.size(input1.dim() - 1), " but expected ", weight.size(1));
  OPSCOPE_CHECK(input2.size(input2.dim() - 1) == weight.size(2),
                "bilinear(): input2 size does not match weight size: got ",
                input2.size(input2.dim() - 1), " but expected ", weight.size(2));
  OPSCOPE_CHECK(!bias.defined() || bias.size(0) == weight.size(0),
                "bilinear(): bias size does not match weight size: got ",
                bias.defined() ? bias.size(0) : 0, " but expected ", weight.size(0));

  DimVector output_size(input1.sizes().begin(), input1.sizes().end() - 1);
  output_size.push_back(weight.size(0));
  const Tensor flat1 = ops::reshape(input1, {-1, input1.size(-1)});
  const Tensor flat2 = ops::reshape(input2, {-1, input2.size(-1)});
  Tensor output = ops::reshape(
      ops::_trilinear(flat1, weight, flat2, {1, 3}, {0}, {1, 2}, {2, 3}, 1), output_size);
  if (bias.defined()) output = ops::add(output, bias);
  return output;
}

static Library composite_implicit_bilinear(Library::IMPL, "aten",
                                           DispatchKey::CompositeImplicitAutograd,
                                           [](Library& m) { m.impl("bilinear", fn<&bilinear>); });

static Library composite_explicit_trilinear(Library::IMPL, "aten",
                                            DispatchKey::CompositeExplicitAutograd, [](Library& m) {
                                              m.impl("_trilinear", fn<&_trilinear>);
                                              m.impl("_trilinear.out", fn<&_trilinear_out>);
                                            });

}  // namespace opscope::composite
