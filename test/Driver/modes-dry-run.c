// -### shows what the front door hands to cc1: the plugins always, the
// auto-preserve-none plugin argument only when -fauto-preserve-none is the
// last of -f[no-]auto-preserve-none, also from a response file.
// RUN: %clang -### -c %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,OFF
// RUN: %clang -### -c -fauto-preserve-none %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,ON
// RUN: %clang -### -c -fauto-preserve-none -fno-auto-preserve-none %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,OFF
// RUN: %clang -### -c -fno-auto-preserve-none -fauto-preserve-none %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,ON
// RUN: echo '-fauto-preserve-none' > %t.on.rsp
// RUN: echo '-fno-auto-preserve-none' > %t.off.rsp
// RUN: %clang -### -c @%t.on.rsp %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,ON
// RUN: %clang -### -c @%t.on.rsp -fno-auto-preserve-none %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,OFF
// RUN: %clang -### -c -fno-auto-preserve-none @%t.on.rsp %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,ON
// RUN: %clang -### -c -fauto-preserve-none @%t.off.rsp %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,OFF
// A response file naming a list file, with other flags around it.
// RUN: echo 'fun:f' > %t.list
// RUN: echo '-O2 -fauto-preserve-none -fpreserve-none-list=%t.list -DX=1' > %t.both.rsp
// RUN: %clang -### -c @%t.both.rsp %s 2>&1 | FileCheck %s --check-prefixes=PLUGINS,ON,LIST
// The real compile from that response file works and warns about nothing.
// RUN: %clang -c @%t.both.rsp %s -o %t.o 2>&1 | count 0
// -### exits 0 and says nothing about unused arguments.
// RUN: %clang -### -c -fauto-preserve-none -fno-auto-preserve-none %s 2>&1 | FileCheck %s --check-prefix=NOWARN
//
// PLUGINS: "-cc1"
// PLUGINS-SAME: "-load" "{{[^"]*}}CACSClangPlugin.so"
// OFF-NOT: auto-preserve-none
// ON-SAME: "-plugin-arg-cacs" "auto-preserve-none"
// LIST-SAME: "-plugin-arg-cacs" "preserve-none-list={{[^"]*}}.list"
// PLUGINS-SAME: "-fpass-plugin={{[^"]*}}CACSPasses.so"
// OFF-NOT: auto-preserve-none
// NOWARN-NOT: warning:

#ifndef X
#define X 0
#endif
static int f(int x) { return x + X; }
int g(int x) { return f(x); }
