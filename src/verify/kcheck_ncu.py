"""kcheck verify --run: per-source-line memory counters of a profiled run.

Nsight Compute measures what kcheck can only predict: how many L2 sectors a
line's global accesses touched against how many a coalesced access would
have, how many shared-memory wavefronts a line's accesses took against the
ideal (bank conflicts). `ncu --section SourceCounters -o REPORT CMD`
collects them for every profiled launch; this module reads them back, line
by line, so that a finding on line 7 of a kernel can be judged by what the
GPU did on line 7.

    python3 kcheck_ncu.py REPORT.ncu-rep OUT.json
        runs `ncu -i REPORT --page source --csv --print-source cuda,sass`
        (ncu from $KCHECK_NCU, else `ncu` on PATH, else $CUDA_HOME/bin/ncu,
        else /usr/local/cuda/bin/ncu; killed after $KCHECK_NCU_TIMEOUT
        seconds, 300 by default) and reads what it prints;
    python3 kcheck_ncu.py --csv PRINTED.csv OUT.json
        reads a source view printed that way before.
    OUT.json may be '-' (standard output).

What ncu prints is one block per profiled launch and source file:

    "File Path","/abs/strided.cu"
    "Function Name","col_read(const float *, float *, int, int)"
    "Line No","Source","Address","Source","Instructions Executed",...
    "7","s += a[r * cols + c];","-","-","264192",...      <- the line
    "","","0x7f8ae77a0100","      LDG.E R5, desc[UR4][R2.64]",...  <- its SASS

A kernel built without line information (no -lineinfo) gets a block of
SASS alone ("Kernel Name" and a header starting "Address"), and, in a view
that asks for CUDA source, a line of its own:
    ==WARNING== No lineinfo available to show CUDA-C source related to 'NAME'.
Each block has the columns of its own kernel only (the shared-memory
wavefront columns appear where the kernel has shared accesses). ncu does
not escape quotes inside a field (a line of source with a string literal
in it), so a row is split at `","` and the pieces beyond the header's
count are given back to the source text; the counters are read from the
end of the row.

The document written:

    {"tool": "ncu", "error": null or "why nothing could be read",
     "warnings": ["==WARNING== ...", ...],        (ncu's own, each once)
     "notes": ["what was skipped in the output and why", ...],
     "kernels": [{"function": "col_read",           (the bare name)
                  "signature": "col_read(const float *, float *, int, int)",
                  "file": "/abs/strided.cu" or null, "lineinfo": true,
                  "launches": 1,                    (blocks summed into it)
                  "metrics": ["global_sectors", ...],  (columns it had)
                  "warnings": [...],                (ncu's, naming it)
                  "lines": [{"line": 7, "source": "s += a[r * cols + c];",
                             "instructions": 264192,
                             "global_sectors": 4194304,
                             "global_sectors_ideal": 524288,
                             "global_sectors_excessive": 3670016,
                             "shared_wavefronts": 0, "shared_wavefronts_ideal": 0,
                             "shared_wavefronts_excessive": 0,
                             "shared_conflict_ways": 0,
                             "address_spaces": {"Global": 16}}, ...]}]}

One entry per function (signature) and source file: the blocks of several
launches of it are summed line by line (the conflict ways and the count of
accesses per address space are the largest seen, not a sum), and
"launches" says how many. Only lines with a counter above zero are kept.
Counters a block has no column for are 0 ("metrics" names those it had).
Local memory: the SourceCounters section of ncu 2025.3.1 prints no column
for it; the "Address Space" of a line ("Local" for spills, where ncu names
it) is kept in "address_spaces", and any column whose name says Local is
kept under its name in snake case. A kernel ncu only warned about (no
lineinfo, no block) gets an entry with "lineinfo": false and no lines.

Whatever ncu printed, or failed to, this writes a document and exits 0:
the caller judges. Standard library only, Python 3.8+.
"""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys

