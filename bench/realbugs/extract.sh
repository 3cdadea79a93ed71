#!/usr/bin/env bash
# Extract the pre-fix and post-fix kernel files of every bug in manifest.tsv.
#
#   extract.sh [--mirrors DIR] [--manifest FILE] [--context] OUTDIR
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
#
# --context also writes the file in its checkout, as far as a check of it
# reads: OUTDIR/<id>/pre-tree/ (at fix^) and OUTDIR/<id>/post-tree/ (at fix),
# with repository-relative paths, holding
#   * every file of the file's own directory (not its subdirectories);
#   * for CUDA rows, the closure of quoted `#include "..."` / `#import "..."`
#     lines (comments and #if ignored, as kcheck's include scan does), each
#     name tried against the including file's directory, then its ancestor
#     directories up to the repository root, then every directory named
#     `include` in the repository, the first that holds it winning;
#     `<...>` includes are system headers and are not followed.
# Symlinks and submodules are skipped, and so is any file over 4 MiB; the
# include closure stops at 1000 headers. OUTDIR/<id>/pre-tree.files lists
# each file written and why (`dir`, `include NAME from PATH`), and what was
# skipped or not found.
set -euo pipefail

mirrors=""
context=0
manifest="$(cd "$(dirname "$0")" && pwd)/manifest.tsv"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mirrors) mirrors="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --context) context=1; shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "extract.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[[ $# -eq 1 ]] || { echo "usage: extract.sh [--mirrors DIR] [--manifest FILE] [--context] OUTDIR" >&2; exit 2; }
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

# ---- --context: the file's directory and its include closure --------------------

tree_max_blob=$((4 * 1024 * 1024))
tree_max_headers=1000

# norm_path P -> P with `.` and `..` folded (repository-relative); status 1 when it
# climbs above the root
norm_path() {
  local IFS=/ part out=()
  for part in $1; do
    case "$part" in
      ""|.) ;;
      ..) [[ ${#out[@]} -gt 0 ]] || return 1; unset 'out[${#out[@]}-1]' ;;
      *) out+=("$part") ;;
    esac
  done
  printf '%s' "${out[*]}"
}

# tree_put GD REV PATH DEST WHY LOG: write REV:PATH under DEST unless written already or
# too large; status 1 when not written now
tree_put() {
  local gd="$1" rev="$2" p="$3" dest="$4" why="$5" log="$6" size
  if [[ -e "$dest/$p" ]]; then return 1; fi
  size=$(git --git-dir="$gd" cat-file -s "$rev:$p")
  if [[ $size -gt $tree_max_blob ]]; then
    printf '%s\tskipped: %s bytes (over %s): %s\n' "$p" "$size" "$tree_max_blob" "$why" >>"$log"
    return 1
  fi
  mkdir -p "$dest/$(dirname "$p")"
  git --git-dir="$gd" cat-file blob "$rev:$p" >"$dest/$p"
  printf '%s\t%s\n' "$p" "$why" >>"$log"
}

# is_blob GD REV PATH
is_blob() { [[ "$(git --git-dir="$1" cat-file -t "$2:$3" 2>/dev/null)" == blob ]]; }

# write_tree GD REV PATH LANG DEST LOG
write_tree() {
  local gd="$1" rev="$2" path="$3" lang="$4" dest="$5" log="$6"
  local dir mode type obj name
  rm -rf "$dest"; mkdir -p "$dest"; : >"$log"
  dir=$(dirname "$path")
  local spec=(-- "$dir/"); [[ "$dir" == . ]] && spec=()
  while IFS=$'\t' read -r -d '' meta name; do
    read -r mode type obj <<<"$meta"
    case "$type:$mode" in
      blob:120000) printf '%s\tskipped: symlink\n' "$name" >>"$log" ;;
      blob:*) tree_put "$gd" "$rev" "$name" "$dest" dir "$log" || true ;;
      commit:*) printf '%s\tskipped: submodule\n' "$name" >>"$log" ;;
      *) ;;  # a subdirectory: not taken
    esac
  done < <(git --git-dir="$gd" ls-tree -z "$rev" "${spec[@]}")
  [[ "$lang" == cuda ]] || return 0
  local incdirs queue=("$path") seen=" $path " headers=0 cur cdir inc cand found d
  mapfile -t incdirs < <(git --git-dir="$gd" ls-tree -r -d --name-only "$rev" | grep -E '(^|/)include$' || true)
  while [[ ${#queue[@]} -gt 0 ]]; do
    cur="${queue[0]}"; queue=("${queue[@]:1}")
    cdir=$(dirname "$cur"); [[ "$cdir" == . ]] && cdir=""
    while IFS= read -r inc; do
      [[ -n "$inc" ]] || continue
      found=""
      # the including file's directory, then its ancestors up to the root, then include/ dirs
      d="$cdir"
      while :; do
        if cand=$(norm_path "${d:+$d/}$inc") && [[ -n "$cand" ]] && is_blob "$gd" "$rev" "$cand"; then
          found="$cand"; break
        fi
        [[ -n "$d" ]] || break
        d=$(dirname "$d"); [[ "$d" == . ]] && d=""
      done
      if [[ -z "$found" ]]; then
        for d in "${incdirs[@]}"; do
          if cand=$(norm_path "$d/$inc") && is_blob "$gd" "$rev" "$cand"; then found="$cand"; break; fi
        done
      fi
      if [[ -z "$found" ]]; then
        grep -qxF "$inc"$'\t'"not found (from $cur)" "$log" ||
          printf '%s\tnot found (from %s)\n' "$inc" "$cur" >>"$log"
        continue
      fi
      if [[ "$seen" == *" $found "* ]]; then continue; fi
      seen="$seen$found "
      headers=$((headers + 1))
      if [[ $headers -gt $tree_max_headers ]]; then
        printf '%s\tskipped: include closure over %s headers\n' "$found" "$tree_max_headers" >>"$log"
        continue
      fi
      tree_put "$gd" "$rev" "$found" "$dest" "include $inc from $cur" "$log" || true
      if [[ -e "$dest/$found" ]]; then queue+=("$found"); fi
    done < <(git --git-dir="$gd" cat-file blob "$rev:$cur" 2>/dev/null |
             sed -n -E 's/^[[:space:]]*#[[:space:]]*(include|import|include_next)[[:space:]]*"([^"]*)".*/\2/p')
  done
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
  if [[ $context -eq 1 ]]; then
    write_tree "$gd" "$fix^" "$path" "$lang" "$out/$id/pre-tree" "$out/$id/pre-tree.files"
    write_tree "$gd" "$fix" "$post" "$lang" "$out/$id/post-tree" "$out/$id/post-tree.files"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$repo" "$fix" "$path" "$bug_line" \
    "$rule" "$lang" "$url" "$summary" "$post_path" >"$out/$id/meta.tsv"
  n=$((n + 1))
done < <(tr '\t' '\037' <"$manifest")
echo "extract.sh: $n bugs extracted into $out"
