// A declaration annotated as saving no register (cacs/coro.h's empty-list
// yield entry) is refused on LLVM 19, whose callers do not save their frame
// pointer around a call that clobbers it; cacs/coro.h never binds the entry
// there. LLVM 22 gives the declaration the empty list, so that the direct
// call carries the empty register mask (and rbp is saved by the caller).
// RUN: %if llvm-19 %{ not %clang -O2 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR %}
// RUN: %if llvm-22 %{ %clang -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR %}
// ERR: error: 'saves_nothing' saves no register, rbp included: its calls need LLVM 22, which saves a caller's frame pointer around them
// IR: declare preserve_nonecc void @saves_nothing() [[ATTRS:#[0-9]+]]
// IR: attributes [[ATTRS]] = { {{.*}}"no_callee_saved_registers"

__attribute__((preserve_none,
               annotate("cacs.no_callee_saved_registers"))) void
saves_nothing(void);
void caller(void) { saves_nothing(); }
