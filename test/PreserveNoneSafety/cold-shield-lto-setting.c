// -mllvm -cacs-cold-call-shield=false and -cacs-cold-wait-loop=false are
// settings of the compile they are given to, and survive an LTO link, which
// makes the shields without the compile's options: the compile records them
// on its functions (the attributes "cacs-cold-call-shield"="false" and
// "cacs-cold-wait-loop"="false"), and the link honours them per function.
// Three units built from this file, each with a hinted rare call and an
// unhinted wait-loop yield in a work loop: `off` compiled with the shield
// off (neither call is shielded), `nowait` with the wait-loop heuristic off
// (the hinted call is, the yield is not), `on` with neither (both are). The
// remarks of the compile steps and of the link are checked together: the
// compile step of an LTO build makes shields already, and the link (the
// full-LTO link's passes, each ThinLTO backend's) would make the rest
// (lld prints its remarks on standard output).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -flto -c -Rpass=preserve-none-safety -DTU=off -mllvm -cacs-cold-call-shield=false %s -o %t/off.o 2> %t/full.remarks
// RUN: %clang -O2 -flto -c -Rpass=preserve-none-safety -DTU=nowait -mllvm -cacs-cold-wait-loop=false %s -o %t/nowait.o 2>> %t/full.remarks
// RUN: %clang -O2 -flto -c -Rpass=preserve-none-safety -DTU=on -DMAIN %s -o %t/on.o 2>> %t/full.remarks
// RUN: %clang -O2 -flto %t/on.o %t/off.o %t/nowait.o -o %t/full -Rpass=preserve-none-safety >> %t/full.remarks 2>&1
// RUN: FileCheck %s < %t/full.remarks && not grep -e "in 'work_off'" -e "'work_nowait' goes through a shield (callee 'wait_step')" %t/full.remarks
// RUN: %t/full | FileCheck %s --check-prefix=OUT
//
// RUN: %clang -O2 -flto=thin -c -Rpass=preserve-none-safety -DTU=off -mllvm -cacs-cold-call-shield=false %s -o %t/thinoff.o 2> %t/thin.remarks
// RUN: %clang -O2 -flto=thin -c -Rpass=preserve-none-safety -DTU=nowait -mllvm -cacs-cold-wait-loop=false %s -o %t/thinnowait.o 2>> %t/thin.remarks
// RUN: %clang -O2 -flto=thin -c -Rpass=preserve-none-safety -DTU=on -DMAIN %s -o %t/thinon.o 2>> %t/thin.remarks
// RUN: %clang -O2 -flto=thin %t/thinon.o %t/thinoff.o %t/thinnowait.o -o %t/thin -Rpass=preserve-none-safety >> %t/thin.remarks 2>&1
// RUN: FileCheck %s < %t/thin.remarks && not grep -e "in 'work_off'" -e "'work_nowait' goes through a shield (callee 'wait_step')" %t/thin.remarks
// RUN: %t/thin | FileCheck %s --check-prefix=OUT
//
// AArch64: the same through the full-LTO link.
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -c -Rpass=preserve-none-safety -DTU=off -mllvm -cacs-cold-call-shield=false %s -o %t/a64off.o 2> %t/a64.remarks %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -c -Rpass=preserve-none-safety -DTU=nowait -mllvm -cacs-cold-wait-loop=false %s -o %t/a64nowait.o 2>> %t/a64.remarks %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -c -Rpass=preserve-none-safety -DTU=on -DMAIN %s -o %t/a64on.o 2>> %t/a64.remarks %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto %t/a64on.o %t/a64off.o %t/a64nowait.o -o %t/a64 -Rpass=preserve-none-safety >> %t/a64.remarks 2>&1 %}
// RUN: %if qemu-aarch64 %{ FileCheck %s < %t/a64.remarks && not grep -e "in 'work_off'" -e "'work_nowait' goes through a shield (callee 'wait_step')" %t/a64.remarks %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 | FileCheck %s --check-prefix=OUT %}
//
// The compile records only what is off:
// RUN: %clang -O2 -S -emit-llvm -DTU=off -mllvm -cacs-cold-call-shield=false %s -o - | FileCheck %s --check-prefix=IR-OFF
// RUN: %clang -O2 -S -emit-llvm -DTU=on %s -o - | FileCheck %s --check-prefix=IR-ON
//
// CHECK-DAG: remark: a preserve_none call in 'work_on' goes through a shield (callee 'rare'): the call is rare
// CHECK-DAG: remark: a preserve_none call in 'work_on' goes through a shield (callee 'wait_step'): the call waits in a loop
// CHECK-DAG: remark: a preserve_none call in 'work_nowait' goes through a shield (callee 'rare'): the call is rare
//
// OUT: on=[[SUM:[0-9]+]] off=[[SUM]] nowait=[[SUM]]
//
// IR-OFF: define {{.*}} @work_off({{.*}} #[[ATTR:[0-9]+]]
// IR-OFF: attributes #[[ATTR]] = { {{.*}}"cacs-cold-call-shield"="false"
// IR-ON-NOT: "cacs-cold-

#define PN __attribute__((preserve_none))
#define CAT(a, b) a##b
#define WORK(tu) CAT(work_, tu)

extern unsigned long pending, waits, rares;
PN void rare(unsigned long x);
PN void wait_step(void);
unsigned long WORK(TU)(unsigned n);

// The work loop: the rare call is hinted; the wait is not, nor armed here.
__attribute__((noinline)) unsigned long WORK(TU)(unsigned n) {
  unsigned long a = 1, b = 2, c = 3;
  for (unsigned i = 0; i < n; ++i) {
    a = a * 3 + i;
    b ^= a >> 3;
    c += b * 7;
    if (__builtin_expect(i % 1024 == 1023, 0))
      rare(a);
    while (pending)
      wait_step();
  }
  return a + b + c;
}

#ifdef MAIN
#include <stdio.h>

unsigned long pending, waits, rares;

PN __attribute__((noinline)) void rare(unsigned long x) {
  ++rares;
  pending = x & 3;
}
PN __attribute__((noinline)) void wait_step(void) {
  ++waits;
  --pending;
}

unsigned long work_off(unsigned n);
unsigned long work_nowait(unsigned n);

int main(void) {
  printf("on=%lu off=%lu nowait=%lu\n", work_on(100000), work_off(100000),
         work_nowait(100000));
  return 0;
}
#endif
