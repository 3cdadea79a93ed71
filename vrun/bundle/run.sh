#!/bin/sh
# kcheck verify bundle. Run on a machine with an NVIDIA GPU, python3, and
# torch + triton (Triton plans) or nvcc (CUDA plans):
#     sh run.sh RESULTS_DIR
# then, where the sources are: kcheck verify --results RESULTS_DIR FILE...
set -u
# RESULTS_DIR is taken from the directory run.sh is called from.
out=${1:-results}
mkdir -p -- "$out" && out=$(cd -- "$out" && pwd) || exit 1
cd -- "$(dirname -- "$0")" || exit 1
# Triton's cache and the driver's temporary files: one directory, removed at exit.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
export TMPDIR="$tmp" TRITON_CACHE_DIR="$tmp/triton-cache" PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
# Each plan is killed (its whole process group) after KCHECK_PLAN_TIMEOUT seconds.
limit=${KCHECK_PLAN_TIMEOUT:-1200}
run() {
    [ -e "$out/$2" ] && return 0
    echo "== $1 -> $out/$2" >&2
    timeout -k 10 "$limit" python3 kcheck_verify_driver.py "$1" "$out/$2" ||
        echo "   (driver exited with status $?; 124 means killed at the time limit)" >&2
}
# Every plan in one Python process; a plan that ends it (time limit, GPU
# fault) is not run again, and the next round goes on with the rest.
export KCHECK_PLAN_TIMEOUT="$limit"
rounds=0
while [ $rounds -le 18 ]; do
    timeout -k 10 $((limit * 18)) python3 kcheck_verify_driver.py --batch batch.json "$out" && break
    rounds=$((rounds + 1))
done
# Plans the batch could not run, one process each.
run plan_1.json 'axpy_early_return.cu-L6.json'
run plan_3.json 'matvec.cu-L9.json'
run plan_5.json 'transpose.cu-L5.json'
run plan_7.json 'seed000_as_written.py-L11.json'
run plan_11.json 'seed000_constexpr_n.py-L11.json'
run plan_15.json 'seed003_qk_view.py-L10.json'
run plan_21.json 'seed003_qk_view.py-L58.json'
run plan_24.json 'view_of_dot.py-L8.json'
run plan_27.json 'bad_row_per_thread.cu-L5.json'
run plan_29.json 'bad_row_per_thread.cu-L20.json'
run plan_31.json 'ok_coalesced.cu-L5.json'
run plan_33.json 'bad_view_broadcast_mul.py-L6.json'
run plan_36.json 'bad_cuda_unguarded.cu-L6.json'
run plan_38.json 'ok_block_reduce.cu-L4.json'
run plan_40.json 'ok_fused_softmax.py-L7.json'
run plan_42.json 'ok_matmul.py-L15.json'
run plan_44.json 'ok_tiled_transpose.cu-L7.json'
run plan_46.json 'ok_vector_add.py-L7.json'
