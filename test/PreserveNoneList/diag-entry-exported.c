// The export warning (-fpreserve-none-list-export-warning) is reported at
// the entry that lists the function, in clang's format: by the front door
// and by stock clang with the plugins with the list's line and a caret
// (-Wsource-mgr), by opt with the location leading the message. Before, the
// message said "from preserve-none list '<path>' line 2" and had no location.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/a.list \
// RUN:   -fpreserve-none-list-export-warning 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG -DP=%t --implicit-check-not=warning:
// RUN: %stock_clang -c %t/a.c -o /dev/null -fplugin=%cacs_clang_plugin -fpass-plugin=%cacs_passes \
// RUN:   -fplugin-arg-cacs-preserve-none-list=%t/a.list \
// RUN:   -fplugin-arg-cacs-preserve-none-list-export-warning 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG -DP=%t --implicit-check-not=warning:
// CLANG: {{^}}[[P]]/a.list:2:1: warning: function 'exported' listed here is exported: code compiled without the list will call it through its C entry (-fpreserve-none-list-export-warning) [-Wsource-mgr]{{$}}
// CLANG-NEXT: {{^}} 2 | fun:exp*{{$}}
// CLANG-NEXT: {{^}} | ^{{$}}
//
// RUN: %clang -S -emit-llvm -o %t/a.ll %t/a.c
// RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/a.list \
// RUN:   -cacs-preserve-none-list-export-warning -disable-output %t/a.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPT -DP=%t --implicit-check-not=warning:
// OPT: {{^}}warning: [[P]]/a.list:2:1: function 'exported' listed here is exported: code compiled without the list will call it through its C entry (-fpreserve-none-list-export-warning){{$}}

//--- a.c
int exported(int x) { return x + 1; }
static int twice(int x) { return x * 2; }
int use(void) { return twice(1); }
//--- a.list
fun:twice
fun:exp*
