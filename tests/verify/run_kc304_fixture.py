# The user's own command for verify --run on
# tests/fixtures/KC304_int32-offset-overflow/bad_first_dim_rows.py: each of
# its three row kernels once, at a test's size (far below 2^31 elements);
# kcheck's replay takes the launches past 2^31 (docs/verify-results.md).
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures",
                                "KC304_int32-offset-overflow"))
import bad_first_dim_rows as rows  # noqa: E402


def main():
    torch.manual_seed(0)
    x = torch.randn(64, 1000, device="cuda")
    rows.run_softmax(x)
    q = torch.randn(256, 384, device="cuda").to(torch.float8_e4m3fn)
    s = torch.rand(2, 3, device="cuda")
    y = rows.run_dequant(q, s)
    assert torch.allclose(y[:128, :128].float(), (q[:128, :128].float() * s[0, 0]).to(torch.bfloat16).float())
    h = torch.randn(100, 2 * 96, device="cuda", dtype=torch.float16)
    rows.run_silu_and_mul(h)
    torch.cuda.synchronize()
    print("fixture kernels ran")


if __name__ == "__main__":
    main()
