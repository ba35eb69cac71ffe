// The pass is opt-in: without -fcoroutine-migration (or after a later
// -fno-coroutine-migration) a translation unit's thread-local addresses are
// reused across calls as stock clang does, and the full-LTO link leaves its
// functions so; it rewrites those compiled with the flag (they carry an
// attribute).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fcoroutine-migration -DNAME=f -S -emit-llvm %S/Inputs/flag-unit.c -o - | FileCheck %s --check-prefix=ON
// RUN: %clang -O2 -fno-coroutine-migration -fcoroutine-migration -DNAME=f -S -emit-llvm %S/Inputs/flag-unit.c -o - | FileCheck %s --check-prefix=ON
// RUN: %clang -O2 -DNAME=f -S -emit-llvm %S/Inputs/flag-unit.c -o - | FileCheck %s --check-prefix=OFF
// RUN: %clang -O2 -fcoroutine-migration -fno-coroutine-migration -DNAME=f -S -emit-llvm %S/Inputs/flag-unit.c -o - | FileCheck %s --check-prefix=OFF
//
// ON-LABEL:  define {{.*}}i32 @f()
// ON-NEXT:     [[A:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// ON-NEXT:     tail call void @yield_now()
// ON-NEXT:     [[V:%.*]] = load i32, ptr [[A]]
// ON-NEXT:     [[B:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// ON-NEXT:     [[W:%.*]] = load i32, ptr [[B]]
//
// OFF-LABEL: define {{.*}}i32 @f()
// OFF-NEXT:    [[A:%.*]] = tail call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@tls)
// OFF-NEXT:    tail call void @yield_now()
// OFF-NEXT:    [[V:%.*]] = load i32, ptr [[A]]
// OFF-NEXT:    [[W:%.*]] = shl nsw i32 [[V]], 1
// OFF-NOT:   cacs-coroutine-migration
//
// RUN: %clang -O2 -flto -DNAME=off -c %S/Inputs/flag-unit.c -o %t/off.o
// RUN: %clang -O2 -flto -fcoroutine-migration -DNAME=on -c %S/Inputs/flag-unit.c -o %t/on.o
// RUN: %clang -O2 -flto -c %s -o %t/main.o
// RUN: %clang -O2 -flto %t/main.o %t/on.o %t/off.o -o %t/prog -Wl,--save-temps
// RUN: llvm-dis %t/prog.0.5.precodegen.bc -o - | FileCheck %s --check-prefix=LTO
//
// LTO-LABEL: define {{.*}}i32 @on()
// LTO-NEXT:    [[A:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// LTO-NEXT:    tail call {{.*}}void @yield_now()
// LTO-NEXT:    load i32, ptr [[A]]
// LTO-NEXT:    [[B:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// LTO-NEXT:    load i32, ptr [[B]]
// LTO-LABEL: define {{.*}}i32 @off()
// LTO-NEXT:    [[A:%.*]] = tail call {{.*}}ptr @llvm.threadlocal.address.p0(ptr {{.*}}@tls)
// LTO-NEXT:    tail call {{.*}}void @yield_now()
// LTO-NEXT:    [[V:%.*]] = load i32, ptr [[A]]
// LTO-NEXT:    shl nsw i32 [[V]], 1

__thread int tls = 1;
__attribute__((noinline)) void yield_now(void) { __asm__ volatile("" ::: "memory"); }
int on(void);
int off(void);
int main(void) { return on() + off() == 4 ? 0 : 1; }
