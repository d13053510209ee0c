"""The autograd Functions torch.nn.modules._functions defines for its modules: CrossMapLRN2d, the
legacy (Lua torch) cross-channel local response normalization of nn.CrossMapLRN2d, with its own
forward and backward over 4-D inputs, step for step as torch 1.13's (so values round the same).

Semantically, for x (N, C, H, W): scale = k + alpha / size * (sum of x^2 over the channels
c - (size - 1) / 2 .. c + size / 2), out = x scale^-beta; the backward is the exact gradient of
that, with the window sums kept as a running sum over the channels.
"""
import opscope
from opscope.autograd import Function


class CrossMapLRN2d(Function):
    @staticmethod
    def forward(ctx, input, size, alpha=1e-4, beta=0.75, k=1):
        ctx.size = size
        ctx.alpha = alpha
        ctx.beta = beta
        ctx.k = k
        assert input.dim() == 4
        ctx.scale = input.new().resize_(input.size())
        output = input.new().resize_(input.size())
        channels = input.size(1)

        input_square = output  # output's storage as the squares' buffer
        opscope.pow(input, 2, out=input_square)
        pre_pad = int((ctx.size - 1) / 2 + 1)
        pre_pad_crop = channels if pre_pad > channels else pre_pad

        # the first channel's window sum, then each next one by adding the channel that enters
        # the window and taking away the one that leaves it
        scale_first = ctx.scale.select(1, 0)
        scale_first.zero_()
        for c in range(pre_pad_crop):
            scale_first.add_(input_square.select(1, c))
        for c in range(1, channels):
            scale_current = ctx.scale.select(1, c)
            scale_current.copy_(ctx.scale.select(1, c - 1))
            if c < channels - pre_pad + 1:
                scale_current.add_(input_square.select(1, c + pre_pad - 1), alpha=1)
            if c > pre_pad:
                scale_current.add_(input_square.select(1, c - pre_pad), alpha=-1)

        ctx.scale.mul_(ctx.alpha / ctx.size).add_(ctx.k)
        opscope.pow(ctx.scale, -ctx.beta, out=output)
        output.mul_(input)
        ctx.save_for_backward(input, output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, output = ctx.saved_tensors
        batch_size, channels, input_height, input_width = input.size()
        padded_ratio = input.new().resize_(channels + ctx.size - 1, input_height, input_width)
        accum_ratio = input.new().resize_(input_height, input_width)
        cache_ratio_value = 2 * ctx.alpha * ctx.beta / ctx.size
        inverse_pre_pad = int(ctx.size - (ctx.size - 1) / 2)

        grad_input = grad_output.new().resize_(input.size())
        opscope.pow(ctx.scale, -ctx.beta, out=grad_input).mul_(grad_output)
        padded_ratio.zero_()
        padded_ratio_center = padded_ratio.narrow(0, inverse_pre_pad, channels)
        for n in range(batch_size):
            opscope.mul(grad_output[n], output[n], out=padded_ratio_center)
            padded_ratio_center.div_(ctx.scale[n])
            opscope.sum(padded_ratio.narrow(0, 0, ctx.size - 1), 0, keepdim=False, out=accum_ratio)
            for c in range(channels):
                accum_ratio.add_(padded_ratio[c + ctx.size - 1])
                grad_input[n][c].addcmul_(input[n][c], accum_ratio, value=-cache_ratio_value)
                accum_ratio.add_(padded_ratio[c], alpha=-1)
        return grad_input, None, None, None, None
