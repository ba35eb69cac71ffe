// An exported listed function that cannot take preserve_none because of a
// musttail call is an error at the entry that lists it, in clang's format:
// by the front door with the list's line and a caret, by opt with the
// location leading the message. Before, the message said "from
// preserve-none list '<path>' line 1" and had no location.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/a.list 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG -DP=%t --implicit-check-not=error:
// CLANG: {{^}}[[P]]/a.list:1:1: error: function 'caller' listed here cannot be preserve_none: it makes a musttail call to 'callee', which is not preserve_none; it is externally visible, and other translation units compiled with the list would call it as preserve_none{{$}}
// CLANG-NEXT: {{^}} 1 | fun:caller{{$}}
// CLANG-NEXT: {{^}} | ^{{$}}
//
// RUN: %clang -S -emit-llvm -o %t/a.ll %t/a.c
// RUN: not %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/a.list -disable-output %t/a.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPT -DP=%t --implicit-check-not=error:
// OPT: {{^}}error: [[P]]/a.list:1:1: function 'caller' listed here cannot be preserve_none: it makes a musttail call to 'callee', which is not preserve_none; it is externally visible, and other translation units compiled with the list would call it as preserve_none{{$}}

//--- a.c
int callee(int x);
int caller(int x) { __attribute__((musttail)) return callee(x); }
//--- a.list
fun:caller
