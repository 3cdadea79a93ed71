# Seed 000 with N made a tl.constexpr (so that static_range compiles), bound to the cross-entropy reference for `kcheck verify`.
# The binding launches the kernel with the block sizes measured in the report
# (the posted wrapper passes none).
import torch
import triton
import triton.language as tl

DEVICE = torch.device("cuda")


# kcheck: verify op=cross_entropy_fwd call="loss_kernel[(triton.cdiv(M, 4),)](logits, target, loss, M, N, BLOCK_SIZE_M=4, BLOCK_SIZE_N=1024)"
@triton.jit
def loss_kernel(input_ptr,
                target_ptr,
                output_ptr,
                M, N: tl.constexpr,
                BLOCK_SIZE_M: tl.constexpr,
                BLOCK_SIZE_N: tl.constexpr,
               ):
    pid_m = tl.program_id(axis=0)
    offsets_rows = (BLOCK_SIZE_M * pid_m + tl.arange(0, BLOCK_SIZE_M))
    offsets_cols = tl.arange(0, BLOCK_SIZE_N)

    target = tl.load(target_ptr + offsets_rows, mask = offsets_rows < M, other = 0.0)
    max_val = tl.full(target.shape, -float("inf"), dtype = tl.float32)
    sumexp = tl.zeros_like(max_val)

    allcurx = tl.zeros_like(max_val)
    for index in tl.range(0, N, BLOCK_SIZE_N):
        offsets_input = offsets_rows[:, None] * N + (offsets_cols + index)[None, :]
        mask_input = (offsets_rows[:, None] < M) & ((offsets_cols + index)[None, :] < N)
        input_val = tl.load(input_ptr + offsets_input, mask=mask_input, other = -float("inf"))

        if index == 0:
            new_max_val = input_val.max(axis = 1)
        else:
            new_max_val = tl.maximum(max_val, input_val.max(axis = 1))

        sumexp /= tl.exp(new_max_val)
        sumexp *= tl.exp(max_val)
        sumexp += tl.sum(tl.exp(input_val - new_max_val[:, None]), axis = 1)
        max_val = new_max_val

        curx = tl.load(input_ptr + offsets_rows * N + target, mask=(target >= index) & (target < index + BLOCK_SIZE_N), other = 0)
        allcurx += curx
    output = tl.log(sumexp) + max_val - allcurx
    tl.store(output_ptr + offsets_rows, output, mask = offsets_rows < M)

def triton_loss(input: torch.Tensor, target: torch.Tensor):
    M = input.shape[0]
    N = input.shape[1]
    output = torch.empty(target.shape, dtype = torch.float32, device = DEVICE)
    grid_loss = lambda META: (triton.cdiv(input.shape[0], META['BLOCK_SIZE_M']), )
    loss_kernel[grid_loss](input, target, output, M, N)
    return output
