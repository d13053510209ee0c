"""``opscope.optim.LBFGS``: limited-memory BFGS — each step runs up to max_iter iterations of
quasi-Newton descent on the loss the closure evaluates, the inverse Hessian approximated from the
last history_size pairs of (parameter change s, gradient change y), as torch 1.13's LBFGS (after
minFunc). All parameters are handled as one flat vector. One iteration:

    d = -H g       (two-loop recursion over the history; H = I * (y.s / y.y) scaled, -g at first)
    t = lr         (first iteration ever: min(1, 1 / |g|_1) * lr)
    p += t * d     (line_search_fn="strong_wolfe": t found by a strong-Wolfe line search first)

and it stops early when the gradient or the change of loss, step or direction falls under the
tolerances, or after max_eval closure calls. The state (kept with the first parameter, as torch)
carries the direction, step, history and counters from one step() to the next.

>>> import opscope
>>> w = opscope.nn.Parameter(opscope.tensor([1.5, -0.5], dtype=opscope.float64))
>>> opt = opscope.optim.LBFGS([w], line_search_fn="strong_wolfe")
>>> def closure():
...     opt.zero_grad()
...     loss = ((w - opscope.tensor([3.0, 2.0], dtype=opscope.float64)) ** 2).sum()
...     loss.backward()
...     return loss
>>> float(opt.step(closure))
8.5
>>> [round(v, 6) for v in w.tolist()]
[3.0, 2.0]
"""
from functools import reduce

import opscope

from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimizer of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2, clamped to
    `bounds` (default: the interval between x1 and x2); the bounds' midpoint when the cubic has
    no minimum. The values may be Python numbers or 0-d tensors, as torch's."""
    if bounds is not None:
        xmin_bound, xmax_bound = bounds
    else:
        xmin_bound, xmax_bound = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if not d2_square >= 0:
        return (xmin_bound + xmax_bound) / 2.
    d2 = d2_square.sqrt()
    if x1 <= x2:
        min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(min_pos, xmin_bound), xmax_bound)


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """A step length along `d` that satisfies the strong Wolfe conditions (sufficient decrease,
    c1; curvature, c2), from `t`: first steps outward until an interval brackets one, then
    narrows the bracket by cubic interpolation ("zoom"). `obj_func(x, t, d)` evaluates the loss
    and flat gradient at x + t * d; f, g, gtd are the loss, gradient and slope at t = 0.
    Returns (loss, flat gradient, t, number of evaluations)."""
    d_norm = d.abs().max()
    g = g.clone(memory_format=opscope.contiguous_format)
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)

    # Bracketing: (t_prev, t) grows until it holds a point with the conditions, or one is met.
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone(memory_format=opscope.contiguous_format)]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g = [g_prev, g_new.clone(memory_format=opscope.contiguous_format)]
            bracket_gtd = [gtd_prev, gtd_new]
            break
        # extrapolate: the cubic's minimum, between 1.01 and 10 times the current step
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        previous_t = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(min_step, max_step))
        t_prev, f_prev = previous_t, f_new
        g_prev = g_new.clone(memory_format=opscope.contiguous_format)
        gtd_prev = gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:  # no bracket found: between 0 and the last step
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # Zoom: shrink the bracket around a point with the conditions. low_pos indexes the end with
    # the lower loss.
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break  # the bracket is too small to move the parameters
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1],
                               bracket_f[1], bracket_gtd[1])
        # A point too near an end (within a tenth of the bracket) twice in a row, or outside it,
        # is moved a tenth of the bracket inside.
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False

        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1

        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            # not enough decrease: t becomes the high end
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos] = g_new.clone(memory_format=opscope.contiguous_format)
            bracket_gtd[high_pos] = gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True  # the strong Wolfe conditions hold at t
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                # the slope points away from the high end: the old low end becomes it
                bracket[high_pos] = bracket[low_pos]
                bracket_f[high_pos] = bracket_f[low_pos]
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos] = g_new.clone(memory_format=opscope.contiguous_format)
            bracket_gtd[low_pos] = gtd_new

    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals


