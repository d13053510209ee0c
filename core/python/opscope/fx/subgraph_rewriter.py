"""replace_pattern: find every copy of a small traced function in a graph and swap in another.

    def pattern(x, y):
        return (x + y).relu()

    def replacement(x, y):
        return (x - y).sigmoid()

    opscope.fx.replace_pattern(gm, pattern, replacement)   # [Match(anchor=..., nodes_map=...)]

Both functions are traced; a match is a set of nodes of ``gm.graph`` with the pattern's ops and
targets wired the same way, where the pattern's inputs may stand for any node or value (the same
one each time they are used), and whose nodes other than the returned ones are used only inside
the match. Matches are taken in graph order and never overlap; each is replaced by a copy of the
replacement graph fed with the matched inputs, then ``gm`` is recompiled. As torch.fx's
subgraph_rewriter (PyTorch 1.13).
"""
import copy
from typing import Dict, NamedTuple

from opscope.fx._symbolic_trace import symbolic_trace
from opscope.fx.graph_module import GraphModule
from opscope.fx.node import Node

__all__ = ["Match", "replace_pattern"]


class Match(NamedTuple):
    anchor: Node                  # the pattern's node the search started from (as torch 1.13:
                                  # a node of the pattern, not of the graph)
    nodes_map: Dict[Node, Node]   # pattern node -> graph node


def _flatten(args):
    """The leaves of an argument structure (tuples, lists, dicts by value), in order."""
    if isinstance(args, (tuple, list)):
        return [leaf for a in args for leaf in _flatten(a)]
    if isinstance(args, dict):
        return [leaf for v in args.values() for leaf in _flatten(v)]
    return [args]


class _Matcher:
    """Matches a pattern graph (its placeholders free) against subgraphs of another graph."""

    def __init__(self, pattern):
        self.placeholders = [n for n in pattern.nodes if n.op == "placeholder"]
        output = next(iter(reversed(pattern.nodes)))
        self.returning = output.all_input_nodes
        # Matching starts from the returned nodes used only by the output (the pattern's roots).
        self.anchors = [n for n in self.returning if len(n.users) == 1]

    @staticmethod
    def _same_op(pn, gn):
        if pn.op == "placeholder":
            return True
        return pn.op == gn.op and (pn.op == "output" or pn.target == gn.target)

    def _match_value(self, pv, gv, nodes_map):
        if isinstance(pv, Node) and isinstance(gv, Node):
            return self._match_node(pv, gv, nodes_map)
        if isinstance(pv, Node):            # a pattern input standing for a constant
            if pv.op != "placeholder":
                return False
            if pv in nodes_map:
                return nodes_map[pv] == gv
            nodes_map[pv] = gv
            return True
        if isinstance(gv, Node):
            return False
        return type(pv) == type(gv) and pv == gv

    def _match_node(self, pn, gn, nodes_map):
        if pn in nodes_map:
            return nodes_map[pn] is gn
        if gn in nodes_map.values() or not self._same_op(pn, gn):
            return False
        saved = dict(nodes_map)
        nodes_map[pn] = gn
        if pn.op == "placeholder":
            return True
        ok = pn.kwargs.keys() == gn.kwargs.keys()
        if ok:
            p_leaves = _flatten(pn.args) + _flatten([pn.kwargs[k] for k in pn.kwargs])
            g_leaves = _flatten(gn.args) + _flatten([gn.kwargs[k] for k in pn.kwargs])
            ok = len(p_leaves) == len(g_leaves) and all(
                self._match_value(p, g, nodes_map) for p, g in zip(p_leaves, g_leaves))
        if not ok:
            nodes_map.clear()
            nodes_map.update(saved)
        return ok

    def _contained(self, nodes_map):
        # Inner nodes (not inputs, not returned) may be used only by nodes of the match.
        matched = {gn: pn for pn, gn in nodes_map.items() if isinstance(gn, Node)}
        for gn, pn in matched.items():
            if pn.op == "placeholder" or pn in self.returning:
                continue
            if any(user not in matched for user in gn.users):
                return False
        return True

    @staticmethod
    def _fusable(compute_nodes):
        # Replacing the match must not make a cycle: no path may leave the match and come back.
        inside = set(compute_nodes)
        seen = set()
        stack = [u for n in compute_nodes for u in n.users if u not in inside]
        while stack:
            n = stack.pop()
            if n in inside:
                return False
            if n not in seen:
                seen.add(n)
                stack.extend(n.users)
        return True

    def match(self, graph):
        candidates = [(a, [n for n in graph.nodes if self._same_op(a, n)]) for a in self.anchors]
        found = []

        def search(i, nodes_map):
            if i == len(candidates):
                found.append(dict(nodes_map))
                return
            anchor, nodes = candidates[i]
            for node in nodes:
                attempt = dict(nodes_map)
                if self._match_node(anchor, node, attempt):
                    search(i + 1, attempt)
        search(0, {})

        matches = []
        taken = set()
        for nodes_map in found:
            compute = [gn for pn, gn in nodes_map.items() if pn.op not in ("placeholder", "output")]
            if not self._contained(nodes_map) or not self._fusable(compute):
                continue
            if any(gn in taken for gn in compute):
                continue
            taken.update(compute)
            matches.append(nodes_map)
        return matches


