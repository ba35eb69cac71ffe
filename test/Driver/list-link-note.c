// A link that fails because a listed function's preserve_none body is
// undefined (the code that defines the function was built without the
// list) gets a note after the linker's error: which function, which list
// files, and what to do. The linker's own messages and exit status pass
// through unchanged; a link that fails for another reason, or succeeds,
// gets no note.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:lib_*' > %t/list
// RUN: echo 'fun:other_*' > %t/list2
// RUN: %stock_clang -O0 -c %S/../PreserveNoneList/Inputs/boundary/lib.c -o %t/lib.o
//
// lld and GNU ld, C: the symbol as the linker spells it.
// RUN: not %clang -fuse-ld=lld -fpreserve-none-list=%t/list %S/../PreserveNoneList/Inputs/boundary/lib-use.c %t/lib.o -o %t/prog 2> %t/err-lld
// RUN: FileCheck %s --check-prefix=LLD -DLIST=%t/list < %t/err-lld
// LLD: ld.lld: error: undefined symbol: lib_scale.preserve_none_list
// LLD: clang: error: linker command failed with exit code 1
// LLD-NEXT: clang: note: 'lib_scale' matches the list '[[LIST]]' of '-fpreserve-none-list=', so its callers call its preserve_none body 'lib_scale.preserve_none_list', which only code built with the list defines; build the code that defines 'lib_scale' with the same list, or leave it out of the list
// LLD-NOT: note:
//
// The same from a response file (the front door runs the stock driver with
// one of its own then).
// RUN: echo '-fuse-ld=lld -fpreserve-none-list=%t/list %S/../PreserveNoneList/Inputs/boundary/lib-use.c %t/lib.o -o %t/prog' > %t/rsp
// RUN: not %clang @%t/rsp 2> %t/err-rsp
// RUN: FileCheck %s --check-prefix=LLD -DLIST=%t/list < %t/err-rsp
//
// RUN: not %clang -fuse-ld=bfd -fpreserve-none-list=%t/list -fpreserve-none-list=%t/list2 %S/../PreserveNoneList/Inputs/boundary/lib-use.c %t/lib.o -o %t/prog 2> %t/err-bfd
// RUN: FileCheck %s --check-prefix=BFD -DLIST=%t/list -DLIST2=%t/list2 < %t/err-bfd
// BFD: undefined reference to `lib_scale.preserve_none_list'
// BFD: clang: error: linker command failed with exit code 1
// BFD-NEXT: clang: note: 'lib_scale' matches one of the lists '[[LIST]]', '[[LIST2]]' of '-fpreserve-none-list=', so its callers call its preserve_none body 'lib_scale.preserve_none_list', which only code built with the list defines; build the code that defines 'lib_scale' with the same list, or leave it out of the list
// BFD-NOT: note:
//
// C++: both linkers demangle, each in its own way; one note per function.
// RUN: echo 'long lib_scale(long a) { return a; }' > %t/lib.cpp
// RUN: printf 'long lib_scale(long);\nint main() { return (int)lib_scale(1) + (int)lib_scale(2); }\n' > %t/use.cpp
// RUN: %stock_clangxx -c %t/lib.cpp -o %t/libxx.o
// RUN: not %clangxx -fuse-ld=lld -fpreserve-none-list=%t/list %t/use.cpp %t/libxx.o -o %t/prog 2> %t/err-lldxx
// RUN: FileCheck %s --check-prefix=LLDXX < %t/err-lldxx
// LLDXX: clang++: note: 'lib_scale(long)' matches the list {{.*}} its preserve_none body 'lib_scale(long) (.preserve_none_list)', {{.*}} defines 'lib_scale(long)' with the same list
// LLDXX-NOT: note:
// RUN: not %clangxx -fuse-ld=bfd -fpreserve-none-list=%t/list %t/use.cpp %t/libxx.o -o %t/prog 2> %t/err-bfdxx
// RUN: FileCheck %s --check-prefix=BFDXX < %t/err-bfdxx
// BFDXX: clang++: note: 'lib_scale(long)' matches the list {{.*}} its preserve_none body 'lib_scale(long) [clone .preserve_none_list]', {{.*}} defines 'lib_scale(long)' with the same list
// BFDXX-NOT: note:
//
// Another undefined symbol: the linker's error alone.
// RUN: echo 'void other(void); int main(void) { other(); return 0; }' > %t/other.c
// RUN: not %clang -fpreserve-none-list=%t/list %t/other.c -o %t/prog 2> %t/err-other
// RUN: FileCheck %s --check-prefix=OTHER < %t/err-other
// OTHER: undefined {{.*}}other
// OTHER-NOT: note:
//
// Built with the list on both sides: it links, runs, and says nothing.
// RUN: %clang -fpreserve-none-list=%t/list %S/../PreserveNoneList/Inputs/boundary/lib.c %S/../PreserveNoneList/Inputs/boundary/lib-use.c -o %t/prog 2> %t/err-ok
// RUN: count 0 < %t/err-ok
// RUN: %t/prog | FileCheck %s --check-prefix=OUT
// OUT: lib_scale 123, steps 1
