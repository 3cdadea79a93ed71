#!/usr/bin/env python3
"""Score kcheck on the real-bug corpus (python3 stdlib only).

    score.py --kcheck PATH --bugs OUTDIR [--manifest FILE] [--json OUT] [--window N] [--context]

OUTDIR is what extract.sh wrote: OUTDIR/<id>/pre/<file>, OUTDIR/<id>/post/<file>.
For each bug kcheck runs once on the pre-fix and once on the post-fix file:

    kcheck --no-cache --no-config --format json --severity note <file>

(timeout 120 s each). With --context (OUTDIR written by extract.sh --context)
kcheck runs as a user in the project's checkout would, over the file's whole
directory in OUTDIR/<id>/pre-tree (post-tree), with the working directory at
the tree root:

    cd OUTDIR/<id>/pre-tree && kcheck --no-cache --no-config --format json --severity note DIR

where DIR is the directory of the manifest's path; only the diagnostics and
errors of the bug's file count. The file's exit code is then 2 when an error
names it, else 1 when it has a warning or an error, else 0 (what a run on it
alone would exit with); a run that exits other than 0/1/2 or times out is a
crash, and a file the run did not check (`--show-files`) is reported missing.
Per bug it records:
  * the exit code of both runs;
  * hit_default: a diagnostic of the expected rule, severity warning or error,
    within N (3) lines of one of the bug lines of the pre-fix file;
  * hit_notes:   the same at any severity (note included);
  * silenced:    the bug was hit (with notes) and the post-fix file has fewer
    findings of that rule than the pre-fix file;
  * exit 2 and its error messages; any other exit code (crash, timeout) is
    listed on its own, prominently.
Then the totals, and each miss with kcheck's exit code and its first error or
diagnostic line, for a human to classify.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            vals = line.split("\t")
            vals += [""] * (len(header) - len(vals))
            rows.append(dict(zip(header, vals)))
    return rows


def run_kcheck(kcheck, path, timeout):
    cmd = [kcheck, "--no-cache", "--no-config", "--format", "json", "--severity", "note", path]
    res = {"file": path, "rc": None, "diagnostics": [], "errors": [], "parse_error": None,
           "stderr": ""}
    if not os.path.isfile(path):
        res["rc"] = "missing"
        res["parse_error"] = "file not extracted"
        return res
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        res["rc"] = "timeout"
        return res
    res["rc"] = p.returncode
    res["stderr"] = p.stderr.strip()
    out = p.stdout.strip()
    if not out:
        res["parse_error"] = "no JSON on stdout"
        return res
    try:
        doc = json.loads(out)
    except ValueError as e:
        res["parse_error"] = f"bad JSON: {e}"
        return res
    res["diagnostics"] = doc.get("diagnostics", []) or []
    res["errors"] = doc.get("errors", []) or []
    return res


def same_file(tree, a, b):
    return os.path.realpath(os.path.join(tree, a)) == os.path.realpath(os.path.join(tree, b))


def run_kcheck_context(kcheck, tree, relpath, timeout):
    """kcheck over the directory of relpath inside tree (cwd tree); relpath's share."""
    d = os.path.dirname(relpath) or "."
    target = os.path.join(tree, relpath)
    res = {"file": target, "rc": None, "diagnostics": [], "errors": [], "parse_error": None,
           "stderr": "", "run_rc": None, "run_files": None, "run_errors_elsewhere": 0,
           "run_seconds": None}
    if not os.path.isfile(target):
        res["rc"] = "missing"
        res["parse_error"] = "file not extracted (run extract.sh --context)"
        return res
    try:
        sf = subprocess.run([kcheck, "--no-config", "--show-files", d], cwd=tree,
                            capture_output=True, text=True, timeout=timeout)
        listed = [l for l in sf.stdout.splitlines() if l.strip()]
    except subprocess.TimeoutExpired:
        listed = None
    if listed is not None and not any(same_file(tree, l, relpath) for l in listed):
        res["rc"] = "missing"
        res["parse_error"] = f"not among the {len(listed)} files a run over {d} checks"
        return res
    cmd = [kcheck, "--no-cache", "--no-config", "--format", "json", "--severity", "note", d]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        res["rc"] = res["run_rc"] = "timeout"
        res["run_seconds"] = round(time.monotonic() - t0, 1)
        return res
    res["run_seconds"] = round(time.monotonic() - t0, 1)
    res["run_rc"] = p.returncode
    res["stderr"] = p.stderr.strip()
    if p.returncode not in (0, 1, 2):
        res["rc"] = p.returncode
    out = p.stdout.strip()
    if not out:
        res["parse_error"] = "no JSON on stdout"
        if res["rc"] is None:
            res["rc"] = p.returncode
        return res
    try:
        doc = json.loads(out)
    except ValueError as e:
        res["parse_error"] = f"bad JSON: {e}"
        if res["rc"] is None:
            res["rc"] = p.returncode
        return res
    res["run_files"] = doc.get("files")
    res["diagnostics"] = [x for x in doc.get("diagnostics", []) or []
                          if same_file(tree, x.get("file", ""), relpath)]
    errs = doc.get("errors", []) or []
    res["errors"] = [x for x in errs if same_file(tree, x.get("file", ""), relpath)]
    res["run_errors_elsewhere"] = len(errs) - len(res["errors"])
    if res["rc"] is None:
        res["rc"] = 2 if res["errors"] else (
            1 if any(x.get("severity") in ("warning", "error") for x in res["diagnostics"]) else 0)
    return res


