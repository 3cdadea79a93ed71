# A cross-entropy kernel that reads the target logit at the label before the
# label is tested for ignore_index (KC307): for an ignored row the address
# is `row * V - 100`. `kcheck verify --run "python3 run_gather.py" gather.py`
# runs the command under compute-sanitizer memcheck.
import torch
import triton
import triton.language as tl


@triton.jit
def ce_loss_kernel(logits, labels, loss_ptr, V, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    label = tl.load(labels + row)
    x_y = tl.load(logits + row * V + label).to(tl.float32)
    cols = tl.arange(0, BLOCK)
    x = tl.load(logits + row * V + cols, mask=cols < V, other=float("-inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    lse = tl.log(tl.sum(tl.exp(x - m), axis=0)) + m
    loss = tl.where(label == ignore_index, 0.0, lse - x_y)
    tl.store(loss_ptr + row, loss)


def ce_loss(logits, labels, ignore_index=-100):
    n, V = logits.shape
    loss = torch.empty(n, device=logits.device, dtype=torch.float32)
    ce_loss_kernel[(n,)](logits, labels, loss, V, ignore_index, BLOCK=triton.next_power_of_2(V))
    return loss