# column of the source view -> key of a line; summed across launches
_SUMMED = (
    ("Instructions Executed", "instructions"),
    ("L2 Theoretical Sectors Global", "global_sectors"),
    ("L2 Theoretical Sectors Global Ideal", "global_sectors_ideal"),
    ("L2 Theoretical Sectors Global Excessive", "global_sectors_excessive"),
    ("L1 Wavefronts Shared", "shared_wavefronts"),
    ("L1 Wavefronts Shared Ideal", "shared_wavefronts_ideal"),
    ("L1 Wavefronts Shared Excessive", "shared_wavefronts_excessive"),
)
# the largest across launches: a property of the access, not an amount
_MAXED = (
    ("L1 Conflicts Shared N-Way", "shared_conflict_ways"),
)
_KEYS = [k for _, k in _SUMMED + _MAXED]
_SPACE_COLUMN = "Address Space"
_NUMBER_JUNK = re.compile(r"[,\s\u00a0\u202f']")
_SPACE_ITEM = re.compile(r"^\s*([A-Za-z][\w ]*?)\s*(?:\((\d+)\))?\s*$")
_FILE_ROWS = ("File Path", "File Name")
_NAME_ROWS = ("Function Name", "Kernel Name")
_MAX_NOTES = 50


# ---- names -------------------------------------------------------------------

def _param_open(sig):
    """Index of the '(' that opens the parameter list (the one matching
    the last ')'), or -1 when the name has none."""
    s = sig.rstrip()
    for tail in (" const", " volatile", "&&", "&"):
        if s.endswith(tail):
            s = s[: -len(tail)].rstrip()
    if not s.endswith(")"):
        return -1
    depth = 0
    for i in range(len(s) - 1, -1, -1):
        c = s[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def function_name(sig):
    """The bare name of a kernel: `void ns::foo<float, (int)4>(T1)` -> foo,
    `col_read(const float *, int)` -> col_read, `col_sum` -> col_sum."""
    if not isinstance(sig, str):
        return None
    s = sig.strip()
    p = _param_open(s)
    if p > 0:
        s = s[:p].rstrip()
    if s.endswith(">"):  # the name's own template arguments
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            if s[i] == ">":
                depth += 1
            elif s[i] == "<":
                depth -= 1
                if depth == 0:
                    if i > 0:
                        s = s[:i].rstrip()
                    break
    # the last component at nesting depth 0: after a return type or a scope
    depth = 0
    start = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth = max(0, depth - 1)
        elif depth == 0 and c == " ":
            start = i + 1
        elif depth == 0 and s.startswith("::", i):
            start = i + 2
            i += 1
        i += 1
    name = s[start:].strip()
    return name or sig.strip() or None


_CAST = re.compile(r"\((?:unsigned |signed )?(?:int|long|long long|short|char|bool)\)")
_SCOPE = re.compile(r"(?:[A-Za-z_]\w*|<unnamed>|\(anonymous namespace\))::")


def _loose(sig):
    """A signature with what ncu's two spellings of it differ in taken out:
    the casts of template values and every scope (the warnings of the CUDA
    view say at::reduce_kernel<512, ...> where the SASS view says
    at::native::reduce_kernel<(int)512, ...>)."""
    s = _CAST.sub("", sig)
    s = _SCOPE.sub("", s)
    return re.sub(r"\s+", "", s)


# ---- rows --------------------------------------------------------------------

def _split(line):
    """The fields of one printed row. ncu quotes every field and escapes
    nothing, so a quoted row is split at '","'; anything else goes to the
    csv module."""
    s = line.rstrip("\r\n")
    if s.startswith('"'):
        body = s[1:]
        if body.endswith('",'):
            body = body[:-2]
        elif body.endswith('"'):
            body = body[:-1]
        return body.split('","')
    try:
        return next(csv.reader([s]))
    except (csv.Error, StopIteration):
        return [s]


def _fit(parts, n, source_at):
    """Fields of a data row against a header of n columns: pieces beyond n
    come from quotes and commas in the source text at source_at; a row
    with fewer (cut short) is padded with None."""
    if len(parts) > n and 0 <= source_at < n:
        extra = len(parts) - n
        parts = (parts[:source_at] + ['","'.join(parts[source_at:source_at + extra + 1])] +
                 parts[source_at + extra + 1:])
    if len(parts) < n:
        parts = parts + [None] * (n - len(parts))
    return parts[:n]


def _number(text):
    """An ncu counter as a number: '4,194,304' -> 4194304; '-', '' and
    anything else that is not a number -> None."""
    if text is None:
        return None
    t = _NUMBER_JUNK.sub("", text)
    if not t or t == "-":
        return None
    try:
        v = float(t)
    except ValueError:
        return None
    if v != v or v in (float("inf"), float("-inf")):
        return None
    return int(v) if v == int(v) else v


def _spaces(text):
    """'Global(16)' -> {'Global': 16}; 'Global,Shared' -> {'Global': 1,
    'Shared': 1}; '-' -> {}."""
    out = {}
    if not text or text.strip() in ("", "-"):
        return out
    for item in text.split(","):
        m = _SPACE_ITEM.match(item)
        if m:
            out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2) or 1)
    return out