class LBFGS(Optimizer):
    r"""L-BFGS, with torch 1.13's arguments and defaults. One parameter group only; all
    parameters on one device.

    Args:
        lr (float): learning rate (default: 1)
        max_iter (int): most iterations per step() (default: 20)
        max_eval (int): most closure evaluations per step() (default: max_iter * 5 // 4)
        tolerance_grad (float): stop when the gradient's largest magnitude is at most this
            (default: 1e-7)
        tolerance_change (float): stop when the loss, or the step's largest element, changes by
            less than this (default: 1e-9)
        history_size (int): (s, y) pairs kept (default: 100)
        line_search_fn (str): "strong_wolfe" or None (default: None, a fixed step of lr)
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                        tolerance_grad=tolerance_grad, tolerance_change=tolerance_change,
                        history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]
        self._numel_cache = None

    # --- the parameters as one flat vector ----------------------------------------------------

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = reduce(lambda total, p: total + p.numel(), self._params, 0)
        return self._numel_cache

    def _gather_flat_grad(self):
        """All gradients as one vector (zeros for a parameter without one). view(-1), as torch:
        a gradient that is not contiguous (a transposed parameter's) raises view's error."""
        views = []
        for p in self._params:
            if p.grad is None:
                views.append(opscope.zeros(p.numel(), dtype=p.dtype, device=p.device))
            else:
                views.append(p.grad.view(-1))
        return opscope.cat(views, 0)

    def _add_grad(self, step_size, update):
        """p += step_size * (p's slice of the flat `update`), for every parameter."""
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel
        assert offset == self._numel()

    def _clone_param(self):
        return [p.clone(memory_format=opscope.contiguous_format) for p in self._params]

    def _set_param(self, params_data):
        for p, pdata in zip(self._params, params_data):
            p.copy_(pdata)

    def _directional_evaluate(self, closure, x, t, d):
        """The loss and flat gradient at x + t * d; the parameters are set back to x."""
        self._add_grad(t, d)
        loss = float(closure())
        flat_grad = self._gather_flat_grad()
        self._set_param(x)
        return loss, flat_grad

    @opscope.no_grad()
    def step(self, closure):
        """Performs one optimization step: up to max_iter iterations.

        Args:
            closure (Callable): re-evaluates the model (zero_grad, loss, backward) and returns
                the loss; called with gradients enabled.

        Returns the loss of the closure's first call.
        """
        assert len(self.param_groups) == 1
        closure = opscope.enable_grad()(closure)
        group = self.param_groups[0]
        lr = group["lr"]
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn = group["line_search_fn"]
        history_size = group["history_size"]

        # the state lives with the first parameter; counters over all steps
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        opt_cond = flat_grad.abs().max() <= tolerance_grad
        if opt_cond:
            return orig_loss  # already optimal

        # what the previous step() left
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        H_diag = state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1

            # the descent direction
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
            else:
                y = flat_grad.sub(prev_flat_grad)  # the gradient's change
                s = d.mul(t)                        # the parameters' change
                ys = y.dot(s)
                if ys > 1e-10:  # curvature positive: the pair joins the history
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1. / ys)
                    H_diag = ys / y.dot(y)  # the initial inverse Hessian's scale
                d = self._two_loop(state, flat_grad, old_dirs, old_stps, ro, H_diag,
                                   history_size)

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone(memory_format=opscope.contiguous_format)
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            # the step length
            if state["n_iter"] == 1:
                t = min(1., 1. / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)  # the slope along d
            if gtd > -tolerance_change:
                break  # d does not descend

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = self._clone_param()

                def obj_func(x, t, d):
                    return self._directional_evaluate(closure, x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj_func, x_init, t, d, loss,
                                                                  flat_grad, gtd)
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:
                    # the loss and gradient for the next iteration (the last one's is not needed)
                    with opscope.enable_grad():
                        loss = float(closure())
                    flat_grad = self._gather_flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            # the stopping conditions
            if n_iter == max_iter or current_evals >= max_eval or opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break  # the step no longer moves the parameters
            if abs(loss - prev_loss) < tolerance_change:
                break  # the loss no longer changes

        state["d"], state["t"] = d, t
        state["old_dirs"], state["old_stps"], state["ro"] = old_dirs, old_stps, ro
        state["H_diag"] = H_diag
        state["prev_flat_grad"], state["prev_loss"] = prev_flat_grad, prev_loss
        return orig_loss

    @staticmethod
    def _two_loop(state, flat_grad, old_dirs, old_stps, ro, H_diag, history_size):
        """d = -H g by the L-BFGS two-loop recursion; the first loop's coefficients are kept in
        state['al'] (a list of history_size entries, as torch)."""
        num_old = len(old_dirs)
        if "al" not in state:
            state["al"] = [None] * history_size
        al = state["al"]
        q = flat_grad.neg()
        for i in range(num_old - 1, -1, -1):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=-al[i])
        d = r = opscope.mul(q, H_diag)
        for i in range(num_old):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=al[i] - be_i)
        return d
