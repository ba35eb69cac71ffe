// An entry that names, alone, a function declared in a system header is an
// error at the entry's line of the list, with a note at the declaration:
// the C and C++ libraries are built without the list, so such a function
// cannot be preserve_none (before, `fun:strlen` gave its calls the
// convention: a crash; issue 21, defect 1). The same function matched by a
// glob is left alone without a word.
//
// RUN: rm -rf %t && mkdir %t
// RUN: printf '# the string functions\nfun:str_step\n  fun:strlen\n' > %t/list
// RUN: not %clang -O1 -c -fpreserve-none-list=%t/list %s -o %t/o.o 2>&1 \
// RUN:   | FileCheck %s -DLIST=%t/list --implicit-check-not=error:
// CHECK: [[LIST]]:3:3: error: 'strlen' is declared in a system header: the libraries that define such functions are built without the preserve-none list, so it cannot be preserve_none; remove the entry
// CHECK-NEXT: 3 |   fun:strlen
// CHECK-NEXT:   |   ^
// CHECK: string.h:{{[0-9]+}}:{{[0-9]+}}: note: 'strlen' declared here
//
// A C++ name, demangled or mangled, likewise (`compare(char const*)` would
// be a glob, for its `*`, and match silently nothing):
// RUN: printf 'fun:std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char>>::size() const\n' > %t/cxx.list
// RUN: not %clangxx -O1 -c -x c++ -fpreserve-none-list=%t/cxx.list %S/Inputs/boundary/string-user.cpp -o %t/o.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CXX -DLIST=%t/cxx.list --implicit-check-not=error:
// CXX: [[LIST]]:1:1: error: 'std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char>>::size() const' is declared in a system header
// RUN: printf 'fun:_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7compareEPKc\n' > %t/mangled.list
// RUN: not %clangxx -O1 -c -x c++ -fpreserve-none-list=%t/mangled.list %S/Inputs/boundary/string-user.cpp -o %t/o.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MANGLED -DLIST=%t/mangled.list --implicit-check-not=error:
// MANGLED: [[LIST]]:1:1: error: '_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7compareEPKc' is declared in a system header
//
// A glob is no error:
// RUN: printf 'fun:str*\n' > %t/glob.list
// RUN: %clang -O1 -c -fpreserve-none-list=%t/glob.list %s -o %t/o.o 2>&1 | count 0
#include <string.h>

void str_step(void) {}

unsigned long len(const char *s) {
  str_step();
  return strlen(s);
}