def _slug(name):
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


# ---- blocks ------------------------------------------------------------------

class _Block:
    def __init__(self):
        self.file = None
        self.signature = None
        self.header = None
        self.lineinfo = False
        self.rows = 0
        self.lines = {}  # line -> {key: value}
        self.metrics = set()

    def started(self):
        return self.file is not None or self.signature is not None or self.header is not None


class _Parser:
    def __init__(self):
        self.blocks = []
        self.block = _Block()
        self.messages = []  # ncu's ==...== lines, in order
        self.notes = []
        self.dropped_notes = 0

    def note(self, what):
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(what)
        else:
            self.dropped_notes += 1

    def close(self):
        if self.block.started():
            self.blocks.append(self.block)
        self.block = _Block()

    def feed(self, text):
        for n, line in enumerate(text.splitlines(), 1):
            try:
                self._line(line)
            except Exception as e:  # noqa: BLE001 - one bad line is noted, not fatal
                self.note("line %d skipped (%s: %s)" % (n, type(e).__name__, e))
        self.close()

    def _line(self, line):
        s = line.strip()
        if not s:
            return
        if s.startswith("=="):
            self.messages.append(s)
            return
        parts = _split(s)
        first = parts[0].strip() if parts else ""
        b = self.block
        if first in _FILE_ROWS:
            if b.header is not None or b.file is not None or b.signature is not None:
                self.close()
                b = self.block
            b.file = parts[1] if len(parts) > 1 else ""
            return
        if first in _NAME_ROWS:
            if b.header is not None or b.signature is not None:
                self.close()
                b = self.block
            b.signature = parts[1] if len(parts) > 1 else ""
            return
        if first in ("Line No", "Address") and len(parts) >= 2 and parts[1] == "Source":
            if b.header is not None:
                self.close()
                b = self.block
            b.header = [p.strip() for p in parts]
            for col, key in _SUMMED + _MAXED:
                if col in b.header:
                    b.metrics.add(key)
            for col in b.header:
                if "local" in col.lower():
                    b.metrics.add(_slug(col))
            return
        if b.header is None:
            self.note("not part of a source view: %.80s" % s)
            return
        b.rows += 1
        if b.header[0] != "Line No" or first == "":
            return  # a SASS instruction: its line has it already
        try:
            ln = int(first)
        except ValueError:
            self.note("row without a line number: %.80s" % s)
            return
        b.lineinfo = True
        row = _fit(parts, len(b.header), 1)
        col = {}
        for i, name in enumerate(b.header):
            col.setdefault(name, i)  # the first "Source" is the CUDA line
        vals = {}
        for name, key in _SUMMED + _MAXED:
            if name in col:
                v = _number(row[col[name]])
                if v is not None:
                    vals[key] = v
        for name, i in col.items():
            if "local" in name.lower():
                v = _number(row[i])
                if v is not None:
                    vals[_slug(name)] = v
        if _SPACE_COLUMN in col:
            sp = _spaces(row[col[_SPACE_COLUMN]])
            if sp:
                vals["address_spaces"] = sp
        src = row[col["Source"]] if "Source" in col else None
        if src is not None:
            vals["source"] = src.strip()
        _merge_line(b.lines.setdefault(ln, {}), vals)