def near(diag, lines, window):
    lo = diag.get("line", 0)
    hi = diag.get("end_line", lo) or lo
    for bl in lines:
        if lo - window <= bl <= hi + window:
            return True
    return False


def first_line(res):
    """kcheck's first error, else its first diagnostic, as one line."""
    if res["parse_error"]:
        return res["parse_error"] + (f" ({res['stderr'][:120]})" if res["stderr"] else "")
    if res["errors"]:
        e = res["errors"][0]
        return f"error line {e.get('line')}: {e.get('message')}"
    if res["diagnostics"]:
        d = res["diagnostics"][0]
        return f"{d.get('rule')} {d.get('severity')} line {d.get('line')}: {d.get('message')}"
    if res["stderr"]:
        return "stderr: " + res["stderr"].splitlines()[0][:160]
    return "no diagnostics, no errors"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kcheck", required=True)
    ap.add_argument("--bugs", required=True, help="directory written by extract.sh")
    ap.add_argument("--manifest", default=os.path.join(HERE, "manifest.tsv"))
    ap.add_argument("--json", help="write per-bug results here")
    ap.add_argument("--window", type=int, default=3, help="lines either side of a bug line (3)")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--context", action="store_true",
                    help="run kcheck over the file's directory in OUTDIR/<id>/pre-tree and post-tree")
    a = ap.parse_args()
    if os.sep in a.kcheck:
        # --context runs kcheck from inside each tree: a relative path must
        # still name the same binary there
        a.kcheck = os.path.abspath(a.kcheck)

    rows = read_manifest(a.manifest)
    results = []
    for r in rows:
        rule = r["rule"]
        lines = [int(x) for x in r["bug_line"].replace(" ", "").split(",") if x]
        if a.context:
            rp = run_kcheck_context(a.kcheck, os.path.join(a.bugs, r["id"], "pre-tree"),
                                    r["path"], a.timeout)
            rq = run_kcheck_context(a.kcheck, os.path.join(a.bugs, r["id"], "post-tree"),
                                    r.get("post_path") or r["path"], a.timeout)
        else:
            pre = os.path.join(a.bugs, r["id"], "pre", os.path.basename(r["path"]))
            post = os.path.join(a.bugs, r["id"], "post",
                                os.path.basename(r.get("post_path") or r["path"]))
            rp = run_kcheck(a.kcheck, pre, a.timeout)
            rq = run_kcheck(a.kcheck, post, a.timeout)
        same_pre = [d for d in rp["diagnostics"] if d.get("rule") == rule]
        same_post = [d for d in rq["diagnostics"] if d.get("rule") == rule]
        near_pre = [d for d in same_pre if near(d, lines, a.window)]
        hit_default = any(d.get("severity") in ("warning", "error") for d in near_pre)
        hit_notes = bool(near_pre)
        silenced = hit_notes and len(same_post) < len(same_pre)
        results.append({
            "id": r["id"], "repo": r["repo"], "rule": rule, "lang": r["lang"],
            "path": r["path"], "bug_line": lines, "fix_commit": r["fix_commit"],
            "pre_rc": rp["rc"], "post_rc": rq["rc"],
            "hit_default": hit_default, "hit_notes": hit_notes, "silenced": silenced,
            "near_severities": sorted({d.get("severity") for d in near_pre}),
            "rule_findings_pre": [d.get("line") for d in same_pre],
            "rule_findings_post": [d.get("line") for d in same_post],
            "n_diagnostics_pre": len(rp["diagnostics"]),
            "pre_errors": [e.get("message") for e in rp["errors"]],
            "post_errors": [e.get("message") for e in rq["errors"]],
            "pre_first": first_line(rp), "post_first": first_line(rq),
            "pre_parse_error": rp["parse_error"], "post_parse_error": rq["parse_error"],
        })
        if a.context:
            for which, res in (("pre", rp), ("post", rq)):
                results[-1][which + "_run"] = {k: res.get(k) for k in
                                               ("run_rc", "run_files", "run_errors_elsewhere",
                                                "run_seconds")}

    n = len(results)
    ok_rc = (0, 1, 2)
    crashes = [(x["id"], which, x[which + "_rc"]) for x in results for which in ("pre", "post")
               if x[which + "_rc"] not in ok_rc]
    exit2 = [x for x in results if x["pre_rc"] == 2]
    exit2_post = [x for x in results if x["post_rc"] == 2]
    hd = sum(x["hit_default"] for x in results)
    hn = sum(x["hit_notes"] for x in results)
    sil = sum(x["silenced"] for x in results)

    w = max(len(x["id"]) for x in results) if results else 10
    if a.context:
        print("mode: in its checkout (kcheck DIR over the file's directory in <id>/pre-tree, post-tree;"
              " the bug's file counted)")
    else:
        print("mode: file alone (kcheck FILE on <id>/pre/<file>, post/<file>)")
    print(f"{'id':<{w}}  rule   lang    pre post  default notes silenced  rule lines pre -> post")
    for x in results:
        print(f"{x['id']:<{w}}  {x['rule']:<5}  {x['lang']:<6}  {str(x['pre_rc']):>3} {str(x['post_rc']):>4}"
              f"  {'HIT' if x['hit_default'] else '-':>7} {'HIT' if x['hit_notes'] else '-':>5}"
              f" {'yes' if x['silenced'] else '-':>8}  {x['rule_findings_pre']} -> {x['rule_findings_post']}")
    print()
    if crashes:
        print("!!! CRASHES / TIMEOUTS (exit other than 0/1/2) !!!")
        for i, which, rc in crashes:
            print(f"!!!   {i} ({which}): exit {rc}")
        print()
    print(f"bugs: {n}")
    pct = lambda k: f"{100.0 * k / n:.1f}%" if n else "n/a"
    print(f"recall at default severity (warning/error): {hd}/{n} ({pct(hd)})")
    print(f"recall with notes:                          {hn}/{n} ({pct(hn)})")
    print(f"silenced by the fix (of the hits):          {sil}/{hn}")
    print(f"pre-fix files with exit 2:                  {len(exit2)}"
          f"  (post-fix: {len(exit2_post)})")
    print(f"crashes/timeouts:                           {len(crashes)}")
    if a.context:
        runs = [(x[w + "_run"], w) for x in results for w in ("pre", "post")]
        secs = [r["run_seconds"] for r, _ in runs if r["run_seconds"] is not None]
        files = [r["run_files"] for r, _ in runs if r["run_files"] is not None]
        print(f"runs over a directory: {len(runs)}, files per run {min(files, default=0)}.."
              f"{max(files, default=0)}, longest {max(secs, default=0)} s,"
              f" {sum(1 for r, _ in runs if r['run_rc'] == 'timeout')} timeouts,"
              f" {sum(1 for r, _ in runs if r['run_errors_elsewhere'])} with errors in other files")
    for lang in ("cuda", "triton"):
        sub = [x for x in results if x["lang"] == lang]
        if sub:
            print(f"  {lang:<6}: default {sum(x['hit_default'] for x in sub)}/{len(sub)},"
                  f" notes {sum(x['hit_notes'] for x in sub)}/{len(sub)}")
    rules = sorted({x["rule"] for x in results})
    print("  per rule (default/notes/total): " + ", ".join(
        f"{r} {sum(x['hit_default'] for x in results if x['rule'] == r)}/"
        f"{sum(x['hit_notes'] for x in results if x['rule'] == r)}/"
        f"{sum(1 for x in results if x['rule'] == r)}" for r in rules))
    if exit2:
        print("\nexit 2 on the pre-fix file:")
        for x in exit2:
            print(f"  {x['id']}: {x['pre_first']}")
    misses = [x for x in results if not x["hit_notes"]]
    if misses:
        print(f"\nmisses ({len(misses)}), not found even as a note:")
        for x in misses:
            other = f"; {x['rule']} elsewhere at {x['rule_findings_pre']}" if x["rule_findings_pre"] else ""
            print(f"  {x['id']} [{x['rule']} line {','.join(map(str, x['bug_line']))}] exit {x['pre_rc']},"
                  f" {x['n_diagnostics_pre']} diagnostics{other}: {x['pre_first']}")
    notes_only = [x for x in results if x["hit_notes"] and not x["hit_default"]]
    if notes_only:
        print(f"\nfound only as a note ({len(notes_only)}):")
        for x in notes_only:
            print(f"  {x['id']} [{x['rule']}]")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"kcheck": a.kcheck, "mode": "context" if a.context else "file", "bugs": n, "recall_default": hd, "recall_notes": hn,
                       "silenced": sil, "exit2_pre": len(exit2), "exit2_post": len(exit2_post),
                       "crashes": crashes, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
