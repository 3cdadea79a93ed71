"""Cross-entropy reference kernels (Triton).

Ops (see kernels/reference/ops/):
  cross_entropy_fwd, cross_entropy_fwd_bf16  -> cross_entropy_fwd()
  cross_entropy_fwd_bwd, cross_entropy_fwd_bwd_bf16 -> cross_entropy_fwd_bwd()

loss[i] = logsumexp(logits[i, :]) - logits[i, target[i]]   (fp32 accumulation)

Options of the Python functions (keyword arguments; the op specs use the
defaults): ignore_index (-100), label_smoothing eps in [0, 1] (0.0), with
PyTorch's semantics for class-index targets,

    loss[i] = lse_i - (1 - eps) * x_i[t_i] - (eps / N) * sum_j x_i[j],

and, for cross_entropy_fwd, reduction 'none' (default, the op spec's
output), 'mean' or 'sum'.  The row sum is accumulated in the same single
pass over the row; SMOOTH is a constexpr, so eps == 0 compiles the kernel
without it.

One program per row.  The row is streamed once in chunks of BLOCK_N (16 KiB)
with a runtime loop (tl.range, never unrolled over the vocabulary) and an
online logsumexp: a running max m (a scalar) and a per-lane running sum s
that is rescaled by exp(m_old - m_new) when the max grows, so each logit
costs one exp2.  The target logit is read once with a scalar load before
the loop.  Row offsets are int64 (row * N exceeds 2^31 for LLM vocabularies).

The fused forward+backward kernel makes a second pass over the row (it is
usually still in L2) and writes dlogits = (softmax(logits) - onehot(target))
* grad_scale in place of the logits, in the logits' dtype, as Liger-Kernel
and Unsloth do.
"""
import torch
import triton
import triton.language as tl

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)
LN2: tl.constexpr = tl.constexpr(0.6931471805599453)


@triton.jit
def _ce_max_sum(a_max, a_sum, b_max, b_sum):
    return tl.maximum(a_max, b_max), a_sum + b_sum


@triton.jit
def _ce_row_stats(row_ptr, N, BLOCK_N: tl.constexpr, STREAM: tl.constexpr, SMOOTH: tl.constexpr):
    """(logsumexp, sum) of row_ptr[0:N] in fp32, one pass, online; the sum
    only with SMOOTH (0.0 otherwise).  STREAM: the row is not read again
    (evict-first loads)."""
    cols = tl.arange(0, BLOCK_N)
    # A finite floor, not -inf: a chunk of -inf logits (a masked vocabulary
    # range) then gives 2^(-inf) = 0 instead of NaN from (-inf) - (-inf).
    m = -1.0e30
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    sx = 0.0   # the row sum (SMOOTH)
    for start in tl.range(0, N, BLOCK_N):
        offs = start + cols
        mask = offs < N
        if STREAM:
            x = tl.load(row_ptr + offs, mask=mask, other=float("-inf"),
                        eviction_policy="evict_first").to(tl.float32)
        else:
            x = tl.load(row_ptr + offs, mask=mask, other=float("-inf")).to(tl.float32)
        if SMOOTH:
            # the chunk's max and sum in one reduction tree (no per-lane sum
            # registers, no extra barrier); the -inf padding stays out of the sum
            c_max, c_sum = tl.reduce((x, tl.where(mask, x, 0.0)), 0, _ce_max_sum)
            sx += c_sum
        else:
            c_max = tl.max(x, axis=0)
        m_new = tl.maximum(m, c_max)
        s = s * tl.exp2((m - m_new) * LOG2E) + tl.exp2(x * LOG2E - m_new * LOG2E)
        m = m_new
    return m + tl.log2(tl.sum(s, axis=0)) * LN2, sx


@triton.jit
def _ce_row_loss(lse, sum_x, x_t, t, N, ignore_index, eps, SMOOTH: tl.constexpr):
    """The loss of one row: NaN for a target outside [0, N), 0 for ignore_index."""
    if SMOOTH:
        loss = lse - (1.0 - eps) * x_t - (eps / N) * sum_x
    else:
        loss = lse - x_t
    loss = tl.where((t >= 0) & (t < N), loss, float("nan"))
    return tl.where(t == ignore_index, 0.0, loss)


