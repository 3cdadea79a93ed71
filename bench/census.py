#!/usr/bin/env python3
"""Summary of bench/census.sh: grep kernel counts against the kernels kcheck saw.

usage: census.py OUT/NAME... [--md FILE] [--json FILE] [--examples N]

Each OUT/NAME is a directory written by census.sh.  Kernels seen are the
`kernel NAME at L:C-L:C` lines of `kcheck --dump-model` (the first-sight
`--stats` prints files and findings, not kernels).  Every grep hit (a
`@triton.jit`/`@jit` decorator line, a `triton.jit(` call, a `__global__`
occurrence) is matched to at most one kernel of the dump of the same file
(Triton: the hit lies in the kernel's line range, which starts at its first
decorator; CUDA: the hit lies in the range or at most 3 lines above it).
Hits left over are put in a gap category by looking at the file.
Python 3 standard library only.
"""
import collections
import json
import os
import re
import sys

EXAMPLES = 3


def read(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


HIT = re.compile(r"^(.*?):(\d+):(.*)$")


def hits(path):
    out = []
    for line in read(path).splitlines():
        m = HIT.match(line)
        if m:
            out.append((os.path.normpath(m.group(1)), int(m.group(2)), m.group(3)))
    return out


def parse_model(path):
    """{file: [(name, start, end)]} from --dump-model output: one entry per kernel
    definition (a template's instantiations are dumped once each and are merged
    here; `(device function)` entries are left out).  Also returns the number of
    kernel entries before merging."""
    model = collections.defaultdict(list)
    seen = set()
    entries = 0
    cur = None
    kre = re.compile(r"^kernel (\S+) at (\d+):\d+-(\d+):\d+")
    for line in read(path).splitlines():
        if line.startswith("== "):
            cur = os.path.normpath(line[3:])
            model[cur]
        elif line.startswith("kernel ") and cur is not None:
            m = kre.match(line)
            if m:
                entries += 1
                key = (cur, m.group(1), int(m.group(3)))  # a template starts at `template`, its instances at the name
                if key not in seen:
                    seen.add(key)
                    model[cur].append((m.group(1), int(m.group(2)), int(m.group(3))))
    return model, entries


def ext_of(path):
    for e in (".cu", ".cuh", ".h", ".hpp", ".cpp"):
        if path.endswith(e):
            return e
    return "other"


# ---------------------------------------------------------------- C scanning
def c_states(text):
    """A bytearray: for every character 0 code, 1 comment, 2 string/char literal."""
    st = bytearray(len(text))
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            st[i:j] = b"\1" * (j - i)
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            st[i:j] = b"\1" * (j - i)
            i = j
        elif c == '"' or c == "'":
            if c == '"' and i > 0 and text[i - 1] == "R":  # raw string R"d(...)d"
                k = text.find("(", i)
                d = text[i + 1:k]
                j = text.find(")" + d + '"', k)
                j = n if j < 0 else j + len(d) + 2
            else:
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                j += 1
            st[i:j] = b"\2" * (j - i)
            i = j
        else:
            i += 1
    return st


def line_starts(text):
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    return starts


def in_directive(text, starts, lineno):
    """True when line lineno (1-based) belongs to a preprocessor directive."""
    k = lineno - 1
    while k > 0 and text[starts[k] - 2:starts[k] - 1] == "\\":
        k -= 1
    return text[starts[k]:].lstrip(" \t").startswith("#")


def conditional_lines(text):
    """{line: the innermost enclosing #if/#ifdef/#ifndef (or #else/#elif) directive}."""
    stack, out = [], {}
    for no, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if re.match(r"#\s*if", s):
            stack.append(s)
        elif re.match(r"#\s*endif", s):
            if stack:
                stack.pop()
        elif re.match(r"#\s*(else|elif)", s) and stack:
            stack[-1] = stack[-1] + " ... " + s
        elif stack:
            out[no] = stack[-1][:60]
    return out


def classify_cuda_hit(text, st, starts, cond, lineno):
    """(category, note) of a `__global__` occurrence no kernel of the dump took."""
    line = text[starts[lineno - 1]:starts[lineno] if lineno < len(starts) else len(text)]
    offs = [starts[lineno - 1] + m.start() for m in re.finditer("__global__", line)]
    if not offs:
        return "not found again", ""
    o = offs[0]
    if st[o] == 1:
        return "`__global__` in a comment", ""
    if st[o] == 2:
        return "`__global__` in a string literal", ""
    if in_directive(text, starts, lineno):
        return "`__global__` in a #define / preprocessor line", ""
    j = o
    while j < len(text):
        if st[j] == 0 and text[j] in "{;":
            break
        j += 1
    if j < len(text) and text[j] == ";":
        return "declaration without a body (prototype / explicit instantiation)", ""
    if lineno in cond:
        return "kernel definition inside a conditional block (likely off in kcheck's parse)", cond[lineno]
    return "kernel definition", ""


# ---------------------------------------------------------------- Triton files
DIRECT = re.compile(r"^\s*(import\s+triton\b|from\s+triton(\.[\w.]+)?\s+import\b)", re.M)
REEXPORT = re.compile(r"^\s*from\s+([\w.]+)\s+import\s+\(?([^)\n]*(?:\n[^)\n]*){0,6})", re.M)
JIT_FROM = re.compile(r"^\s*from\s+([\w.]+)\s+import\s+[^\n]*\bjit\b", re.M)


def triton_file_facts(text):
    facts = {"direct": bool(DIRECT.search(text)), "reexport": None, "jit_from": None}
    for m in REEXPORT.finditer(text):
        mod, names = m.group(1), m.group(2)
        if mod.split(".")[0] == "triton":
            continue
        if re.search(r"\b(triton|tl)\b", names):
            facts["reexport"] = mod
            break
    m = JIT_FROM.search(text)
    if m:
        facts["jit_from"] = m.group(1)
    return facts


def py_string_spans(text):
    """[(start, end)] of the string literals and comments of a Python file, as
    ((line, col), (line, col)); [] when the file does not tokenize."""
    import io
    import tokenize
    kinds = {tokenize.STRING, tokenize.COMMENT}
    for k in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END"):
        if hasattr(tokenize, k):
            kinds.add(getattr(tokenize, k))
    spans = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in kinds:
                spans.append((tok.start, tok.end, tok.type == tokenize.COMMENT))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    return spans


def py_in_string(spans, line, col):
    """'string', 'comment' or None for the position (1-based line, 0-based col)."""
    for a, b, is_comment in spans:
        if a <= (line, col) < b:
            return "comment" if is_comment else "string"
    return None


def bucket_msg(msg):
    return re.sub(r"'[^']*'", "'X'", msg)


def error_context(root, e):
    """The source text around an error position, to name its cause."""
    try:
        with open(os.path.join(root, e["file"]), encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        line = lines[e["line"] - 1]
    except (OSError, IndexError):
        return ""
    c = max(e["column"] - 1, 0)
    before = line[:c].strip()[-28:]
    after = line[c:c + 28].rstrip()
    return f"{before} >>{after}"


class Gap:
    def __init__(self):
        self.count = collections.Counter()
        self.ex = collections.defaultdict(list)

    def add(self, cat, where, n=1):
        self.count[cat] += n
        if len(self.ex[cat]) < EXAMPLES:
            self.ex[cat].append(where)

    def as_list(self):
        return [{"category": c, "count": n, "examples": self.ex[c]} for c, n in self.count.most_common()]


def project(o):
    root = read(os.path.join(o, "root")).strip()
    name = os.path.basename(o.rstrip("/"))
    commit = read(os.path.join(o, "commit")).strip()
    main = [os.path.normpath(p) for p in read(os.path.join(o, "files_main.lst")).split("\0") if p]
    hdrs = [os.path.normpath(p) for p in read(os.path.join(o, "files_h.lst")).split("\0") if p]
    mainset = set(main)
    try:
        out = json.loads(read(os.path.join(o, "out.json")) or "{}")
    except json.JSONDecodeError:
        out = {}
    errors = out.get("errors", [])
    for e in errors:
        e["file"] = os.path.normpath(e["file"])
    err_files = collections.OrderedDict()
    for e in errors:
        err_files.setdefault(e["file"], e)  # the first error of the file
    model, model_entries = parse_model(os.path.join(o, "model.txt"))
    model_h, _ = parse_model(os.path.join(o, "model_h.txt"))
    for f, ks in model_h.items():
        model[f].extend(ks)
    stats = read(os.path.join(o, "stats.txt"))
    m = re.search(r"files: (\d+) checked(?: \([^)]*\))?, (\d+) not checked", stats)
    checked, not_checked = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    hstats = read(os.path.join(o, "stats_h.txt"))
    m = re.search(r"files: (\d+) checked(?: \([^)]*\))?, (\d+) not checked", hstats)
    h_checked, h_not = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    try:
        hout = json.loads(read(os.path.join(o, "out_h.json")) or "{}")
    except json.JSONDecodeError:
        hout = {}
    h_msgs = collections.Counter(e["message"] for e in hout.get("errors", []))

    texts = {}

    def text(p):
        if p not in texts:
            texts[p] = read(os.path.join(root, p))
        return texts[p]

    spans = {}

    def pyspans(p):
        if p not in spans:
            spans[p] = py_string_spans(text(p))
        return spans[p]

    # ---- Triton
    dec = hits(os.path.join(o, "grep_triton_dec.txt"))
    calls = hits(os.path.join(o, "grep_triton_call.txt"))
    tgap, tseen_gap = Gap(), Gap()
    used = collections.defaultdict(set)  # file -> kernel index matched
    n_dec_triton = sum(1 for _, _, t in dec if re.match(r"\s*@triton\.jit", t))
    n_dec_jit = len(dec) - n_dec_triton
    not_triton = 0
    for f, ln, t in sorted(dec):
        ks = model.get(f, [])
        match = None
        for i, (kn, s, e) in enumerate(ks):
            if i not in used[f] and s <= ln <= e:
                match = i
                break
        facts = triton_file_facts(text(f))
        is_jit = not re.match(r"\s*@triton\.jit", t)
        where = f"{f}:{ln}"
        if match is None:
            inside = py_in_string(pyspans(f), ln, t.index("@"))
            if inside:
                tgap.add(f"decorator in a Python {inside} (kernel source generated at run time)"
                         if inside == "string" else "decorator in a comment", where)
                continue
        if is_jit:
            mod = facts["jit_from"]
            if mod is None or mod.split(".")[0] != "triton":
                if "triton" not in text(f) or (mod and mod.split(".")[0] in
                                                ("numba", "jax", "torch", "cupy", "taichi", "mlx")):
                    not_triton += 1
                    tgap.add(f"not Triton: `@jit` from {mod or '(no import)'}", where)
                    continue
        if match is not None:
            used[f].add(match)
            if is_jit:
                tseen_gap.add("seen: `@jit` (from %s)" % facts["jit_from"], where)
            if not facts["direct"] and facts["reexport"]:
                tseen_gap.add("seen: Triton via re-export module", where)
            continue
        if f in err_files:
            e = err_files[f]
            tgap.add(f"file error: {bucket_msg(e['message'])}", where)
        elif f not in mainset:
            tgap.add("file not given to kcheck (no 'triton' in it)", where)
        elif is_jit and facts["jit_from"] and facts["jit_from"].split(".")[0] == "triton":
            tgap.add(f"`@jit` from `from {facts['jit_from']} import jit`", where)
        elif not facts["direct"] and facts["reexport"]:
            tgap.add(f"Triton imported via a re-export module (from {facts['reexport']} import ... triton/tl)", where)
        elif not facts["direct"]:
            tgap.add("no `import triton` in the file (other import form)", where)
        elif re.match(r"\s+@", t):
            tgap.add("indented `@triton.jit` (inside a function or class)", where)
        else:
            tgap.add("other: not seen", where)
    call_seen = 0
    for f, ln, t in sorted(calls):
        where = f"{f}:{ln}"
        inside = py_in_string(pyspans(f), ln, t.index("triton.jit("))
        if inside:
            tgap.add("`triton.jit(` in a Python string (kernel source generated at run time)"
                     if inside == "string" else "`triton.jit(` in a comment", where)
            continue
        m = re.search(r"triton\.jit\(\s*(\w+)", t)
        ks = model.get(f, [])
        if m and any(kn == m.group(1) for kn, _, _ in ks):
            call_seen += 1
            continue
        if f in err_files:
            tgap.add(f"file error: {bucket_msg(err_files[f]['message'])}", where)
        else:
            tgap.add("kernel made by a `triton.jit(f)` call (not a decorator)", where)
    t_seen = sum(len(ks) for f, ks in model.items() if f.endswith(".py"))
    t_extra = Gap()
    for f, ks in model.items():
        if not f.endswith(".py"):
            continue
        for i, (kn, s, e) in enumerate(ks):
            if i not in used[f] and not any(kn2 == kn for kn2 in []):
                t_extra.add("kernel seen with no `@triton.jit`/`@jit` grep hit", f"{f}:{s} {kn}")

    # ---- CUDA
    glob = hits(os.path.join(o, "grep_global.txt"))
    by_ext = collections.Counter()
    other_ext = collections.Counter()
    cgap = Gap()
    cused = collections.defaultdict(set)
    cache = {}
    for f, ln, _ in sorted(glob):
        ext = ext_of(f)
        by_ext[ext] += 1
        where = f"{f}:{ln}"
        if ext == "other":
            other_ext[os.path.splitext(f)[1] or os.path.basename(f)] += 1
        if ext in (".cu", ".cuh", ".h", ".hpp"):
            ks = model.get(f, [])
            match = None
            for i, (kn, s, e) in enumerate(ks):
                if i not in cused[f] and s - 3 <= ln <= e:
                    match = i
                    break
            if match is not None:
                cused[f].add(match)
                continue
            if f in err_files:
                cgap.add(f"file error: {bucket_msg(err_files[f]['message'])}", where)
                continue
        if f not in cache:
            t = text(f)
            cache[f] = (t, c_states(t), line_starts(t), conditional_lines(t))
        cat, note = classify_cuda_hit(*cache[f], ln)
        if note:
            where += f" ({note})"
        if ext in (".cu", ".cuh"):
            if cat == "kernel definition":
                cat = "other: kernel definition in a checked file, not seen"
        elif ext in (".h", ".hpp", ".cpp"):
            how = "checked, not seen" if ext != ".cpp" else "not taken: not .cu/.cuh/.h/.hpp"
            if cat.startswith("kernel definition"):
                cat = f"kernel defined in a {ext} file ({how})"
            else:
                cat = f"{ext} file ({how}): {cat}"
        else:
            cat = f"not source: `__global__` in a {os.path.splitext(f)[1] or os.path.basename(f)} file"
        cgap.add(cat, where)
    c_seen = sum(len(ks) for f, ks in model.items() if f.endswith((".cu", ".cuh")))
    c_extra = Gap()
    for f, ks in model.items():
        if not f.endswith((".cu", ".cuh")):
            continue
        for i, (kn, s, e) in enumerate(ks):
            if i not in cused[f]:
                c_extra.add("kernel seen with no `__global__` hit on its lines (made by a macro?)", f"{f}:{s} {kn}")

    # ---- errors
    ebuckets = collections.Counter()
    eex = collections.defaultdict(list)
    for f, e in err_files.items():
        b = bucket_msg(e["message"])
        ebuckets[b] += 1
        if len(eex[b]) < EXAMPLES:
            eex[b].append(f"{f}:{e['line']}:{e['column']}  `{error_context(root, e)}`")
    all_msgs = collections.Counter(e["message"] for e in errors)
    n_py = sum(1 for p in main if p.endswith(".py"))
    n_cu = len(main) - n_py
    err_py = sum(1 for p in err_files if p.endswith(".py"))
    return {
        "name": name, "root": root, "commit": commit,
        "files_given": len(main), "files_py": n_py, "files_cu": n_cu,
        "files_checked": checked, "files_not_checked": not_checked,
        "files_error": len(err_files), "files_error_py": err_py,
        "files_error_cu": len(err_files) - err_py,
        "triton_grep": {"@triton.jit": n_dec_triton, "@jit": n_dec_jit, "triton.jit(": len(calls),
                        "@jit not Triton": not_triton},
        "triton_seen": t_seen, "triton_call_seen": call_seen,
        "cuda_grep": dict(by_ext), "cuda_grep_other_ext": dict(other_ext),
        "cuda_seen": c_seen, "model_kernel_entries": model_entries,
        "headers": {"files": len(hdrs), "checked": h_checked, "not_checked": h_not,
                    "messages": dict(h_msgs)},
        "triton_gap": tgap.as_list(), "triton_seen_notes": tseen_gap.as_list(),
        "triton_extra": t_extra.as_list(),
        "cuda_gap": cgap.as_list(), "cuda_extra": c_extra.as_list(),
        "error_buckets": [{"message": b, "files": n, "examples": eex[b]} for b, n in ebuckets.most_common()],
        "error_messages_all": dict(all_msgs.most_common()),
    }


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def markdown(ps):
    L = []
    L.append("| project | Triton grep (`@triton.jit` + `@jit` + `triton.jit(`) | Triton seen | CUDA `__global__` grep .cu / .cuh / .h / .hpp / .cpp / other | CUDA seen | files given (.py / .cu+.cuh) | checked | exit-2 files (%) |")
    L.append("|---|---|---|---|---|---|---|---|")
    for p in ps:
        tg = p["triton_grep"]
        cg = p["cuda_grep"]
        tt = tg["@triton.jit"] + tg["@jit"] + tg["triton.jit("]
        L.append(f"| {p['name']} | {tt} ({tg['@triton.jit']} + {tg['@jit']} + {tg['triton.jit(']}) | {p['triton_seen']} "
                 f"| {' / '.join(str(cg.get(e, 0)) for e in ('.cu', '.cuh', '.h', '.hpp', '.cpp', 'other'))} "
                 f"| {p['cuda_seen']} | {p['files_given']} ({p['files_py']} / {p['files_cu']}) | {p['files_checked']} "
                 f"| {p['files_error']} ({pct(p['files_error'], p['files_given'])}; py {p['files_error_py']}, cu {p['files_error_cu']}) |")
    L.append("")
    for p in ps:
        L.append(f"### {p['name']}  (`{p['root']}`, commit {p['commit'][:12]})")
        L.append("")
        h = p["headers"]
        if h["files"]:
            L.append(f"- .h/.hpp files with `__global__`: {h['files']}; kcheck: {h['checked']} checked, "
                     f"{h['not_checked']} not checked ({'; '.join(f'{m} x{n}' for m, n in h['messages'].items())})")
        if p["cuda_grep_other_ext"]:
            L.append(f"- `__global__` in other files: {p['cuda_grep_other_ext']}")
        for key, title in (("triton_gap", "Triton hits not seen"), ("triton_extra", "Triton kernels seen without a grep hit"),
                           ("triton_seen_notes", "Triton kernels seen (notes)"),
                           ("cuda_gap", "CUDA `__global__` hits not seen"), ("cuda_extra", "CUDA kernels seen without a hit")):
            if p[key]:
                L.append(f"- {title}:")
                for g in p[key]:
                    L.append(f"  - {g['count']} {g['category']}: {', '.join(g['examples'])}")
        if p["error_buckets"]:
            L.append("- files not checked, by first error:")
            for b in p["error_buckets"]:
                L.append(f"  - {b['files']} `{b['message']}`: " + "; ".join(b["examples"]))
        L.append("")
    return "\n".join(L)


def main():
    global EXAMPLES
    args = sys.argv[1:]
    md = js = None
    dirs = []
    while args:
        a = args.pop(0)
        if a == "--md":
            md = args.pop(0)
        elif a == "--json":
            js = args.pop(0)
        elif a == "--examples":
            EXAMPLES = int(args.pop(0))
        else:
            dirs.append(a)
    ps = [project(d) for d in dirs]
    text = markdown(ps)
    print(text)
    if md:
        with open(md, "w") as f:
            f.write(text + "\n")
    if js:
        with open(js, "w") as f:
            json.dump(ps, f, indent=1)


if __name__ == "__main__":
    main()
