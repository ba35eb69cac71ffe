"""The documentation's tools.

  scripts/docs html --out DIR      the runtime API reference as HTML (Doxygen,
                                   docs/Doxyfile) in DIR/html
  scripts/docs api [--check]       write docs/api.md, the index of every public
                                   call, from the headers' doc comments (read
                                   through Doxygen's XML); --check: write
                                   nothing, fail if docs/api.md differs
  scripts/docs examples --cc CC --cxx CXX [-- FLAGS...]
                                   compile every example of README.md and
                                   docs/*.md; fail naming the ones that break

An example is a fenced block whose info string is `c` or `cpp`; it must be a
whole translation unit and compile without warnings (-Werror). A block that
is not one says so in its info string (```c fragment) and is skipped.
"""

import argparse
import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOXYFILE = os.path.join(ROOT, "docs", "Doxyfile")
API_MD = os.path.join(ROOT, "docs", "api.md")
HEADERS = os.path.join(ROOT, "runtime", "include", "cacs")


def doxygen(outdir, xml=False, html=True):
    """Runs Doxygen with docs/Doxyfile from the source root."""
    with open(DOXYFILE) as f:
        config = f.read()
    config += "\nOUTPUT_DIRECTORY = %s\n" % outdir
    config += "GENERATE_XML = %s\n" % ("YES" if xml else "NO")
    config += "GENERATE_HTML = %s\n" % ("YES" if html else "NO")
    os.makedirs(outdir, exist_ok=True)
    try:
        subprocess.run(["doxygen", "-"], input=config, text=True, cwd=ROOT,
                       check=True)
    except FileNotFoundError:
        sys.exit("docs: doxygen not found (apt-get install doxygen)")


# --- api.md ---------------------------------------------------------------


def text_of(node, skip_return=False):
    """The text of a Doxygen description, code spans back in backticks
    (without its \\return section if skip_return)."""
    if node is None:
        return ""
    out = []

    def walk(n):
        if skip_return and n.tag == "simplesect" and n.get("kind") == "return":
            return
        if n.tag == "computeroutput":
            out.append("`" + "".join(n.itertext()) + "`")
        else:
            if n.text:
                out.append(n.text)
            for c in n:
                walk(c)
                if c.tail:  # the text after c, even when c was skipped
                    out.append(c.tail)
        if n.tag == "para":
            out.append("\n")

    walk(node)
    return re.sub(r"[ \t\n]+", " ", "".join(out)).strip()


SENTENCE = re.compile(r"(?<![ .]e\.g\.)(?<!i\.e\.)(?<=[.!?])\s+")


def sentences(text):
    return [s for s in SENTENCE.split(text) if s]


RESULT = r"\b[Rr]eturns?\b|\bNULL\b|\bE[A-Z]{3,}\b|\berrno\b|\babort|\bthrow"
THREADS = r"\bthread"
# A sentence that speaks of both goes under one: errors if it names one.
ERROR = r"\bNULL\b|\bE[A-Z]{3,}\b|\berrno\b|\babort|\bthrow|\bfail"


def classify(parts):
    """The sentences of a call's comment that speak of returns or errors,
    and those that speak of threads; each sentence under one only."""
    returns, threads = [], []
    for s in parts:
        r, t = re.search(RESULT, s), re.search(THREADS, s)
        if r and (not t or re.search(ERROR, s)):
            returns.append(s)
        elif t:
            threads.append(s)
    return " ".join(returns), " ".join(threads)


def header_rules(path):
    """The paragraphs of a header's opening comment that speak of threads,
    returns or errors (the rules its calls share); code paragraphs left out."""
    paras, cur = [], []
    with open(path) as f:
        for line in f:
            if not line.startswith("//"):
                break
            body = line[2:].rstrip()
            body = body[1:] if body.startswith(" ") else body
            if body.startswith("===") or body.startswith("/==="):
                continue
            if not body:
                if cur:
                    paras.append(" ".join(cur))
                cur = []
            else:
                cur.append(body if not cur else body.strip())
    if cur:
        paras.append(" ".join(cur))
    return [p for p in paras if not p.startswith(" ")
            and re.search(THREADS + "|" + RESULT + r"|\b[Ee]rrors?\b", p)]


