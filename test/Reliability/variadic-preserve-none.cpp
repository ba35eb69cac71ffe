// The variadic preserve_none check in C++: members, templates, references.
// RUN: not %clangxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clangxx %aarch64_flags -fsyntax-only %s 2>&1 | count 0

struct A {
  // CHECK: variadic-preserve-none.cpp:[[@LINE+1]]:38: error: 'preserve_none' calling convention is not supported on variadic function 'm' on x86-64
  __attribute__((preserve_none)) int m(int, ...);
  __attribute__((preserve_none)) int ok(int);
};

template <typename T> struct B {
  // CHECK: variadic-preserve-none.cpp:[[@LINE+1]]:36: error: 'preserve_none' calling convention is not supported on variadic function 'g' on x86-64
  __attribute__((preserve_none)) T g(T, ...);
};
B<int> bi;

// C++ parameter packs are not C varargs.
template <typename... Ts> __attribute__((preserve_none)) int pack(Ts...);
int use_pack() { return pack(1, 2, 3); }

// CHECK: variadic-preserve-none.cpp:[[@LINE+1]]:45: error: 'preserve_none' calling convention is not supported on variadic function type 'int (int, ...) __attribute__((preserve_none))' on x86-64
extern int (__attribute__((preserve_none)) &ref)(int, ...);
