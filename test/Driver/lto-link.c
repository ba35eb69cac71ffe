// With -flto the front door links with lld and loads the pass plugin into it,
// so the cacs passes run at the end of the full-LTO link pipeline. A compile
// step (-c) gets neither, and a user's -fuse-ld is kept.
//
// RUN: %clang -### -flto -fauto-preserve-none %s -o %t 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: "-cc1"
// LINK: ld.lld"
// LINK-SAME: "--load-pass-plugin={{[^"]*}}/lib/CACSPasses.so"
//
// RUN: %clang -### -flto -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE-NOT: load-pass-plugin
// COMPILE-NOT: -fuse-ld
//
// RUN: %clang -### -flto -fuse-ld=bfd %s -o %t 2>&1 | FileCheck %s --check-prefix=BFD
// BFD-NOT: ld.lld"
//
// RUN: %clang -### -flto -fno-lto %s -o %t 2>&1 | FileCheck %s --check-prefix=NOLTO
// NOLTO-NOT: load-pass-plugin
//
// The passes really run inside lld:
// RUN: %clang -O2 -flto -fauto-preserve-none %s -o %t -Wl,--lto-debug-pass-manager 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: Running pass: cacs::PreserveNoneListPass on [module]
// RUNS: Running pass: cacs::AutoPreserveNonePass on [module]
// RUN: %t

int main(void) { return 0; }
