// An externally visible function that a section restricted by `src:` matches
// is left as is, reported at the entry that matched it, in clang's format:
// by the front door with the list's line and a caret (-Wsource-mgr), by opt
// with the location leading the message. Before, the message said "matched
// by preserve-none list '<path>' line 4" and had no location.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -c %t/coro.c -o /dev/null -fpreserve-none-list=%t/a.list 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG -DP=%t --implicit-check-not=warning:
// CLANG: {{^}}[[P]]/a.list:4:1: warning: function 'step_ext' matched here is left as is: 'src:' entries restrict only functions with internal linkage, and it is externally visible; list it in a section without 'src:' [-Wsource-mgr]{{$}}
// CLANG-NEXT: {{^}} 4 | fun:step_*{{$}}
// CLANG-NEXT: {{^}} | ^{{$}}
//
// RUN: %clang -S -emit-llvm -o %t/coro.ll %t/coro.c
// RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/a.list -disable-output %t/coro.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPT -DP=%t --implicit-check-not=warning:
// OPT: {{^}}warning: [[P]]/a.list:4:1: function 'step_ext' matched here is left as is: 'src:' entries restrict only functions with internal linkage, and it is externally visible; list it in a section without 'src:'{{$}}

//--- coro.c
static int step_in(int x) { return x + 1; }
int step_ext(int x) { return step_in(x) * 2; }
//--- a.list
[preserve_none]
src:*coro.c
# the fun: entry is the one reported
fun:step_*
