// A C++ glob that matches libstdc++'s out-of-line members:
// `fun:_ZNSt7__cxx1112basic_string*` names std::string's members, which
// libstdc++ defines (extern templates: the unit only declares most of them,
// such as _M_replace and _M_append). Functions declared in system headers
// never match a glob, so the program prints what stock clang prints (before,
// their calls passed arguments in preserve_none's registers: issue 21,
// defect 1).
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:_ZNSt7__cxx1112basic_string*' > %t/list
// RUN: %stock_clangxx -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: for O in -O0 -O2; do \
// RUN:   %clangxx $O -fpreserve-none-list=%t/list %s -o %t/prog 2>/dev/null && \
// RUN:   %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for O in -O0 -O2; do \
// RUN:   %clangxx %aarch64_flags $O -fpreserve-none-list=%t/list %s -o %t/a64 2>/dev/null && \
// RUN:   %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out || exit 1; \
// RUN: done %}
// RUN: %clangxx -O0 -S -emit-llvm -fpreserve-none-list=%t/list %s -o - 2>/dev/null | FileCheck %s
// CHECK-NOT: preserve_nonecc
#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  std::string s = argc > 5 ? argv[1] : "hello";
  s += " world, a string longer than the small buffer";
  s.replace(0, 5, "HELLO");
  s.append(3, '!');
  std::printf("%s %zu %zu %d\n", s.c_str(), s.find("world"), s.size(),
              s.compare("HELLO"));
  return 0;
}