def _merge_line(into, vals):
    maxed = {k for _, k in _MAXED}
    for k, v in vals.items():
        if k == "source":
            into.setdefault("source", v)
        elif k == "address_spaces":
            sp = into.setdefault("address_spaces", {})
            for name, count in v.items():
                sp[name] = max(sp.get(name, 0), count)
        elif k in maxed:
            into[k] = max(into.get(k, 0), v)
        else:
            into[k] = into.get(k, 0) + v


def _counted(vals):
    return any(isinstance(v, (int, float)) and v > 0 for k, v in vals.items())


# ---- the document --------------------------------------------------------------

def _dedup(items):
    seen = set()
    out = []
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


_QUOTED = re.compile(r"'(.*)'")


def parse_text(text, ncu_failed=None):
    """The document for a printed source view (a str)."""
    p = _Parser()
    p.feed(text if isinstance(text, str) else "")
    kernels = []
    by_key = {}
    for b in p.blocks:
        if b.header is None:
            p.note("a block for %s without a header row (output cut short?)" %
                   (b.signature or b.file or "an unnamed kernel"))
            continue
        if b.signature is None and not b.metrics:
            p.note("source of %s printed without a kernel name or counters (a view without sass?)" % b.file)
            continue
        key = (b.signature, b.file)
        k = by_key.get(key)
        if k is None:
            k = {"function": function_name(b.signature), "signature": b.signature, "file": b.file,
                 "lineinfo": False, "launches": 0, "metrics": set(), "warnings": [], "_lines": {}}
            by_key[key] = k
            kernels.append(k)
        k["launches"] += 1
        k["lineinfo"] = k["lineinfo"] or b.lineinfo
        k["metrics"] |= b.metrics
        for ln, vals in b.lines.items():
            _merge_line(k["_lines"].setdefault(ln, {}), vals)

    # ncu's messages: the warnings kept; those naming a kernel go with it
    warnings = []
    errors = []
    for m in p.messages:
        if m.startswith("==PROF=="):
            continue
        if m.startswith("==ERROR=="):
            errors.append(m)
        warnings.append(m)
        q = _QUOTED.search(m)
        if not q:
            continue
        named = q.group(1)
        loose = _loose(named)
        match = [k for k in kernels if k["signature"] == named]
        if not match:
            match = [k for k in kernels if k["signature"] and _loose(k["signature"]) == loose]
        if not match:
            fn = function_name(named)
            same = [k for k in kernels if k["function"] == fn and not k.get("_warned")]
            if len({k["signature"] for k in same}) == 1:
                match = same
        no_lines = "lineinfo" in m.lower()
        if not match and no_lines:
            k = {"function": function_name(named), "signature": named, "file": None, "lineinfo": False,
                 "launches": 0, "metrics": set(), "warnings": [], "_lines": {}, "_warned": True}
            kernels.append(k)
            match = [k]
        for k in match:
            if k.get("_warned"):
                k["launches"] += 1  # one such warning per launch ncu profiled
            if m not in k["warnings"]:
                k["warnings"].append(m)
            if no_lines and not k["_lines"]:
                k["lineinfo"] = False

    out_kernels = []
    for k in kernels:
        lines = []
        for ln in sorted(k["_lines"]):
            vals = k["_lines"][ln]
            if not _counted(vals):
                continue
            row = {"line": ln}
            if "source" in vals:
                row["source"] = vals["source"]
            for key in _KEYS:
                row[key] = vals.get(key, 0)
            for key in sorted(vals):
                if key not in row and key != "address_spaces":
                    row[key] = vals[key]
            if vals.get("address_spaces"):
                row["address_spaces"] = vals["address_spaces"]
            lines.append(row)
        out_kernels.append({"function": k["function"], "signature": k["signature"], "file": k["file"],
                            "lineinfo": k["lineinfo"], "launches": k["launches"],
                            "metrics": sorted(k["metrics"]), "warnings": k["warnings"], "lines": lines})

    error = None
    if not out_kernels:
        if ncu_failed:
            error = ncu_failed
        elif errors:
            error = "; ".join(_dedup(errors))[:2000]
        elif not p.blocks and not warnings:
            error = "no source view of any kernel in the ncu output"
    elif ncu_failed:
        p.note(ncu_failed)
    if p.dropped_notes:
        p.notes.append("%d more notes left out" % p.dropped_notes)
    return {"tool": "ncu", "kernels": out_kernels, "warnings": _dedup(warnings), "notes": p.notes,
            "error": error}


