// An inline function (linkonce_odr, a comdat) listed in one unit and not in
// another: whichever copy of the plain name the linker keeps is a C function
// (the other unit's body, or the listed unit's C entry), and the listed
// unit's preserve_none body has a comdat of its own, so both units' calls
// and the address, the same in both, give stock clang's results, whichever
// unit comes first on the link line (before, the listed unit's preserve_none
// copy could be kept for the other unit's C calls).
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:_Z2twlll' > %t/list
// RUN: %stock_clangxx -O0 %S/Inputs/boundary/inline-a.cpp %S/Inputs/boundary/inline-b.cpp -o %t/ref && %t/ref > %t/expected
// RUN: for O in -O0 -O2; do \
// RUN:   %clangxx $O -c %S/Inputs/boundary/inline-a.cpp -o %t/a.o -fpreserve-none-list=%t/list && \
// RUN:   %clangxx $O -c %S/Inputs/boundary/inline-b.cpp -o %t/b.o && \
// RUN:   %clangxx %t/a.o %t/b.o -o %t/ab && %t/ab > %t/out && diff %t/expected %t/out && \
// RUN:   %clangxx %t/b.o %t/a.o -o %t/ba && %t/ba > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clangxx %aarch64_flags -O2 -c %S/Inputs/boundary/inline-a.cpp -o %t/a64a.o -fpreserve-none-list=%t/list && \
// RUN:   %clangxx %aarch64_flags -O2 -c %S/Inputs/boundary/inline-b.cpp -o %t/a64b.o && \
// RUN:   %clangxx %aarch64_flags %t/a64b.o %t/a64a.o -o %t/a64 && %run_aarch64 %t/a64 > %t/out && diff %t/expected %t/out %}
// The listed unit defines both, each in its own comdat:
// RUN: %clangxx -O2 -S -emit-llvm %S/Inputs/boundary/inline-a.cpp -o - -fpreserve-none-list=%t/list | FileCheck %s
// CHECK-DAG: $_Z2twlll = comdat any
// CHECK-DAG: $_Z2twlll.preserve_none_list = comdat any
// CHECK-DAG: define linkonce_odr {{.*}}preserve_nonecc {{.*}}@_Z2twlll.preserve_none_list({{.*}} comdat {
// CHECK-DAG: define linkonce_odr {{.*}}@_Z2twlll({{.*}} comdat {
