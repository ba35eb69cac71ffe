"""Checks of the source tree's layout.

  layout includes [ROOT]   list the include circles among the compiler's files
                           under ROOT/llvm (exit 1 if there is one)
  layout internals [ROOT]  list the source files under ROOT/llvm and
                           ROOT/clang that docs/internals.md does not name
                           (exit 1 if there is one)
  layout sizes [ROOT]      list the source files over 1,000 lines outside
                           tests and generated files (exit 1 if there is one)

ROOT defaults to the source tree this script is in.

The include graph is one of units, not files: a header and the source file
of the same name are one unit (X.h declares what X.cpp defines), so
`A.cpp includes B.h` and `B.cpp includes A.h` is a circle of A and B, as it
is for the linker and for whoever reads them. An include is resolved against
the including file's folder, then llvm/include; others (LLVM's, the
runtime's contract) are outside the graph.
"""

import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE_EXTS = (".c", ".cpp", ".h", ".def", ".S", ".py")
MAX_LINES = 1000


def _root(argv):
    if argv:
        return os.path.abspath(argv[0])
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _files(root, top, exts):
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(exts):
                out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return out


def _unit(path):
    return os.path.splitext(os.path.basename(path))[0]


def include_graph(root):
    """{unit: {unit it includes: (file, included file)}} over llvm/."""
    files = _files(root, "llvm", (".cpp", ".h", ".def"))
    known = set(files)
    graph = {}
    for f in files:
        graph.setdefault(_unit(f), {})
        text = open(os.path.join(root, f), errors="replace").read()
        for inc in INCLUDE.findall(text):
            for base in (os.path.dirname(f), os.path.join("llvm", "include")):
                target = os.path.normpath(os.path.join(base, inc))
                if target in known:
                    if _unit(target) != _unit(f):
                        graph[_unit(f)].setdefault(_unit(target), (f, target))
                    break
    return graph


def circles(graph):
    """The strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_includes(root):
    graph = include_graph(root)
    found = circles(graph)
    for scc in found:
        print("include circle: " + ", ".join(scc))
        for a in scc:
            for b, (f, t) in sorted(graph[a].items()):
                if b in scc:
                    print("  %s includes %s" % (f, t))
    if not found:
        print("no include circle among %d units under llvm/" % len(graph))
    return 1 if found else 0


def check_internals(root):
    doc = open(os.path.join(root, "docs", "internals.md")).read()
    missing = [
        f
        for top in ("llvm", "clang")
        for f in _files(root, top, (".c", ".cpp", ".h", ".def"))
        if "`%s`" % f not in doc
    ]
    for f in missing:
        print("docs/internals.md does not name %s" % f)
    return 1 if missing else 0


def _tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True,
                             text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [f for top in ("llvm", "clang", "runtime", "scripts", "bench", "examples")
               for f in _files(root, top, SOURCE_EXTS)]
    return [f for f in out if f.endswith(SOURCE_EXTS)
            and not f.startswith(("test/", "docs/")) and "/Inputs/" not in f]


def check_sizes(root):
    big = []
    for f in _tracked(root):
        path = os.path.join(root, f)
        if os.path.isfile(path):
            n = sum(1 for _ in open(path, errors="replace"))
            if n > MAX_LINES:
                big.append((f, n))
    for f, n in big:
        print("%s: %d lines (more than %d)" % (f, n, MAX_LINES))
    return 1 if big else 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    checks = {"includes": check_includes, "internals": check_internals,
              "sizes": check_sizes}
    if not argv or argv[0] not in checks:
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    return checks[argv[0]](_root(argv[1:]))
