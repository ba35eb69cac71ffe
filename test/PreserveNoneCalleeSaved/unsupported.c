// -fpreserve-none-callee-saved=none needs LLVM 22 on x86-64: on LLVM 19
// it is an error (the empty list would miscompile frame-pointer callers),
// on AArch64 a warning that upstream's list is kept. `upstream` is quiet.
// RUN: %if llvm-19 %{ not %clang -O2 -c -fpreserve-none-callee-saved=none %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LLVM19 %}
// RUN: %if llvm-22 %{ %clang -O2 -c -fpreserve-none-callee-saved=none %s -o /dev/null 2>&1 | count 0 %}
// RUN: %clang %aarch64_flags -O2 -c -fpreserve-none-callee-saved=none %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=A64
// RUN: not %clang %aarch64_flags -O2 -c -fpreserve-none-callee-saved=none -Werror %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=A64-ERROR
// RUN: %clang -O2 -c -mllvm -cacs-preserve-none-callee-saved=upstream %s -o /dev/null 2>&1 | count 0
// RUN: %clang %aarch64_flags -O2 -c %s -o /dev/null 2>&1 | count 0
// RUN: not %clang -O2 -c -mllvm -cacs-preserve-none-callee-saved=some %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %clang -O2 -c -fpreserve-none-callee-saved=upstream %s -o /dev/null 2>&1 | count 0
// RUN: not %clang -O2 -c -fpreserve-none-callee-saved=some %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-FLAG
// RUN: %clang -### -O2 -c -fpreserve-none-callee-saved=none %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLUGIN-ARG
// RUN: %clang -### -O2 -c -fpreserve-none-callee-saved=upstream %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT

// LLVM19: error: -fpreserve-none-callee-saved=none needs LLVM 22 on x86-64: LLVM 19 does not save the frame pointer around a call that clobbers it, so an empty callee-saved list would miscompile every caller that uses rbp as its frame pointer
// A64: warning: -fpreserve-none-callee-saved=none has no effect on aarch64: only x86-64 can give preserve_none functions an empty callee-saved list; upstream's list is kept [-Wbackend-plugin]
// A64-ERROR: error: -fpreserve-none-callee-saved=none has no effect on aarch64
// BAD: Cannot find option named 'some'
// BAD-FLAG: clang: error: invalid value 'some' in '-fpreserve-none-callee-saved=some'
// PLUGIN-ARG: "-plugin-arg-cacs" "preserve-none-callee-saved=none"
// DEFAULT-NOT: preserve-none-callee-saved

__attribute__((preserve_none)) void co_switch(void);
static void step(void) { co_switch(); }
void run(void) { step(); }
