// The front door adds libcacs's include and library directories (here: the
// build tree's; test/Build/install-runtime.test checks an installed prefix),
// as clang adds its own runtimes, for x86-64 and AArch64 Linux targets, each
// with its own libraries; for other targets nothing, and nothing a command
// already gives (a -I with cacs/coro.h in it, a -L with libcacs.a in it).
//
// RUN: %clang -### %s -lcacs 2>&1 | FileCheck %s --check-prefixes=INC,X86
// RUN: %clang -### --target=aarch64-linux-gnu %s -lcacs 2>&1 | FileCheck %s --check-prefixes=INC,ARM
// RUN: %clang -### -target aarch64-linux-gnu %s -lcacs 2>&1 | FileCheck %s --check-prefixes=INC,ARM
// RUN: %clang -### -m32 %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang -### --target=riscv64-linux-gnu %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang -### --target=x86_64-linux-gnux32 %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang -### --target=aarch64_be-linux-gnu %s 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang -### -I%cacs_include %s 2>&1 | FileCheck %s --check-prefix=USER-INC
// RUN: %clang -### -I %cacs_include %s 2>&1 | FileCheck %s --check-prefix=USER-INC
// RUN: %clang -### -L%cacs_obj_root/runtime/x86_64 %s 2>&1 | FileCheck %s --check-prefix=USER-LIB
// Unused in a compile-only or link-only job, they draw no warning.
// RUN: %clang -c %s -o %t.o 2>&1 | count 0
// RUN: %clang %t.o -o %t 2>&1 | count 0
//
// INC: "-cc1"
// INC-SAME: "-I" "[[SRC:[^"]*]]/runtime/include"
// X86: {{^}} "{{[^"]*ld(\.lld)?}}"
// X86-SAME: "-L{{[^"]*}}/runtime/x86_64"
// ARM: {{^}} "{{[^"]*ld(\.lld)?}}"
// ARM-SAME: "-L{{[^"]*}}/runtime/aarch64"
//
// NONE-NOT: runtime/include
// NONE-NOT: runtime/x86_64
// NONE-NOT: runtime/aarch64
//
// USER-INC: "-cc1"
// USER-INC-SAME: "-I" "{{[^"]*}}/runtime/include"
// USER-INC-NOT: "-I" "{{[^"]*}}/runtime/include"
// USER-INC: "-L{{[^"]*}}/runtime/x86_64"
//
// USER-LIB: "-cc1"
// USER-LIB-SAME: "-I" "{{[^"]*}}/runtime/include"
// USER-LIB: "-L{{[^"]*}}/runtime/x86_64"
// USER-LIB-NOT: "-L{{[^"]*}}/runtime/x86_64"

int main(void) { return 0; }
