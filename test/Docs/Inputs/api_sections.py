"""Checks each call of docs/api.md (or the file given): its summary is a
whole sentence (parentheses balanced, not cut at an abbreviation or a
range such as "0 .. n"), and no sentence is quoted under both *Returns,
errors* and *Threads*. Prints each problem, then "N calls, M problems"."""
import re
import sys

SENT = re.compile(r"(?<=[.!?])\s+")
text = open(sys.argv[1]).read()
calls = problems = 0
for m in re.finditer(r"^- `(.*)`  \n  (.*)  \n  \*Returns, errors:\* (.*) \*Threads:\* (.*)$", text, re.M):
    calls += 1
    sig, summary, returns, threads = m.groups()
    if summary.count("(") != summary.count(")") or re.search(r"\s\.$", summary):
        problems += 1
        print("%s: summary cut short: %s" % (sig, summary))
    both = set(SENT.split(returns)) & set(SENT.split(threads)) - {"not stated."}
    if both:
        problems += 1
        print("%s: under Returns and Threads: %s" % (sig, " ".join(sorted(both))[:200]))
print("%d calls, %d problems" % (calls, problems))
sys.exit(1 if problems or not calls else 0)