def sections(path):
    """The header's section comments, `// --- Title ---` and the comment lines
    under it: [(line, title, text)]. Doxygen does not read them, but they
    state rules (threads, timeouts) for the calls that follow."""
    out = []
    with open(path) as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"// -+ (.*?) -+$", line)
        if not m:
            continue
        body, j = [], i + 1
        while j < len(lines) and lines[j].startswith("//"):
            body.append(lines[j][2:].strip())
            j += 1
        out.append((i + 1, m.group(1), " ".join(b for b in body if b)))
    return out


def public(name):
    return not name.startswith(("cacs__", "_")) and "detail" not in name


def special(m, name, cname):
    """Deleted, defaulted, copy/move and destructor members, operators."""
    args = m.findtext("argsstring") or ""
    short = (cname or "").split("::")[-1]
    return (re.search(r"=\s*(delete|default)", args) or name.startswith(
        ("operator", "~")) or (name == short and re.search(
            r"\(\s*(const\s+)?%s\s*&" % re.escape(short), args)))


def calls_of(xmldir, refid, cname=None):
    """(line, signature, description, \\return text) of the public calls
    of one compound."""
    cd = ET.parse(os.path.join(xmldir, refid + ".xml")).getroot().find(
        "compounddef")
    found = []
    for sd in cd.findall("sectiondef"):
        if sd.get("kind", "").startswith(("private", "protected")):
            continue
        for m in sd.findall("memberdef"):
            kind, name = m.get("kind"), m.findtext("name")
            if m.get("prot") not in (None, "public") or not public(name):
                continue
            if kind == "function":
                if cname and special(m, name, cname):
                    continue
                ret = text_of(m.find("type"))
                full = "%s::%s" % (cname, name) if cname else name
                sig = "%s %s%s" % (ret, full, m.findtext("argsstring") or "")
            elif kind == "define" and m.find("param") is not None and \
                    name == name.lower():
                params = ", ".join(p.findtext("defname") or ""
                                   for p in m.findall("param"))
                sig = "%s(%s) (macro)" % (name, params)
            else:
                continue
            detail = m.find("detaileddescription")
            desc = " ".join(
                t for t in (text_of(m.find("briefdescription")),
                            text_of(detail, skip_return=True)) if t)
            returns = " ".join(
                text_of(s) for s in (detail.iter("simplesect") if detail is not None else ())
                if s.get("kind") == "return")
            line = int(m.find("location").get("line", "0"))
            found.append((line, sig.strip(), desc, returns))
    return found


def api_markdown(xmldir):
    index = ET.parse(os.path.join(xmldir, "index.xml")).getroot()
    files = {c.findtext("name"): c.get("refid")
             for c in index.findall("compound") if c.get("kind") == "file"}
    classes = {c.findtext("name"): c.get("refid")
               for c in index.findall("compound")
               if c.get("kind") in ("class", "struct")}
    namespaces = {c.findtext("name"): c.get("refid")
                  for c in index.findall("compound")
                  if c.get("kind") == "namespace"}
    out = ["# libcacs API reference", "",
           "Every public call of the runtime's headers (`runtime/include/cacs/`), "
           "generated by `scripts/docs api` from their doc comments; "
           "`test/Docs/api-index.test` fails when this file is stale. Edit "
           "the headers, not this file. *Returns, errors* and *threads* "
           "quote the sentences of a call's comment that speak of them; "
           "\"not stated\" means the call's own comment does not, and the "
           "rules quoted above it (from the header's opening comment and "
           "its section's comment) apply. HTML with the types: "
           "`ninja -C build docs`. The guide: [runtime.md](runtime.md).", ""]
    undocumented = []
    for header in sorted(os.listdir(HEADERS)):
        if not header.endswith((".h", ".hpp")) or header not in files:
            continue
        path = os.path.join(HEADERS, header)
        calls = calls_of(xmldir, files[header])
        # C++ headers: the public members of the classes they define.
        fcd = ET.parse(os.path.join(xmldir, files[header] + ".xml")).getroot()
        for ic in fcd.find("compounddef").findall("innerclass"):
            cname = ic.text
            # Nested classes (iterators, yielders' internals) are not calls.
            if ic.get("prot") not in (None, "public") or not public(cname) \
                    or cname.count("::") > 1:
                continue
            calls += calls_of(xmldir, ic.get("refid"), cname)
        out += ["## `cacs/%s`" % header, ""]
        for rule in header_rules(path):
            out += ["> " + rule, ""]
        if not calls:
            out += ["No calls (types and macros only).", ""]
        marks = sections(path)
        for line, sig, desc, returns in sorted(calls):
            while marks and marks[0][0] < line:
                _, title, text = marks.pop(0)
                out += ["", "### %s" % title, ""]
                if text:
                    out += ["> " + text, ""]
            # The \\return section is *Returns, errors* alone, though it may
            # speak of threads ("another thread's handle": EINVAL).
            parts = sentences(desc)
            if not parts and not returns:
                undocumented.append("cacs/%s: %s" % (header, sig))
            summary = (parts or sentences(returns) or ["**undocumented** (no doc comment)"])[0]
            out.append("- `%s`  " % re.sub(r"\s+", " ", sig))
            out.append("  %s  " % summary)
            results, threads = classify(parts)
            out.append("  *Returns, errors:* %s *Threads:* %s" % (
                " ".join(t for t in (results, returns) if t) or "not stated.",
                threads or "not stated."))
        out.append("")
    out += ["## Undocumented calls", ""]
    out += ["- `%s`" % u for u in undocumented] or ["None."]
    return "\n".join(out).rstrip("\n") + "\n"


