# A vector turned into a row with tl.view, then multiplied with a matrix.
import triton
import triton.language as tl


# kcheck: verify op=decode_scores_fp32 call="scores[(triton.cdiv(L, 64),)](q, k, out, L, D=D, BLOCK_L=64)" sizes="B=1,H=1,L=1003,D=16" outputs=out
@triton.jit
def scores(q_ptr, k_ptr, s_ptr, L, D: tl.constexpr, BLOCK_L: tl.constexpr):
    d = tl.arange(0, D)
    l = tl.program_id(0) * BLOCK_L + tl.arange(0, BLOCK_L)
    q = tl.load(q_ptr + d)
    q_row = tl.view(q, (1, D))
    #       ^ KC301 "`q` ([D] -> [1, D])" "k" "q[None, :]"
    k = tl.load(k_ptr + l[:, None] * D + d[None, :], mask=l[:, None] < L, other=0.0)
    tl.store(s_ptr + l, tl.sum(q_row * k, axis=1), mask=l < L)
