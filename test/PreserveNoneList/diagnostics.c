// Every diagnostic of -fpreserve-none-list=, as the front door prints it.
//
// RUN: rm -rf %t && split-file %s %t && mkdir %t/dir
//
// The list file itself, checked before any job runs:
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/nope.list 2>&1 | FileCheck %s --check-prefix=MISSING -DP=%t
// MISSING: clang: error: preserve-none list file '[[P]]/nope.list' not found
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/dir 2>&1 | FileCheck %s --check-prefix=DIR -DP=%t
// DIR: clang: error: preserve-none list file '[[P]]/dir' is a directory
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/empty.list 2>&1 | FileCheck %s --check-prefix=EMPTY -DP=%t
// EMPTY: [[P]]/empty.list:1:1: error: preserve-none list file is empty
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/comments.list 2>&1 | FileCheck %s --check-prefix=NOENTRY -DP=%t
// NOENTRY: [[P]]/comments.list:1:1: error: preserve-none list file has no entries
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/malformed.list 2>&1 | FileCheck %s --check-prefix=MALFORMED -DP=%t
// MALFORMED: [[P]]/malformed.list:4:1: error: malformed line: 'fun_without_colon'
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list= 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: clang: error: no file given to '-fpreserve-none-list='
//
// What SpecialCaseList accepts but a preserve-none list does not:
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/kind.list 2>&1 | FileCheck %s --check-prefix=KIND -DP=%t
// KIND: [[P]]/kind.list:2:1: error: unknown entry kind 'global:'; expected 'fun:' or 'src:'
//
// The front door checks them too, before any job runs, so modes that run no
// pass (-E, -fsyntax-only) reject the list -c rejects, with the same text:
// RUN: not %clang -E %t/a.c -o /dev/null -fpreserve-none-list=%t/kind.list 2>&1 | FileCheck %s --check-prefix=DOOR-KIND -DP=%t
// RUN: not %clang -fsyntax-only %t/a.c -fpreserve-none-list=%t/kind.list 2>&1 | FileCheck %s --check-prefix=DOOR-KIND -DP=%t
// DOOR-KIND: {{^}}[[P]]/kind.list:2:1: error: unknown entry kind 'global:'; expected 'fun:' or 'src:'{{$}}
// RUN: not %clang -E %t/a.c -o /dev/null -fpreserve-none-list=%t/category.list 2>&1 | FileCheck %s --check-prefix=DOOR-CATEGORY -DP=%t
// RUN: not %clang -fsyntax-only %t/a.c -fpreserve-none-list=%t/category.list 2>&1 | FileCheck %s --check-prefix=DOOR-CATEGORY -DP=%t
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/category.list 2>&1 | FileCheck %s --check-prefix=DOOR-CATEGORY -DP=%t
// DOOR-CATEGORY: {{^}}[[P]]/category.list:3:18: error: categories ('=...') are not supported{{$}}
// Sections that do not apply are not checked, by the front door either:
// RUN: %clang -fsyntax-only %t/a.c -fpreserve-none-list=%t/other-section.list 2>&1 | count 0
//
// Warnings of the pass, in clang's format; the compile succeeds. The export
// warning is asked for (a unit cannot know whether the others use the list):
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/good.list \
// RUN:   -fpreserve-none-list-export-warning 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARN -DP=%t --implicit-check-not=warning:
// WARN: {{^}}[[P]]/good.list:3:1: warning: function 'logf_like' listed here cannot be preserve_none: it is variadic; left as is [-Wsource-mgr]{{$}}
// WARN: {{^}}[[P]]/good.list:4:1: warning: function 'main' listed here cannot be preserve_none: it is 'main'; left as is [-Wsource-mgr]{{$}}
// WARN: {{^}}[[P]]/good.list:1:1: warning: function 'exported' listed here is exported: code compiled without the list will call it through its C entry (-fpreserve-none-list-export-warning) [-Wsource-mgr]{{$}}
// WARN: {{^}}3 warnings generated.{{$}}
//
// Off by default, and with -fno-...; the last one wins:
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/good.list \
// RUN:   2>&1 | FileCheck %s --check-prefix=NOEXPORT
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/good.list \
// RUN:   -fpreserve-none-list-export-warning -fno-preserve-none-list-export-warning 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOEXPORT
// NOEXPORT-NOT: is exported
// NOEXPORT: cannot be preserve_none: it is variadic
// NOEXPORT-NOT: is exported
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/good.list \
// RUN:   -fno-preserve-none-list-export-warning -fpreserve-none-list-export-warning 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPORT
// EXPORT: is exported
//
// -Werror makes the warnings errors:
// RUN: not %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/good.list -Werror 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WERROR -DP=%t
// WERROR: {{^}}[[P]]/good.list:3:1: error: function 'logf_like' listed here cannot be preserve_none: it is variadic; left as is [-Werror,-Wsource-mgr]{{$}}
//
// An entry that matched nothing is quiet per TU (see lto.c for the link):
// RUN: %clang -c %t/a.c -o /dev/null -fpreserve-none-list=%t/good.list 2>&1 | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: matched no function

//--- a.c
int exported(int x) { return x + 1; }
static int internal_only(int x) { return x * 2; }
int logf_like(const char *fmt, ...) { return fmt[0]; }
int main(void) { return exported(1) + internal_only(2) + logf_like("x") - 101; }
//--- good.list
fun:exported
fun:internal_only
fun:logf_like
fun:main
fun:matches_nothing
//--- empty.list

//--- comments.list
# nothing but comments
//--- malformed.list
# a comment
fun:exported

fun_without_colon
//--- kind.list
fun:exported
global:some_global
//--- category.list
fun:exported
[preserve_none]
fun:internal_only=init
//--- other-section.list
fun:exported
[address]
global:some_global
src:a.c=init
