"""How kcheck_replay.py scales a recorded launch past 2^31 elements (its
pure-Python planning; the GPU part ran on an H200, docs/verify-results.md):
rows found from the grid and the tensors, block sizes told apart, a tensor
with one row per program grown with the grid, the memory a replay needs,
and the launches it cannot scale, with the reason.

    check_replay_plan.py SOURCE_DIR"""
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "src", "verify"))
import kcheck_replay as r  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def t(name, shape, itemsize=4, stride=None):
    if stride is None:
        stride, acc = [], 1
        for s in reversed(shape):
            stride.insert(0, acc)
            acc *= s
    return {"name": name, "tensor": {"shape": shape, "stride": stride, "itemsize": itemsize}}


def v(name, value, constexpr=False, kw=False):
    return {"name": name, "value": value, "constexpr": constexpr, "kw": kw}


# one program per row (a softmax): grid (M,), every row tensor tiled
p, why = r.plan_scale([4, 1, 1], [t("Y", [4, 16]), t("X", [4, 16]), v("stride", 16), v("n_cols", 16),
                                   v("BLOCK", 16, True, True)])
check(why is None, "row softmax: %s" % why)
check(p["rows"] == 4 and p["block"] == 1, "row softmax rows/block: %r" % p)
check(p["new_rows"] * 16 - 1 >= 1 << 31, "row softmax passes 2^31: %d" % p["new_rows"])
check(p["grid"] == [p["new_rows"], 1, 1], "row softmax grid: %r" % p["grid"])
check(p["past_2_31"] == ["Y", "X"], "row softmax tensors past 2^31: %r" % p["past_2_31"])
check(p["bytes_per_copy"] == 2 * p["new_rows"] * 16 * 4, "row softmax bytes: %d" % p["bytes_per_copy"])
check(p["ints"] == {}, "row softmax leaves the stride and widths: %r" % p["ints"])

# a block of rows per program, M passed: cdiv(100, 64) == cdiv(100, 96) == 2;
# the constexpr power of two is the block (96 is the row width of a gate)
args = [t("inp", [100, 192], 2), v("stride_m", 192), v("stride_n", 1), v("size_m", 100), v("size_n", 96),
        v("BLOCK_M", 64, True), v("BLOCK_N", 64, True)]
p, why = r.plan_scale([2, 2, 1], args)
check(why is None and p["block"] == 64, "block of rows: %r %s" % (p and p["block"], why))
check(p["ints"] == {"size_m": p["new_rows"]}, "block of rows scales size_m: %r" % p["ints"])
check(p["grid"][0] == -(-p["new_rows"] // 64) and p["grid"][1:] == [2, 1], "block of rows grid: %r" % p["grid"])
# without constexpr marks the power of two still wins over 96
for a in args:
    a.pop("constexpr", None)
p, _ = r.plan_scale([2, 2, 1], args)
check(p["block"] == 64, "power of two before 96: %r" % p["block"])

# a scale per block of rows: grows with the grid when the block divides M
p, why = r.plan_scale([2, 3, 1], [t("x", [256, 384], 1), t("s", [2, 3]), t("y", [256, 384], 2), v("M", 256),
                                   v("N", 384), v("BLOCK", 128, True, True)])
shapes = {x["name"]: x["shape"] for x in p["tensors"]}
check(shapes["s"] == [2 * p["factor"], 3], "per-program scales follow the grid: %r" % shapes)
check(p["grid"] == [2 * p["factor"], 3, 1], "dequant grid: %r" % p["grid"])

# rows flattened from (batch, seq): the outer dimension grows
p, why = r.plan_scale([10, 1, 1], [t("q", [2, 5, 8, 64], 2), v("n_row", 10)])
check(why is None and p["tensors"][0]["shape"] == [2 * p["factor"], 5, 8, 64], "flattened rows: %r" % p)
check(p["ints"] == {"n_row": p["new_rows"]}, "flattened rows count: %r" % p["ints"])

# a transposed view is not rows laid out outermost: nothing to scale
p, why = r.plan_scale([8, 1, 1], [t("x", [8, 1000], 4, [1, 8]), v("n", 8)])
check(p is None and "no tensor of the launch has one row per program" in why, "transposed: %r %s" % (p, why))
# a grid that matches nothing
p, why = r.plan_scale([7, 1, 1], [t("x", [8, 1000]), v("n", 8)])
check(p is None and "(7)" in why, "no rows: %s" % why)
# a scaled grid past 2^31-1 programs on its first axis
p, why = r.plan_scale([3, 1, 1], [t("x", [3]), v("n", 3)], limit_elems=1 << 40)
check(p is None and "2^31-1 programs" in why, "grid limit: %s" % why)

for f in failures:
    print("FAIL:", f)
print("ok: replay planning" if not failures else "%d failures" % len(failures))
sys.exit(1 if failures else 0)
