#!/usr/bin/env python3
"""Generate a C module for the compiler-cost benchmark (issue 6, item 6).

usage: gen.py NFUNCS OUT.c [--heavy]

N functions f0..f{N-1}, noinline so that -O2 keeps the call graph:
  - every function calls its predecessor (chains, so APN propagates far),
    and every 8th also calls a preserve_none switch function (APN seeds);
  - every 97th is exported and every 101st has its address taken (both
    stop APN), the rest are static;
  - --heavy gives each function a realistic body (a loop over an array,
    a switch, some arithmetic): the "large C file" input.
"""
import sys


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    heavy = "--heavy" in sys.argv
    w = []
    w.append('#include "cacs/switch.h"\n')
    w.append("CACS_PRESERVE_NONE void cc_switch(void);\n")
    w.append("extern int sink[64];\n")
    w.append("typedef int (*fp_t)(int);\n")
    for i in range(n):
        st = "" if i % 97 == 0 else "static "
        w.append("%s__attribute__((noinline)) int f%d(int x);\n" % (st, i))
    for i in range(n):
        st = "" if i % 97 == 0 else "static "
        b = ["%s__attribute__((noinline)) int f%d(int x) {" % (st, i),
             "  int r = x * %d + %d;" % (i % 13 + 1, i)]
        if heavy:
            b += ["  for (int k = 0; k < (x & 15); ++k) {",
                  "    r += sink[(k + %d) & 63] ^ (r >> %d);" % (i % 64, i % 7 + 1),
                  "    if (r & %d) sink[k & 63] = r; else r -= k * %d;" % (1 << (i % 5), i % 11),
                  "  }",
                  "  switch (x & 7) {"] + [
                  "  case %d: r += %d; break;" % (c, (i * 31 + c) % 1000) for c in range(6)] + [
                  "  default: r ^= 0x%x;" % (i * 2654435761 % (1 << 20)),
                  "  }"]
        if i % 8 == 0:
            b.append("  if (r & 1) cc_switch();")
        if i > 0:
            b.append("  r += f%d(r & 1023);" % (i - 1))
        b.append("  return r;")
        b.append("}")
        w.append("\n".join(b) + "\n")
    taken = [i for i in range(0, n, 101)]
    w.append("fp_t table[] = {%s};\n" % ", ".join("f%d" % i for i in taken))
    with open(out, "w") as f:
        f.write("".join(w))


if __name__ == "__main__":
    main()
