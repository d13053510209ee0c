// CUDACachingAllocator: where CUDA tensors' memory comes from.
//
// Semantically each CUDA device has one caching allocator (the bookkeeping of
// core/cuda/host/CachingAllocator.h over cudaMalloc / cudaFree, Note [Caching allocator rules]),
// seen by the rest of opscope as an opscope::Allocator of that device: a tensor's storage takes a
// block on the current stream when it is made and gives it back when its last view goes, and every
// allocation and free reaches the allocation observers (the recorder's memory events, the views'
// memory timeline, OPSCOPE_LOG=alloc) with device cuda:N.
//
// How a kernel gets memory: `empty_cuda(sizes, dtype, device)` / `empty_strided_cuda` below (or
// make_empty(sizes, dtype, device) under a CUDAGuard of that device: get_allocator(CUDA) is the
// current device's).
#pragma once

#include "core/cuda/CUDAStream.h"
#include "core/cuda/host/CachingAllocator.h"
#include "core/runtime/Allocator.h"
#include "core/tensor/Tensor.h"

namespace opscope::cuda {

// The opscope::Allocator of device `index` (its device() is cuda:index); -1: the current device.
Allocator* cuda_allocator(int index = -1);
// The bookkeeping of device `index`: stats, snapshot, empty_cache.
DeviceCachingAllocator& caching_allocator(int index);
// The devices whose caching allocator exists (was used).
std::vector<int> devices_in_use();
// Gives every device's unused cached segments back to the driver.
void empty_cache();
// tensor.record_stream(stream): the tensor's block is also used on `stream` (see the Note).
void record_stream(const Tensor& tensor, const CUDAStream& stream);

// New uninitialised CUDA tensors on `device` (cuda or cuda:N), allocated on its current stream.
Tensor empty_cuda(IntArrayRef sizes, ScalarType dtype, Device device);
Tensor empty_strided_cuda(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, Device device);

}  // namespace opscope::cuda