def _replace_submodules(gm, replacement):
    gm.delete_all_unused_submodules()
    if isinstance(replacement, GraphModule):
        replacement.graph.lint()
    for node in gm.graph.nodes:
        if node.op not in ("call_module", "get_attr"):
            continue
        try:
            gm.get_submodule(node.target)
            continue
        except AttributeError:
            pass
        try:
            replacement.get_submodule(node.target)
        except AttributeError:
            raise RuntimeError('Attempted to create a "', node.op, '" node during subgraph '
                               f"rewriting with target {node.target}, but the referenced "
                               "submodule does not exist in either the original GraphModule "
                               "`gm` or the replacement GraphModule `replacement`") from None
        gm.add_submodule(node.target, copy.deepcopy(getattr(replacement, node.target)))
    gm.graph.lint()


def replace_pattern(gm, pattern, replacement):
    """Replace every non-overlapping match of pattern in gm.graph by replacement (functions or
    modules, traced); returns the Matches, in graph order. See the module docstring."""
    import opscope
    graph = gm.graph
    pattern_graph = symbolic_trace(pattern).graph
    replacement_graph = symbolic_trace(replacement).graph
    matcher = _Matcher(pattern_graph)
    found = matcher.match(graph)
    replacement_inputs = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    replaced = {}    # a returned node of an earlier match -> what replaced it
    for nodes_map in found:
        inputs = [nodes_map[pn] for pn in matcher.placeholders]
        returning = [nodes_map[pn] for pn in matcher.returning]
        assert len(inputs) == len(replacement_inputs)
        val_map = {rn: replaced.get(gn, gn) for rn, gn in zip(replacement_inputs, inputs)}
        users = {u for n in returning for u in n.users}
        assert users, "The returning_nodes should have at least one user node"
        first_user = next(n for n in graph.nodes if n in users)
        with graph.inserting_before(first_user):
            copied = graph.graph_copy(replacement_graph, val_map)
        if isinstance(copied, Node):
            copied = (copied,)
        assert len(returning) == len(copied)
        for gn, new in zip(returning, copied):
            gn.replace_all_uses_with(new)
            replaced[gn] = new
        for pn in reversed(pattern_graph.nodes):
            if pn.op not in ("placeholder", "output"):
                graph.erase_node(nodes_map[pn])
    gm.recompile()
    if isinstance(replacement, opscope.nn.Module):
        _replace_submodules(gm, replacement)
    return [Match(anchor=matcher.anchors[0], nodes_map=nodes_map)
            for nodes_map in found]
