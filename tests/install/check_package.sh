#!/bin/sh
# The Debian package: `cpack -G DEB` builds kcheck_<version>_<arch>.deb from
# the build tree, its Depends name the Debian runtime packages (from
# dpkg-shlibdeps), and the package unpacked into an empty root (dpkg -x)
# runs from any directory: --version (the project's version, as in
# CHANGELOG.md), the examples with their findings, the CUDA module from
# ../lib/kcheck, the man page, SARIF's informationUri pointing at its own
# rules.md, and verify's reference kernels from ../share/kcheck/reference
# (not the source tree's). Then apt: `apt-get install -s` resolves the
# package's Depends from the machine's archives, and where the suite runs
# as root with no kcheck package installed already, `apt-get install`
# installs it for real, /usr/bin/kcheck checks the examples from another
# directory, and `apt-get purge` leaves the machine as it was.
#   check_package.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -u
build=$1 src=$2 work=$3
fail() {
    echo "FAILED: $*"
    exit 1
}
for t in cpack dpkg-deb dpkg-shlibdeps; do
    command -v $t >/dev/null || fail "$t not found (./build.sh deps installs dpkg-dev)"
done
rm -rf "$work"
mkdir -p "$work/root" "$work/elsewhere" || exit 2
version=$(sed -n 's/^project(kcheck VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || fail "no version in CMakeLists.txt"
grep -q "^## \[$version\]" "$src/CHANGELOG.md" || fail "CHANGELOG.md has no entry for $version"
(cd "$build" && cpack -G DEB -B "$work/pkg") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/pkg/kcheck_"$version"_*.deb 2>/dev/null | head -1)
[ -f "$deb" ] || { ls "$work/pkg"; fail "no kcheck_${version}_<arch>.deb"; }
deps=$(dpkg-deb -f "$deb" Depends)
for lib in libclang1 libtree-sitter0 libjansson4 libyaml-0-2 libxxhash0; do
    echo "$deps" | grep -q "$lib" || fail "Depends lacks $lib: $deps"
done
dpkg-deb -x "$deb" "$work/root" || fail "dpkg-deb -x"
k="$work/root/usr/bin/kcheck"
for f in usr/bin/kcheck usr/lib/kcheck/kcheck-cuda.so usr/share/man/man1/kcheck.1 usr/share/doc/kcheck/rules.md \
    usr/share/kcheck/reference/ops/axpy.json; do
    [ -e "$work/root/$f" ] || fail "the package lacks /$f"
done
"$k" --version | grep -q "^kcheck $version " || fail "--version: $("$k" --version)"
cp -r "$src/examples" "$work/elsewhere/examples"
cd "$work/elsewhere" || exit 2
examples_run() { # BINARY: the examples' findings, from $work/elsewhere
    "$1" --no-config --no-cache --format concise examples >out.txt 2>&1
    st=$?
    [ $st -eq 1 ] || { cat out.txt; fail "$1 examples: exit $st, expected 1 (findings)"; }
    grep -q 'examples/cuda/matvec.cu:17:18: warning: uncoalesced load' out.txt || { cat out.txt; fail "$1: no CUDA finding"; }
    grep -q 'examples/seeds/seed000_cross_entropy.py:28:37: error:' out.txt || { cat out.txt; fail "$1: no Triton finding"; }
}
examples_run "$k"
"$k" --no-config --no-cache --format sarif examples/cuda/matvec.cu >out.sarif 2>/dev/null
root=$(cd "$work/root" && pwd -P)
grep -q "\"informationUri\": \"file://$root/usr/share/doc/kcheck/rules.md\"" out.sarif ||
    { grep informationUri out.sarif; fail "informationUri is not the package's rules.md"; }
# verify reads the reference kernels next to the binary: an op only the
# unpacked tree has is listed among the bundled ones.
echo '{}' >"$work/root/usr/share/kcheck/reference/ops/zz_only_in_the_package.json"
printf 'import triton\n\n\n# kcheck: verify op=nonexistent call="f()"\n@triton.jit\ndef k(x):\n    pass\n' >bind.py
"$k" verify --no-run --no-config bind.py >verify.txt 2>&1
grep -q "zz_only_in_the_package" verify.txt || { cat verify.txt; fail "verify did not use the package's reference kernels"; }
apt_note="apt not tried (no apt-get)"
if command -v apt-get >/dev/null; then
    apt-get install -s "$deb" >apt-sim.txt 2>&1 || { cat apt-sim.txt; fail "apt-get install -s cannot resolve the package"; }
    grep -q "^Inst kcheck " apt-sim.txt || { cat apt-sim.txt; fail "apt-get install -s: no Inst kcheck"; }
    apt_note="apt resolves its Depends (simulated; not root or a kcheck package already installed: not installed)"
    if [ "$(id -u)" = 0 ] && ! dpkg -s kcheck >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >apt.txt 2>&1 ||
            { cat apt.txt; fail "apt-get install $deb"; }
        st=0
        [ "$(command -v kcheck)" = /usr/bin/kcheck ] || [ -x /usr/bin/kcheck ] || st=1
        /usr/bin/kcheck --version | grep -q "^kcheck $version " || st=1
        man -w kcheck >/dev/null 2>&1 || [ -e /usr/share/man/man1/kcheck.1 ] || [ -e /usr/share/man/man1/kcheck.1.gz ] || st=1
        (examples_run /usr/bin/kcheck) || st=1
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -q kcheck >purge.txt 2>&1 || { cat purge.txt; st=1; }
        [ ! -e /usr/bin/kcheck ] || st=1
        [ $st -eq 0 ] || fail "the apt-installed package did not run the examples, or did not purge"
        apt_note="installed with apt, ran the examples from $(pwd), purged"
    fi
fi
echo "ok: $(basename "$deb") ($deps) unpacks and runs; $apt_note"
