"""KC102 premise: which loop-invariant loads do the compilers hoist by themselves?

Run on a GPU machine from the repository root:

  python3 bench/premise/kc102_hoist.py

CUDA: bench/premise/kc102_hoist.cu is compiled with nvcc -O3 for sm_90, to
PTX and to a cubin; for each kernel the global loads between a loop's head
and its back edge are counted in the PTX (ld.global*) and in the SASS
(LDG*). Every loop holds one load that changes with the loop and one that
does not, so 1 means the compiler hoisted the invariant load and 2 that it
is issued in every pass.

Triton: the kernels below are compiled (launched once on small tensors)
and the loads inside an scf.for are counted in the TTIR and TTGIR, and the
ld.global instructions inside a loop in the PTX. Each kernel's loop holds
one load that changes with the loop plus the invariant one; the expected
count if the invariant load stays in the loop is given as `kept`.

The output is what docs/measurements/kc102-hoist-h200.txt records.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def ptx_loop_loads(text):
    """{kernel: loads inside loops} for PTX text."""
    out = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\n\}", text, re.S):
        name, body = m.group(1), m.group(2)
        lines = body.split("\n")
        labels = {}
        for i, ln in enumerate(lines):
            lm = re.match(r"\s*(\$\w+):", ln)
            if lm:
                labels[lm.group(1)] = i
        inside = set()
        for j, ln in enumerate(lines):
            bm = re.search(r"\bbra(?:\.uni)?\s+(\$\w+);", ln)
            if bm and bm.group(1) in labels and labels[bm.group(1)] < j:
                inside.update(range(labels[bm.group(1)], j + 1))
        out[name] = sum(1 for i in inside if re.search(r"\bld\.global", lines[i]))
    return out


def sass_loop_loads(text):
    """{kernel: LDG inside loops} for cuobjdump -sass text."""
    out = {}
    for m in re.finditer(r"Function : (\w+)\n(.*?)(?=\n\s*Function : |\Z)", text, re.S):
        name, body = m.group(1), m.group(2)
        ins = []
        for ln in body.split("\n"):
            am = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*)", ln)
            if am:
                ins.append((int(am.group(1), 16), am.group(2)))
        inside = set()
        for addr, op in ins:
            bm = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", op)
            if bm and int(bm.group(1), 16) < addr:
                lo = int(bm.group(1), 16)
                inside.update(a for a, _ in ins if lo <= a <= addr)
        out[name] = sum(1 for a, op in ins if a in inside and re.search(r"\bLDG\b", op))
    return out


def cuda_part():
    src = os.path.join(HERE, "kc102_hoist.cu")
    with tempfile.TemporaryDirectory() as d:
        ptx = os.path.join(d, "k.ptx")
        cubin = os.path.join(d, "k.cubin")
        subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-ptx", src, "-o", ptx], check=True)
        p = ptx_loop_loads(open(ptx).read())
        s = {}
        if shutil.which("cuobjdump"):
            subprocess.run(["nvcc", "-O3", "-arch=sm_90", "-cubin", src, "-o", cubin], check=True)
            sass = subprocess.run(["cuobjdump", "-sass", cubin], check=True, capture_output=True, text=True).stdout
            s = sass_loop_loads(sass)
        else:
            print("(no cuobjdump here: SASS not counted, -1 below)")
    print(subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().split("\n")[-1])
    print("CUDA kernel                 PTX loads in loop   SASS LDG in loop   verdict")
    for name in p:
        n = s.get(name, -1)
        verdict = "hoisted" if p[name] <= 1 and n <= 1 else ("kept in every pass" if p[name] >= 2 else "mixed")
        print(f"  {name:26s} {p[name]:5d}              {n:5d}              {verdict}")


def ir_loop_loads(text, op):
    """Loads (`op`) nested inside an scf.for, by indentation of the printed IR."""
    count = 0
    stack = []
    for ln in text.split("\n"):
        ind = len(ln) - len(ln.lstrip())
        s = ln.strip()
        while stack and s.startswith("}") and ind <= stack[-1]:
            stack.pop()
            break
        if stack and re.search(r"\b" + re.escape(op) + r"\b", s):
            count += 1
        if re.search(r"\bscf\.(for|while)\b", s) and s.endswith("{"):
            stack.append(ind)
    return count


def triton_part():
    import torch
    import triton
    import triton.language as tl

    print(f"torch {torch.__version__}, Triton {triton.__version__}, {torch.cuda.get_device_name()}")

    @triton.jit
    def scalar_no_store(x, w, out, N, BLOCK: tl.constexpr):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for s in range(0, N, BLOCK):
            o = s + tl.arange(0, BLOCK)
            acc += tl.load(x + o, mask=o < N, other=0.0) * tl.load(w)
        tl.store(out + tl.arange(0, BLOCK), acc)

    @triton.jit
    def block_no_store(x, w, out, N, BLOCK: tl.constexpr):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for s in range(0, N, BLOCK):
            o = s + tl.arange(0, BLOCK)
            acc += tl.load(x + o, mask=o < N, other=0.0) * tl.load(w + tl.arange(0, BLOCK))
        tl.store(out + tl.arange(0, BLOCK), acc)

    @triton.jit
    def invariant_mask(x, w, out, N, K, BLOCK: tl.constexpr):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for s in range(0, N, BLOCK):
            o = s + tl.arange(0, BLOCK)
            wo = tl.arange(0, BLOCK)
            acc += tl.load(x + o, mask=o < N, other=0.0) * tl.load(w + wo, mask=wo < K, other=0.0)
        tl.store(out + tl.arange(0, BLOCK), acc)

    @triton.jit
    def varying_mask(x, t, out, N, BLOCK: tl.constexpr):
        # the seed's shape: the target logit read in every pass of the row loop
        target = tl.load(t)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        picked = 0.0
        for s in range(0, N, BLOCK):
            o = s + tl.arange(0, BLOCK)
            acc += tl.load(x + o, mask=o < N, other=0.0)
            picked += tl.sum(tl.load(x + target + tl.zeros([BLOCK], dtype=tl.int32),
                                     mask=(target >= s) & (target < s + BLOCK) & (tl.arange(0, BLOCK) == 0),
                                     other=0.0))
        tl.store(out + tl.arange(0, BLOCK), acc + picked)

    @triton.jit
    def store_in_loop(x, w, out, N, BLOCK: tl.constexpr):
        for s in range(0, N, BLOCK):
            o = s + tl.arange(0, BLOCK)
            tl.store(out + o, tl.load(x + o, mask=o < N, other=0.0) * tl.load(w), mask=o < N)

    @triton.jit
    def atomic_in_loop(x, w, out, N, BLOCK: tl.constexpr):
        for s in range(0, N, BLOCK):
            o = s + tl.arange(0, BLOCK)
            tl.atomic_add(out + tl.arange(0, BLOCK), tl.load(x + o, mask=o < N, other=0.0) * tl.load(w))

    @triton.jit
    def static_loop(x, w, out, N, BLOCK: tl.constexpr):
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for s in tl.static_range(0, 4):
            o = s * BLOCK + tl.arange(0, BLOCK)
            acc += tl.load(x + o, mask=o < N, other=0.0) * tl.load(w)
        tl.store(out + tl.arange(0, BLOCK), acc)

    @triton.jit
    def static_loop_store(x, w, out, N, BLOCK: tl.constexpr):
        for s in tl.static_range(0, 4):
            o = s * BLOCK + tl.arange(0, BLOCK)
            tl.store(out + o, tl.load(x + o, mask=o < N, other=0.0) * tl.load(w), mask=o < N)

    BLOCK, N = 128, 4096
    x = torch.randn(N, device="cuda")
    w = torch.randn(BLOCK, device="cuda")
    t = torch.tensor([77], device="cuda", dtype=torch.int32)
    out = torch.zeros(N, device="cuda")
    cases = [
        ("scalar_no_store", scalar_no_store, (x, w, out, N), 1),
        ("block_no_store", block_no_store, (x, w, out, N), 1),
        ("invariant_mask", invariant_mask, (x, w, out, N, 100), 1),
        ("varying_mask", varying_mask, (x, t, out, N), 1),
        ("store_in_loop", store_in_loop, (x, w, out, N), 1),
        ("atomic_in_loop", atomic_in_loop, (x, w, out, N), 1),
        ("static_loop", static_loop, (x, w, out, N), None),
        ("static_loop_store", static_loop_store, (x, w, out, N), None),
    ]
    print("Triton kernel        TTIR loads in loop  TTGIR loads in loop  PTX ld.global in loop  (1 = only the varying load)")
    for name, fn, args, _ in cases:
        k = fn[(1,)](*args, BLOCK=BLOCK)
        torch.cuda.synchronize()
        ttir = ir_loop_loads(k.asm["ttir"], "tt.load")
        ttgir = ir_loop_loads(k.asm["ttgir"], "tt.load") + ir_loop_loads(k.asm["ttgir"], "ttg.async_copy_global_to_local")
        ptx = sum(ptx_loop_loads(k.asm["ptx"]).values())
        total_ttir = k.asm["ttir"].count("tt.load ")
        print(f"  {name:18s} {ttir:5d}               {ttgir:5d}                {ptx:5d}   (tt.load in TTIR: {total_ttir})")
        if name.startswith("static"):
            # unrolled copies: count the scalar loads of w left in the whole PTX
            print(f"      static_range: ld.global in the PTX: {len(re.findall(r'ld.global', k.asm['ptx']))}")


if __name__ == "__main__":
    which = sys.argv[1:] or ["cuda", "triton"]
    if "cuda" in which:
        cuda_part()
    if "triton" in which:
        triton_part()
