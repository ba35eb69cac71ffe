// The cacs flags are taken off the command line and reach the compile job as
// arguments of the cacs clang plugin; the last of -f[no-]auto-preserve-none
// wins; the pass plugin is always loaded.
//
// RUN: %clang -### -c %s -fauto-preserve-none 2>&1 | FileCheck %s --check-prefixes=COMMON,ON
// RUN: %clang -### -c %s -fno-auto-preserve-none -fauto-preserve-none 2>&1 | FileCheck %s --check-prefixes=COMMON,ON
// RUN: %clang -### -c %s -fauto-preserve-none -fno-auto-preserve-none 2>&1 | FileCheck %s --check-prefixes=COMMON,OFF
// RUN: %clang -### -c %s 2>&1 | FileCheck %s --check-prefixes=COMMON,OFF
//
// COMMON: "-cc1"
// COMMON-SAME: "-load" "{{[^"]*}}/lib/CACSClangPlugin.so"
// ON-SAME: "-plugin-arg-cacs" "auto-preserve-none"
// OFF-NOT: "auto-preserve-none"
// COMMON-SAME: "-fpass-plugin={{[^"]*}}/lib/CACSPasses.so"
// COMMON-NOT: "-fauto-preserve-none"
// COMMON-NOT: "-fno-auto-preserve-none"

// The setting reaches the pass manager: the APN pass is scheduled at every
// optimization level when the flag is on, and not at all when it is off.
// RUN: %clang -O0 -c %s -o /dev/null -fauto-preserve-none -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %clang -O1 -c %s -o /dev/null -fauto-preserve-none -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %clang -O2 -c %s -o /dev/null -fauto-preserve-none -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %clang -O3 -c %s -o /dev/null -fauto-preserve-none -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %clang -Os -flto -c %s -o /dev/null -fauto-preserve-none -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %clang -O2 -c %s -o /dev/null -Xclang -fdebug-pass-manager 2>&1 | FileCheck %s --check-prefix=NOPASS
// PASS: Running pass: cacs::AutoPreserveNonePass on [module]
// NOPASS-NOT: AutoPreserveNonePass

// A misspelled cacs flag gets clang's own error.
// RUN: not %clang -fauto-preserve-nones -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: clang: error: unknown argument: '-fauto-preserve-nones'

int f(int x) { return x + 1; }
