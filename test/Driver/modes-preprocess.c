// The cacs flags with preprocessing-only modes: accepted silently (no
// unused-argument warning, no plugin diagnostics), exit 0, and the output is
// the stock preprocessor's plus the cacs settings (Build/cache-*.test say
// why): a pragma and a line marker per list file.
// RUN: echo 'fun:pn_*' > %t.list
// RUN: %clang -E -fauto-preserve-none -fpreserve-none-list=%t.list %s -o %t.cacs.i 2>&1 | count 0
// RUN: %stock_clang -E %s -o %t.stock.i
// RUN: grep -v '^#' %t.stock.i | grep -v '^$' > %t.stock.txt
// RUN: grep -v '^#' %t.cacs.i | grep -v '^$' > %t.cacs.txt
// RUN: diff %t.stock.txt %t.cacs.txt
// RUN: FileCheck %s --check-prefix=SETTINGS < %t.cacs.i
// SETTINGS: #pragma cacs settings "cacs-{{[0-9.]+}}-{{[0-9a-f]+}}" "{{[0-9a-f]+}}"
// SETTINGS-NEXT: # 1 "{{.*}}.list"
// RUN: %clang -E -fauto-preserve-none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: %clang -E -P -fno-auto-preserve-none -Wunused-command-line-argument -Werror %s | FileCheck %s
// RUN: %clang -M -fauto-preserve-none -fpreserve-none-list=%t.list %s 2>&1 | FileCheck %s --check-prefixes=DEPS,DEPLIST --implicit-check-not=warning:
// RUN: %clang -MM -fauto-preserve-none %s 2>&1 | FileCheck %s --check-prefix=DEPS --implicit-check-not=warning:
// A list file that does not exist is an error even when only preprocessing.
// RUN: not %clang -E -fpreserve-none-list=%t.missing %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// CHECK: int pn_answer(void) { return 42; }
// DEPS: modes-preprocess.o:
// DEPS: modes-preprocess.c
// The list file is a dependency of what it changes.
// DEPLIST: .list
// MISSING: clang: error: preserve-none list file '{{.*}}.missing' not found

#define ANSWER 42
int pn_answer(void) { return ANSWER; }
