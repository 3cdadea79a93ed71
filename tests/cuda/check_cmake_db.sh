#!/bin/sh
# `-p BUILD` on a compile_commands.json that CMake itself generated for a
# CUDA project (tests/cuda/cmake_project), not one written by hand:
#   - the include directories that CMake 3.25+ hands nvcc in a response
#     file (--options-file .../includes_CUDA.rsp) and the target's
#     definitions (-DTILE=32) are read: both findings appear, and without
#     -p only the one whose header include/ holds (searched by convention);
#   - nvcc options that do not change parsing (--use_fast_math, -lineinfo,
#     -Xptxas=-v, --expt-relaxed-constexpr, --generate-code=...) pass
#     silently; one kcheck does not know (--kc-test-flag) is named once for
#     the run, with the number of files it applies to, also when the
#     results come from the cache.
# CMake gets a stand-in compiler (/bin/true) with its identity given, not
# detected, so no CUDA toolkit is needed.
#   check_cmake_db.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() {
    echo "FAILED: $*"
    exit 1
}
command -v cmake >/dev/null || fail "cmake not found"
cat >"$work/nvcc.cmake" <<'CACHE'
set(CMAKE_CUDA_COMPILER_ID_RUN 1 CACHE INTERNAL "")
set(CMAKE_CUDA_COMPILER_ID NVIDIA CACHE INTERNAL "")
set(CMAKE_CUDA_COMPILER_VERSION 12.4.131 CACHE INTERNAL "")
set(CMAKE_CUDA_COMPILER_FORCED ON CACHE BOOL "")
set(CMAKE_CUDA_ARCHITECTURES 80 CACHE STRING "")
set(CMAKE_CUDA_COMPILER_PRODUCED_OUTPUT "#$ LIBRARIES=  -L/x\n#$ g++ -o a.out x.o -L/x\n" CACHE INTERNAL "")
CACHE
cmake -C "$work/nvcc.cmake" -S "$src/tests/cuda/cmake_project" -B "$work/build" -DCMAKE_CUDA_COMPILER=/bin/true \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "cmake could not configure"; }
db="$work/build/compile_commands.json"
[ -f "$db" ] || fail "cmake wrote no compile_commands.json"
grep -q -- '--options-file CMakeFiles/kernels.dir/includes_CUDA.rsp' "$db" ||
    fail "this CMake does not use a response file for the include directories: $(cat "$db")"

cd "$src/tests/cuda/cmake_project" || exit 2
"$kcheck" --no-config --color=never --cache-dir "$work/cache" -p "$work/build" src >"$work/out" 2>"$work/err"
status=$?
[ $status -eq 1 ] || { cat "$work/out" "$work/err"; fail "with -p: exit $status, expected 1"; }
grep -q 'src/transpose.cu:20:59: warning: 32-way shared-memory bank conflict on `tile`' "$work/out" ||
    { cat "$work/out"; fail "with -p: the transpose's bank conflict (TILE from -D, ROWS_PER_PASS from the response file) is missing"; }
grep -q 'src/scale.cu:10:23: warning: double-precision literal `0.5` (from `SCALE`)' "$work/out" ||
    { cat "$work/out"; fail "with -p: the double literal from include/params.h is missing"; }
grep -q '2 warnings (2 files)' "$work/out" || { cat "$work/out"; fail "with -p: other findings than the two"; }
n=$(grep -c 'compile flag' "$work/err")
[ "$n" -eq 1 ] || { cat "$work/err"; fail "expected one warning about compile flags, got $n"; }
grep -q "compile flag '--kc-test-flag' (src/scale.cu and 1 other file) is not understood" "$work/err" ||
    { cat "$work/err"; fail "the unknown flag is not named with its files"; }

# Again, from the cache: the same findings and the same warning.
"$kcheck" --no-config --color=never --cache-dir "$work/cache" -p "$work/build" src >"$work/out2" 2>"$work/err2"
[ $? -eq 1 ] || fail "cached run: exit status"
cmp -s "$work/out" "$work/out2" || { diff "$work/out" "$work/out2"; fail "cached run: other findings"; }
cmp -s "$work/err" "$work/err2" || { diff "$work/err" "$work/err2"; fail "cached run: other warnings"; }
# -q: no warning either.
"$kcheck" --no-config -q --cache-dir "$work/cache" -p "$work/build" src >/dev/null 2>"$work/err3"
[ ! -s "$work/err3" ] || { cat "$work/err3"; fail "-q printed a warning"; }

# Without the compile database: the header of the project's include/
# (above src/) is searched by convention, so scale.cu's finding is there;
# the transpose's needs TILE from -D, and is not.
"$kcheck" --no-config --no-cache --color=never src >"$work/out4" 2>&1
[ $? -eq 1 ] || { cat "$work/out4"; fail "without -p: exit status"; }
grep -q 'src/scale.cu:10:23: warning: double-precision literal `0.5` (from `SCALE`)' "$work/out4" ||
    { cat "$work/out4"; fail "without -p: include/params.h was not found by convention"; }
grep -q 'bank conflict' "$work/out4" && { cat "$work/out4"; fail "without -p: TILE cannot be known"; }
echo "ok: a CMake-generated compile_commands.json (response file, definitions, nvcc options) is read"