@triton.jit
def _ce_fwd_kernel(logits_ptr, target_ptr, loss_ptr, N, stride_row, ignore_index, eps,
                   BLOCK_N: tl.constexpr, SMOOTH: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_row
    t = tl.load(target_ptr + row).to(tl.int64)
    valid = (t >= 0) & (t < N)
    # the target logit: one scalar load, outside the vocabulary loop
    x_t = tl.load(row_ptr + tl.where(valid, t, 0)).to(tl.float32)
    lse, sum_x = _ce_row_stats(row_ptr, N, BLOCK_N, True, SMOOTH)
    tl.store(loss_ptr + row, _ce_row_loss(lse, sum_x, x_t, t, N, ignore_index, eps, SMOOTH))


@triton.jit
def _ce_fwd_bwd_kernel(logits_ptr, target_ptr, loss_ptr, N, stride_row, grad_scale,
                       ignore_index, eps, BLOCK_N: tl.constexpr, SMOOTH: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_row
    t = tl.load(target_ptr + row).to(tl.int64)
    valid = (t >= 0) & (t < N)
    x_t = tl.load(row_ptr + tl.where(valid, t, 0)).to(tl.float32)
    # pass 1: keep the row in L2 for pass 2 (default eviction policy)
    lse, sum_x = _ce_row_stats(row_ptr, N, BLOCK_N, False, SMOOTH)
    tl.store(loss_ptr + row, _ce_row_loss(lse, sum_x, x_t, t, N, ignore_index, eps, SMOOTH))
    # pass 2, in place: dlogits = (softmax - onehot) * grad_scale, with SMOOTH
    # (softmax - (1 - eps) * onehot - eps / N) * grad_scale
    scale = tl.where(t == ignore_index, 0.0, grad_scale)
    lse2 = lse * LOG2E
    cols = tl.arange(0, BLOCK_N)
    for start in tl.range(0, N, BLOCK_N):
        offs = start + cols
        mask = offs < N
        x = tl.load(row_ptr + offs, mask=mask, other=0.0,
                    eviction_policy="evict_first").to(tl.float32)
        p = tl.exp2(x * LOG2E - lse2)
        if SMOOTH:
            g = (p - tl.where(offs == t, 1.0 - eps, 0.0) - eps / N) * scale
        else:
            g = (p - tl.where(offs == t, 1.0, 0.0)) * scale
        tl.store(row_ptr + offs, g.to(logits_ptr.dtype.element_ty), mask=mask)


def _ce_config(N, elem_size):
    """BLOCK_N covers 16 KiB of logits; 8 warps then load 4 x 16 B per thread."""
    block_n = min(triton.next_power_of_2(N), 16384 // elem_size)
    block_n = max(block_n, 128)
    num_warps = max(1, min(8, (block_n * elem_size) // 2048))
    return block_n, num_warps


def _prepare(logits, target, M, N):
    if logits.dim() != 2:
        raise ValueError("logits must be 2-D [M, N], got shape %s" % (tuple(logits.shape),))
    m_, n_ = logits.shape
    if M is not None and int(M) != m_:
        raise ValueError("M=%d does not match logits.shape[0]=%d" % (M, m_))
    if N is not None and int(N) != n_:
        raise ValueError("N=%d does not match logits.shape[1]=%d" % (N, n_))
    if target.shape != (m_,):
        raise ValueError("target must have shape [M]=[%d], got %s" % (m_, tuple(target.shape)))
    if n_ < 1:
        raise ValueError("N must be >= 1")
    if logits.dtype not in (torch.float32, torch.bfloat16, torch.float16):
        raise TypeError("logits must be float32, bfloat16 or float16, got %s" % logits.dtype)
    return m_, n_, target.contiguous()


def _smoothing(label_smoothing):
    eps = float(label_smoothing)
    if not 0.0 <= eps <= 1.0:   # also rejects NaN
        raise ValueError("label_smoothing must be in [0, 1], got %r" % (label_smoothing,))
    return eps


def cross_entropy_fwd(logits, target, M=None, N=None, ignore_index=-100, label_smoothing=0.0,
                      reduction="none", **_):
    """loss[i] = logsumexp(logits[i]) - logits[i, target[i]] (fp32 [M]).

    logits: [M, N] float32/bfloat16/float16 with unit column stride; target:
    [M] int64.  Rows whose target == ignore_index get loss 0; other targets
    outside [0, N) give NaN (never an out-of-bounds read).

    label_smoothing eps in [0, 1]: loss[i] = lse_i - (1 - eps) * x_i[t_i] -
    (eps / N) * sum_j x_i[j], as F.cross_entropy(label_smoothing=eps).
    reduction: 'none' (the fp32 [M] losses), 'sum' (their sum, a 0-d fp32
    tensor) or 'mean' (the sum divided by the number of rows whose target is
    not ignore_index; NaN when there are none, as in PyTorch).  The sum is a
    torch reduction of the per-row losses after the kernel.
    """
    eps = _smoothing(label_smoothing)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError("reduction must be 'none', 'mean' or 'sum', got %r" % (reduction,))
    m_, n_, target = _prepare(logits, target, M, N)
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    loss = torch.empty(m_, device=logits.device, dtype=torch.float32)
    if m_ > 0:
        block_n, num_warps = _ce_config(n_, logits.element_size())
        _ce_fwd_kernel[(m_,)](logits, target, loss, n_, logits.stride(0), int(ignore_index), eps,
                              BLOCK_N=block_n, SMOOTH=eps != 0.0, num_warps=num_warps)
    if reduction == "none":
        return loss
    total = loss.sum()
    if reduction == "sum":
        return total
    return total / (target != ignore_index).sum()


def cross_entropy_fwd_bwd(logits, target, M=None, N=None, grad_scale=1.0,
                          ignore_index=-100, label_smoothing=0.0, **_):
    """Fused forward + backward.  Returns (loss, logits): loss is fp32 [M];
    logits is overwritten in place with dlogits = (softmax(logits) -
    onehot(target)) * grad_scale (rows with target == ignore_index get 0).
    grad_scale is the upstream gradient of each loss element (1.0 for
    reduction='none' with unit upstream grads, 1/n for a mean over n
    non-ignored rows).  label_smoothing eps: the loss as in
    cross_entropy_fwd, and dlogits = (softmax - (1 - eps) * onehot - eps / N)
    * grad_scale."""
    eps = _smoothing(label_smoothing)
    m_, n_, target = _prepare(logits, target, M, N)
    if logits.stride(1) != 1:
        raise ValueError("cross_entropy_fwd_bwd writes in place: logits needs unit column stride")
    loss = torch.empty(m_, device=logits.device, dtype=torch.float32)
    if m_ == 0:
        return loss, logits
    block_n, num_warps = _ce_config(n_, logits.element_size())
    _ce_fwd_bwd_kernel[(m_,)](logits, target, loss, n_, logits.stride(0), float(grad_scale),
                              int(ignore_index), eps, BLOCK_N=block_n, SMOOTH=eps != 0.0,
                              num_warps=num_warps)
    return loss, logits
