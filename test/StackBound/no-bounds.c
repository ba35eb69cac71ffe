// Where the link cannot see the frames it would sum, it proves no bound,
// writes no table, and a note says why: under -flto (the frame sizes are
// the link's own code generation) and with a sanitizer (its runtime runs
// on the coroutine stacks unseen).
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -flto -fcacs-stack-bounds %s -o %t/lto 2>&1 | FileCheck %s --check-prefix=LTO
// RUN: llvm-readelf -S %t/lto | FileCheck %s --check-prefix=NO-TABLE
// RUN: %clang -O2 -fsanitize=address -fcacs-stack-bounds %s -o %t/asan 2>&1 | FileCheck %s --check-prefix=ASAN
// RUN: llvm-readelf -S %t/asan | FileCheck %s --check-prefix=NO-TABLE
// The same program without them has its table.
// RUN: %clang -O2 -fcacs-stack-bounds %s -o %t/plain 2>&1 | count 0
// RUN: llvm-readelf -S %t/plain | FileCheck %s --check-prefix=TABLE

// LTO: clang: note: no stack bounds for this program: under -flto the frame sizes are the link's own code generation, which the front door does not see
// ASAN: clang: note: no stack bounds for this program: a sanitizer's runtime runs on the coroutine stacks unseen (-fsanitize=address)
// NO-TABLE-NOT: cacs_stack_bounds
// TABLE: cacs_stack_bounds PROGBITS

static volatile int sink;
static void entry(void *p) { sink = (int)(long)p; }
void (*volatile use)(void *) = entry;
int main(void) { return 0; }
