// A listed function that cannot take preserve_none is reported at the entry
// that lists it, in clang's format, so an editor jumps to the entry: by the
// front door and by stock clang with the plugins (the list's line under the
// message, the caret at the entry's column; -Wsource-mgr, as every warning
// placed in the list), and by opt (the location leads the message). Before,
// the message said "from preserve-none list '<path>' line 3", unplaced.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/a.list 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG -DP=%t --implicit-check-not=warning: --strict-whitespace
// RUN: %stock_clang -c %t/a.c -o /dev/null -fplugin=%cacs_clang_plugin -fpass-plugin=%cacs_passes \
// RUN:   -fplugin-arg-cacs-preserve-none-list=%t/a.list 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLANG -DP=%t --implicit-check-not=warning: --strict-whitespace
// CLANG: {{^}}[[P]]/a.list:3:3: warning: function 'logf_like' listed here cannot be preserve_none: it is variadic; left as is [-Wsource-mgr]{{$}}
// CLANG-NEXT: {{^}}    3 |   fun:logf_like{{$}}
// CLANG-NEXT: {{^}}      |   ^{{$}}
//
// -Werror makes it an error:
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/a.list -Werror 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WERROR -DP=%t
// WERROR: {{^}}[[P]]/a.list:3:3: error: function 'logf_like' listed here cannot be preserve_none: it is variadic; left as is [-Werror,-Wsource-mgr]{{$}}
//
// RUN: %clang -S -emit-llvm -o %t/a.ll %t/a.c
// RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/a.list -disable-output %t/a.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPT -DP=%t --implicit-check-not=warning:
// OPT: {{^}}warning: [[P]]/a.list:3:3: function 'logf_like' listed here cannot be preserve_none: it is variadic; left as is{{$}}

//--- a.c
int logf_like(const char *fmt, ...) { return fmt[0]; }
static int twice(int x) { return x * 2; }
int use(void) { return logf_like("x") + twice(1); }
//--- a.list
# the variadic one is indented: the column is the entry's
fun:twice
  fun:logf_like
