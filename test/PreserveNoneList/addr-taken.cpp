// Calls through pointers to listed functions use the C convention: the
// address is that of a C entry (the plain name of an external function, a
// thunk for a static one), so they give the right results
// (function pointers, a static function, a virtual member function in a
// vtable, a pointer passed to qsort). A demangled name has its parameters:
// `fun:cmp` would not match the static cmp; `fun:cmp(*)` does.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: for O in -O0 -O2; do \
// RUN:   %clangxx $O %t/a.cpp -o %t/prog -fpreserve-none-list=%t/list.txt -fno-preserve-none-list-export-warning && \
// RUN:   %t/prog | FileCheck %s || exit 1; \
// RUN: done
// RUN: %clangxx -O2 -S -emit-llvm -o - %t/a.cpp -fpreserve-none-list=%t/list.txt \
// RUN:   -fno-preserve-none-list-export-warning | FileCheck %s --check-prefix=IR
// IR-DAG: @_ZTV4Impl = {{.*}}ptr @_ZN4Impl3runEi]
// IR-DAG: define internal {{.*}}i32 @_ZL3cmpPKvS0_.cacs_c_entry(
// IR-DAG: define linkonce_odr {{.*}}i32 @_ZN4Impl3runEi(ptr {{.*}} comdat

// CHECK: pointer 42
// CHECK-NEXT: virtual 84
// CHECK-NEXT: sorted 1 2 3 4

//--- list.txt
fun:add_one
fun:cmp(*)
fun:Impl::run(int)
//--- a.cpp
#include <cstdio>
#include <cstdlib>
struct Base {
  virtual int run(int) = 0;
};
struct Impl : Base {
  int k = 2;
  int run(int x) override { return x * k; }
};
extern "C" __attribute__((noinline)) int add_one(int x) { return x + 1; }
static int cmp(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}
int main(int argc, char **) {
  int (*volatile p)(int) = add_one;
  std::printf("pointer %d\n", p(41 + argc - 1));
  Impl impl;
  Base *volatile b = &impl;
  std::printf("virtual %d\n", b->run(42));
  int v[] = {3, 1, 4, 2};
  std::qsort(v, 4, sizeof(int), cmp);
  std::printf("sorted %d %d %d %d\n", v[0], v[1], v[2], v[3]);
}
