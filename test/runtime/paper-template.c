// Why cacs_switch passes from/to as in/out operands in fixed registers: the
// paper's CACS template (Fig. 7), with "r" inputs and every GPR clobbered,
// leaves the register allocator nothing to put the inputs in.
// RUN: not %clang -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O0 -fno-omit-frame-pointer -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: inline assembly requires more registers than available

struct ctl {
  void *pad[2];
  void *sp;
};

void cacs_paper(struct ctl *from, struct ctl *to) {
  __asm__ volatile("lea 1f(%%rip), %%rax\n\t"
                   "push %%rax\n\t"
                   "mov %%rsp, 0x10(%0)\n\t"
                   "mov 0x10(%1), %%rsp\n\t"
                   "pop %%rax\n\t"
                   "jmp *%%rax\n"
                   "1:\n"
                   :
                   : "r"(from), "r"(to)
                   : "rax", "rbx", "rcx", "rdx", "rbp", "rsi", "rdi", "r8",
                     "r9", "r10", "r11", "r12", "r13", "r14", "r15");
}