# ---- running ncu ---------------------------------------------------------------

def find_ncu():
    env = os.environ.get("KCHECK_NCU")
    if env:
        return env
    on_path = shutil.which("ncu")
    if on_path:
        return on_path
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root:
            cand = os.path.join(root, "bin", "ncu")
            if os.access(cand, os.X_OK):
                return cand
    return None


def _timeout():
    try:
        t = float(os.environ.get("KCHECK_NCU_TIMEOUT", "300"))
        return t if t > 0 else 300.0
    except ValueError:
        return 300.0


def _text(b):
    if b is None:
        return ""
    if isinstance(b, str):
        return b
    return b.decode("utf-8", "replace")


def from_report(report):
    """The document for an .ncu-rep file, by way of `ncu -i`."""
    if not os.path.isfile(report):
        return {"tool": "ncu", "kernels": [], "warnings": [], "notes": [], "error": "no report file %s" % report}
    ncu = find_ncu()
    if not ncu:
        return {"tool": "ncu", "kernels": [], "warnings": [], "notes": [],
                "error": "ncu not found ($KCHECK_NCU, PATH, $CUDA_HOME/bin)"}
    argv = [ncu, "-i", report, "--page", "source", "--csv", "--print-source", "cuda,sass"]
    limit = _timeout()
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
    except OSError as e:
        return {"tool": "ncu", "kernels": [], "warnings": [], "notes": [],
                "error": "could not run %s: %s" % (ncu, e)}
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        # ncu and whatever it started: they share the session it leads
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            out = b""
        # what it printed before is read; the time limit is the error or a note
        return parse_text(_text(out), "ncu -i did not finish in %g s" % limit)
    rc = proc.returncode
    out, err = _text(out), _text(err)
    failed = None
    if rc != 0:
        tail = " ".join(err.strip().splitlines()[-5:])[:1000]
        failed = "ncu -i exited %d%s" % (rc, (": " + tail) if tail else "")
    # ncu's messages on stderr count as much as those among the rows
    msgs = "\n".join(l for l in err.splitlines() if l.strip().startswith("=="))
    return parse_text(out + "\n" + msgs, failed)


def from_csv(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return {"tool": "ncu", "kernels": [], "warnings": [], "notes": [], "error": "cannot read %s: %s" % (path, e)}
    return parse_text(_text(data))


def _write(doc, out):
    text = json.dumps(doc, indent=1, default=str) + "\n"
    if out == "-":
        sys.stdout.write(text)
        return
    tmp = out + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        sys.stderr.write("kcheck_ncu: cannot write %s: %s\n" % (out, e))
        sys.stdout.write(text)


def main(argv):
    args = argv[1:]
    if len(args) == 3 and args[0] == "--csv":
        source, out, mode = args[1], args[2], "csv"
    elif len(args) == 2 and not args[0].startswith("-"):
        source, out, mode = args[0], args[1], "report"
    else:
        sys.stderr.write("usage: kcheck_ncu.py REPORT.ncu-rep OUT.json\n"
                         "       kcheck_ncu.py --csv PRINTED.csv OUT.json\n")
        return 2
    try:
        doc = from_csv(source) if mode == "csv" else from_report(source)
    except Exception as e:  # noqa: BLE001 - the caller gets a document, never a traceback
        doc = {"tool": "ncu", "kernels": [], "warnings": [], "notes": [],
               "error": "kcheck_ncu failed: %s: %s" % (type(e).__name__, e)}
    _write(doc, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
