#!/usr/bin/env python3
"""Checks the layering of src/verify: for each .c file, the functions it
defines for other files (not static) and the ones it calls that another file
defines; the files must not call each other in a cycle, and no function may
be longer than --max-lines (150 by default).

    scripts/check-verify-layers.py [--max-lines N] [DIR]

Prints the files bottom-up (each calls only files listed before it) and the
longest function; exits 1 on a cycle or an over-long function."""
import argparse
import os
import re
import sys

IDENT = re.compile(r'[A-Za-z_]\w*')
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case', '_Alignof', '_Generic',
            'defined'}


def strip(text):
    """The text with comments, string and character literals and preprocessor
    lines blanked (newlines kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            j = i
            while j < n and (text[j] != '\n' or text[j - 1] == '\\'):
                j += 1
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j]) + c)
            i = j + 1
            continue
        if c == '\n':
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        out.append(c)
        i += 1
    return ''.join(out)


def functions(path):
    """[(name, is_static, first_line, last_line, body)] of the file's
    function definitions."""
    text = strip(open(path, encoding='utf-8').read())
    found, depth, i, n = [], 0, 0, len(text)
    decl_start = 0  # where the current top-level declaration begins
    while i < n:
        c = text[i]
        if c == '{' and depth == 0:
            head = text[decl_start:i]
            m = re.search(r'([A-Za-z_]\w*)\s*\([^;{}]*\)\s*$', head)
            j, d = i + 1, 1
            while j < n and d:
                d += {'{': 1, '}': -1}.get(text[j], 0)
                j += 1
            if m and '=' not in head[:m.start()]:
                first = text.count('\n', 0, decl_start + len(head) - len(head.lstrip())) + 1
                last = text.count('\n', 0, j) + 1
                found.append((m.group(1), bool(re.search(r'\bstatic\b', head)), first, last, text[i:j]))
            i = j
            decl_start = i
            continue
        if c == ';' and depth == 0:
            decl_start = i + 1
        elif c == '}' and depth == 0:
            decl_start = i + 1
        i += 1
    return found


def cycle(graph):
    """A cycle of the graph as a list of nodes, or None."""
    state, stack = {}, []

    def visit(u):
        state[u] = 1
        stack.append(u)
        for v in sorted(graph[u]):
            if state.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if not state.get(v):
                found = visit(v)
                if found:
                    return found
        stack.pop()
        state[u] = 2
        return None

    for u in sorted(graph):
        if not state.get(u):
            found = visit(u)
            if found:
                return found
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--max-lines', type=int, default=150)
    ap.add_argument('dir', nargs='?', default=os.path.join(os.path.dirname(__file__), '..', 'src', 'verify'))
    args = ap.parse_args()
    files = sorted(f for f in os.listdir(args.dir) if f.endswith('.c'))
    funcs = {f: functions(os.path.join(args.dir, f)) for f in files}
    owner = {}
    for f in files:
        for name, static, *_ in funcs[f]:
            if not static:
                owner[name] = f
    graph, calls = {f: set() for f in files}, {}
    for f in files:
        for name, _, _, _, body in funcs[f]:
            for callee in CALL.findall(body):
                if callee in KEYWORDS or callee not in owner or owner[callee] == f:
                    continue
                graph[f].add(owner[callee])
                calls.setdefault((f, owner[callee]), set()).add(callee)
    ok = True
    for f in files:
        exported = sorted(n for n, static, *_ in funcs[f] if not static)
        print(f'{f}: defines {", ".join(exported) or "-"}')
        for g in sorted(graph[f]):
            print(f'    calls {g}: {", ".join(sorted(calls[(f, g)]))}')
    found = cycle(graph)
    if found:
        print('cycle: ' + ' -> '.join(found))
        ok = False
    else:
        order, placed = [], set()
        while len(order) < len(files):
            ready = sorted(f for f in files if f not in placed and graph[f] <= placed)
            order += ready
            placed |= set(ready)
        print('no cycle; bottom-up: ' + ' < '.join(order))
    longest = max(((last - first + 1, f, name) for f in files for name, _, first, last, _ in funcs[f]),
                  default=(0, '-', '-'))
    print(f'longest function: {longest[2]} ({longest[1]}, {longest[0]} lines)')
    for f in files:
        for name, _, first, last, _ in funcs[f]:
            if last - first + 1 > args.max_lines:
                print(f'{f}:{first}: {name} is {last - first + 1} lines (at most {args.max_lines})')
                ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