def cmd_api(args):
    with tempfile.TemporaryDirectory() as tmp:
        doxygen(tmp, xml=True, html=False)
        text = api_markdown(os.path.join(tmp, "xml"))
    if args.check:
        with open(API_MD) as f:
            old = f.read()
        if old != text:
            sys.stderr.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), "docs/api.md",
                "generated"))
            sys.exit("docs: docs/api.md is stale: run scripts/docs api")
        print("docs/api.md is up to date")
        return
    with open(API_MD, "w") as f:
        f.write(text)


def cmd_html(args):
    doxygen(os.path.abspath(args.out), xml=False, html=True)
    print(os.path.join(os.path.abspath(args.out), "html", "index.html"))


# --- examples ---------------------------------------------------------------

FENCE = re.compile(r"^(`{3,})\s*([^`]*)$")


def examples(path):
    """(first line, language, code) of each c/cpp block of a Markdown file."""
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).split()
        start, i = i + 1, i + 1
        while i < len(lines) and not lines[i].startswith(fence):
            i += 1
        if info and info[0] in ("c", "cpp") and "fragment" not in info[1:]:
            yield start, info[0], "\n".join(lines[start:i]) + "\n"
        i += 1


def cmd_examples(args):
    docs = [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "*.md")))
    failed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for doc in docs:
            rel = os.path.relpath(doc, ROOT)
            for line, lang, code in examples(doc):
                total += 1
                src = os.path.join(tmp, "example%d.%s" % (total, lang))
                with open(src, "w") as f:
                    f.write(code)
                cc = args.cxx if lang == "cpp" else args.cc
                std = "-std=c++17" if lang == "cpp" else "-std=c17"
                r = subprocess.run(
                    [cc, std, "-Wall", "-Werror", "-c", src, "-o",
                     os.path.join(tmp, "example.o")] + args.flags,
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    text=True)
                if r.returncode:
                    failed += 1
                    print("%s:%d: error: this ```%s example does not compile"
                          % (rel, line, lang))
                    print(r.stdout.replace(src, "%s:<example at %d>" %
                                           (rel, line)))
    print("%d examples, %d failed" % (total, failed))
    sys.exit(1 if failed else 0)


def main():
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("api")
    a.add_argument("--check", action="store_true")
    h = sub.add_parser("html")
    h.add_argument("--out", required=True)
    e = sub.add_parser("examples")
    e.add_argument("--cc", required=True)
    e.add_argument("--cxx", required=True)
    e.add_argument("flags", nargs="*")
    args = p.parse_args()
    {"api": cmd_api, "html": cmd_html, "examples": cmd_examples}[args.cmd](args)

