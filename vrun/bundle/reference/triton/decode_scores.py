"""Decode attention scores reference kernel (Triton).

Ops: decode_scores (fp16 q/K, fp32 scores), decode_scores_fp32 (seed 003).

    scores[b, h, l] = sum_d q[b, h, d] * k[b, l, h, d]     (fp32 accumulation)

q is [B, H, D] and k is [B, L, H, D], both contiguous: for one (b, l) the
H*D values of all heads are contiguous.  The op is a pure stream over K, so
each program owns one batch b, a group of BLOCK_H heads (all heads when
H*D is small enough) and a range of L_PER_PROG positions, and walks it in
[BLOCK_L, BLOCK_H, BLOCK_D] tiles with a runtime loop: every tile is one
contiguous piece of K (D fastest, 16-byte vector loads), read exactly once.
q for those heads is loaded once per program and kept in registers.  The
dot products reduce over the D axis of the tile; scores are written as a
[BLOCK_L, BLOCK_H] block (their bytes are 2/D of K's for fp16).

No tl.view/tl.reshape is used: the q block is broadcast with q[None, :, :],
which keeps element order (see KC301 and seed 003).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def _decode_scores_kernel(q_ptr, k_ptr, s_ptr, H, L, L_PER_PROG,
                          D: tl.constexpr, BLOCK_D: tl.constexpr, BLOCK_H: tl.constexpr,
                          BLOCK_L: tl.constexpr, EVEN_HD: tl.constexpr):
    pid_l = tl.program_id(0)
    pid_h = tl.program_id(1)
    b = tl.program_id(2).to(tl.int64)
    hs = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    ds = tl.arange(0, BLOCK_D)
    hmask = hs < H
    dmask = ds < D
    q_ptrs = q_ptr + b * H * D + hs[:, None] * D + ds[None, :]
    if EVEN_HD:
        q = tl.load(q_ptrs)
    else:
        q = tl.load(q_ptrs, mask=hmask[:, None] & dmask[None, :], other=0.0)
    q = q.to(tl.float32)

    l_begin = pid_l.to(tl.int64) * L_PER_PROG
    l_end = tl.minimum(l_begin + L_PER_PROG, L)
    k_b = k_ptr + b * L * H * D
    s_b = s_ptr + b * H * L
    hd_off = hs[None, :, None] * D + ds[None, None, :]
    row_len = H * D
    for l0 in tl.range(l_begin, l_end, BLOCK_L):
        ls = l0 + tl.arange(0, BLOCK_L)
        lmask = ls < l_end
        k_ptrs = k_b + ls[:, None, None] * row_len + hd_off
        if EVEN_HD:
            kt = tl.load(k_ptrs, mask=lmask[:, None, None], other=0.0,
                         eviction_policy="evict_first")
        else:
            kt = tl.load(k_ptrs,
                         mask=lmask[:, None, None] & hmask[None, :, None] & dmask[None, None, :],
                         other=0.0, eviction_policy="evict_first")
        sc = tl.sum(kt.to(tl.float32) * q[None, :, :], axis=2)
        tl.store(s_b + hs[None, :] * L + ls[:, None], sc,
                 mask=lmask[:, None] & hmask[None, :])


def _decode_config(B, H, L, D):
    block_d = triton.next_power_of_2(D)
    block_h = min(triton.next_power_of_2(H), max(1, 4096 // block_d))
    tile = 8192
    block_l = max(1, tile // (block_h * block_d))
    block_l = min(block_l, max(1, triton.next_power_of_2(L)))
    n_hb = triton.cdiv(H, block_h)
    # about 4096 programs in all; each walks L_PER_PROG positions
    chunks = max(1, triton.cdiv(4096, B * n_hb))
    l_per_prog = triton.cdiv(triton.cdiv(L, chunks), block_l) * block_l
    elems = block_l * block_h * block_d
    num_warps = 8 if elems >= 8192 else (4 if elems >= 2048 else 2)
    return block_d, block_h, block_l, n_hb, l_per_prog, num_warps


def decode_scores(q, k, B=None, H=None, L=None, D=None, **_):
    """scores [B, H, L] fp32 = q [B, H, D] . k [B, L, H, D] over D.

    q and k: float16, bfloat16 or float32 (the same dtype); fp32 accumulation.
    Used for both decode_scores (fp16) and decode_scores_fp32."""
    if q.dim() != 3 or k.dim() != 4:
        raise ValueError("q must be [B, H, D] and k [B, L, H, D]; got %s and %s"
                         % (tuple(q.shape), tuple(k.shape)))
    b_, h_, d_ = q.shape
    if k.shape[0] != b_ or k.shape[2] != h_ or k.shape[3] != d_:
        raise ValueError("k shape %s does not match q shape %s" % (tuple(k.shape), tuple(q.shape)))
    l_ = k.shape[1]
    for name, given, actual in (("B", B, b_), ("H", H, h_), ("L", L, l_), ("D", D, d_)):
        if given is not None and int(given) != actual:
            raise ValueError("%s=%d does not match the tensors (%d)" % (name, given, actual))
    if q.dtype != k.dtype:
        raise TypeError("q and k must have the same dtype (%s vs %s)" % (q.dtype, k.dtype))
    q = q.contiguous()
    k = k.contiguous()
    scores = torch.empty((b_, h_, l_), device=q.device, dtype=torch.float32)
    if b_ == 0 or h_ == 0 or l_ == 0:
        return scores
    if d_ == 0:
        return scores.zero_()
    block_d, block_h, block_l, n_hb, l_per_prog, num_warps = _decode_config(b_, h_, l_, d_)
    even_hd = (h_ % block_h == 0) and (block_d == d_)
    grid = (triton.cdiv(l_, l_per_prog), n_hb, b_)
    _decode_scores_kernel[grid](q, k, scores, h_, l_, l_per_prog,
                                D=d_, BLOCK_D=block_d, BLOCK_H=block_h, BLOCK_L=block_l,
                                EVEN_HD=even_hd, num_warps=num_warps)
    return scores
