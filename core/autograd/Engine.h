// The backward engine: runs the graph of Nodes from some roots back to the leaves.
//
// Semantically, backward(roots, grads) computes, for every tensor the roots depend on, the
// gradient of sum(root_i * grad_i) with respect to it, and hands it to that tensor's node:
// AccumulateGrad adds it into a leaf's .grad; grad() instead returns the gradients of the
// tensors asked for and touches no .grad. A node runs once, after every node that sends it a
// gradient has run (so a tensor used twice gets the sum of both gradients), and later-created
// nodes run first — the reverse of the forward order, as in micrograd's topological walk.
//
//   Node* order:  loss ◄── SumBackward0 ◄── MulBackward0 ◄── AccumulateGrad(x)
//   dependencies: how many edges point at each node from the part of the graph being run;
//   ready queue:  nodes whose dependencies are all in, highest sequence number first.
//
// In implementation terms the engine runs on the calling thread (CPU only so far). Gradients
// arriving at a node are summed in its input buffer; the gradient a node returns for an edge is
// checked against the receiving node's InputMetadata, and reduced by summation to the shape of a
// broadcast input, or converted to its dtype. With create_graph the formulas run with grad mode
// on, so the gradients have a graph of their own (double backward). Several threads may run
// backward at once, each its own graph task; where their graphs share a leaf, its accumulation is
// serialized (Note [Concurrent accumulation] in Engine.cpp). The engine runs without the GIL:
// the Python hooks and Functions it calls take it themselves.
#pragma once

#include <optional>

#include "core/autograd/Node.h"

namespace opscope::autograd {

struct BackwardOptions {
  bool keep_graph = false;    // retain_graph: keep what the nodes saved for another backward
  bool create_graph = false;  // record the backward ops themselves
};

// tensors.backward(grad_tensors): accumulates into the .grad of the leaves they depend on (only
// into those of `inputs` when given). An undefined grad stands for ones_like(root) (scalar roots
// only).
void backward(const variable_list& roots, variable_list grads, const BackwardOptions& options,
              const variable_list& inputs = {});

// autograd.grad(outputs, inputs, grad_outputs): the gradients of `inputs`, without touching
// .grad. An input the outputs do not depend on gets an undefined tensor if allow_unused, an error
// otherwise (torch's message).
variable_list grad(const variable_list& outputs, const variable_list& inputs, variable_list grads,
                   const BackwardOptions& options, bool allow_unused);

}  // namespace opscope::autograd
