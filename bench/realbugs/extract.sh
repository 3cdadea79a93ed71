#!/usr/bin/env bash
# Extract the pre-fix and post-fix kernel files of every bug in manifest.tsv.
#
#   extract.sh [--mirrors DIR] [--manifest FILE] OUTDIR
#
# For each row, the repository is taken from DIR/owner+name when a git
# directory is there (a bare repository, or DIR/owner+name/repo[/.git] as the
# mirror tool lays it out); otherwise it is cloned once, bare and blob-less,
# from https://github.com/owner/name into OUTDIR/.repos/. A commit that is not
# in the clone (a pull-request commit) is fetched by its hash.
#
# Writes OUTDIR/<id>/pre/<basename>  = git show fix^:path
#        OUTDIR/<id>/post/<basename> = git show fix:post_path (or path)
# and OUTDIR/<id>/meta.tsv (the manifest row). Exits 1 on the first row whose
# commit or file cannot be had, naming it.
set -euo pipefail

mirrors=""
manifest="$(cd "$(dirname "$0")" && pwd)/manifest.tsv"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mirrors) mirrors="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "extract.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || { echo "usage: extract.sh [--mirrors DIR] [--manifest FILE] OUTDIR" >&2; exit 2; }
out="$1"
[[ -f "$manifest" ]] || { echo "extract.sh: no manifest $manifest" >&2; exit 2; }
mkdir -p "$out"

die() { echo "extract.sh: $*" >&2; exit 1; }

# gitdir_for owner/name -> prints a git directory for the repository
gitdir_for() {
  local repo="$1" key="${1/\//+}" d
  if [[ -n "$mirrors" ]]; then
    for d in "$mirrors/$key/repo/.git" "$mirrors/$key/repo" "$mirrors/$key/.git" "$mirrors/$key"; do
      if [[ -d "$d" ]] && git --git-dir="$d" rev-parse --git-dir >/dev/null 2>&1; then
        echo "$d"; return 0
      fi
    done
  fi
  d="$out/.repos/$key.git"
  if [[ ! -d "$d" ]]; then
    echo "extract.sh: cloning $repo" >&2
    git clone -q --bare --filter=blob:none "https://github.com/$repo" "$d" >&2 ||
      die "cannot clone https://github.com/$repo"
  fi
  echo "$d"
}

n=0
header=1
# fields are split on \x1f, not on tabs: bash merges runs of tabs, which would lose an
# empty post_path column
while IFS=$'\x1f' read -r id repo fix path bug_line rule lang url summary post_path rest; do
  if [[ $header -eq 1 ]]; then header=0; continue; fi
  [[ -n "$id" ]] || continue
  gd=$(gitdir_for "$repo")
  if ! git --git-dir="$gd" cat-file -e "$fix^{commit}" 2>/dev/null; then
    # a pull-request commit is not on any branch: ask for it by hash
    git --git-dir="$gd" fetch -q origin "$fix" >/dev/null 2>&1 || true
    git --git-dir="$gd" cat-file -e "$fix^{commit}" 2>/dev/null ||
      die "$id: commit $fix not found in $repo ($gd)"
  fi
  git --git-dir="$gd" cat-file -e "$fix^^{commit}" 2>/dev/null ||
    die "$id: commit $fix has no parent in $repo"
  post="${post_path:-$path}"
  base=$(basename "$path")
  pbase=$(basename "$post")
  mkdir -p "$out/$id/pre" "$out/$id/post"
  git --git-dir="$gd" show "$fix^:$path" >"$out/$id/pre/$base" 2>/dev/null ||
    die "$id: $path not in $fix^ ($repo)"
  git --git-dir="$gd" show "$fix:$post" >"$out/$id/post/$pbase" 2>/dev/null ||
    die "$id: $post not in $fix ($repo)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$repo" "$fix" "$path" "$bug_line" \
    "$rule" "$lang" "$url" "$summary" "$post_path" >"$out/$id/meta.tsv"
  n=$((n + 1))
done < <(tr '\t' '\037' <"$manifest")
echo "extract.sh: $n bugs extracted into $out"
