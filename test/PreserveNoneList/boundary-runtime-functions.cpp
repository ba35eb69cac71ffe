// A glob over every function (`fun:*`) in C++: the code generator calls
// functions that no declaration of the source names, the C++ ABI's
// __cxa_allocate_exception, __cxa_throw, __cxa_begin_catch,
// __cxa_end_catch, __cxa_guard_acquire, __cxa_atexit and __dynamic_cast,
// and std::terminate (from __clang_call_terminate). The C++ runtime is built
// without the list, so they stay C calls of the plain name, and the program
// links and prints what stock clang prints (before, the glob gave them the
// convention and the link failed: "undefined symbol:
// __cxa_throw.preserve_none_list"). The program's own functions still take
// the convention.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:*' > %t/list
// RUN: %stock_clangxx -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: for M in -O0 -O2 "-O2 -flto" "-O2 -flto=thin"; do \
// RUN:   %clangxx $M -fpreserve-none-list=%t/list %s -o %t/prog && \
// RUN:   %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for M in -O0 -O2 "-O2 -flto"; do \
// RUN:   %clangxx %aarch64_flags $M -fpreserve-none-list=%t/list %s -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out || exit 1; \
// RUN: done %}
// RUN: %clangxx -O1 -S -emit-llvm -fpreserve-none-list=%t/list %s -o %t/ir.ll 2>/dev/null
// RUN: FileCheck %s < %t/ir.ll
// RUN: not grep -E '@(__cxa_[a-z_]+|__dynamic_cast|_ZSt9terminatev)\.preserve_none_list' %t/ir.ll
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}}@_Z6throwsl.preserve_none_list(
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}}@_Z7guardedl.preserve_none_list(
// CHECK-DAG: declare void @__cxa_throw(
// CHECK-DAG: declare ptr @__dynamic_cast(
// CHECK-DAG: declare void @_ZSt9terminatev(
#include <cstdio>
#include <stdexcept>

struct Base {
  virtual ~Base() {}
  long v = 3;
};
struct Derived : Base {
  long w = 4;
};
struct Counter {
  long n;
  ~Counter() { std::printf("counter %ld\n", n); }
};
Counter GlobalCounter{1};

__attribute__((noinline)) long throws(long X) {
  if (X > 2)
    throw std::runtime_error("big");
  return X * 10;
}

__attribute__((noinline)) long catches(long X) {
  try {
    return throws(X);
  } catch (const std::exception &E) {
    return -X - E.what()[0];
  }
}

__attribute__((noinline)) long guarded(long X) {
  static Counter Local{X * 100}; // __cxa_guard_acquire, __cxa_atexit
  return Local.n;
}

__attribute__((noinline)) long casts(Base *B) {
  Derived *D = dynamic_cast<Derived *>(B); // __dynamic_cast
  return D ? D->w + D->v : -1;
}

__attribute__((noinline)) long noexcept_calls(long X) noexcept {
  return throws(X); // __clang_call_terminate -> std::terminate
}

int main(int Argc, char **) {
  Derived D;
  Base B;
  std::printf("%ld %ld\n", catches(Argc), catches(Argc + 5));
  std::printf("%ld %ld\n", guarded(Argc + 1), guarded(Argc + 2));
  std::printf("%ld %ld\n", casts(&D), casts(&B));
  std::printf("%ld\n", noexcept_calls(Argc));
  GlobalCounter.n = Argc + 41;
  return 0;
}
