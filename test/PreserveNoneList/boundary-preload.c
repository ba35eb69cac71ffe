// What LD_PRELOAD interposition reaches: a library and its program built
// with `fun:twice`. A preloaded `twice` built without the list (C) replaces
// the plain name, so calls through a pointer (and dlsym, and code built
// without the list) reach it; the program's direct calls go to
// twice.preserve_none_list, which it does not define, so they still reach
// the library's body. A preload built with the list replaces both.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:twice' > %t/list
// RUN: %clang -O2 -fPIC -shared %S/Inputs/boundary/preload-lib.c -fpreserve-none-list=%t/list -o %t/libt.so
// RUN: %clang -O2 %S/Inputs/boundary/preload-main.c -fpreserve-none-list=%t/list -L%t -lt -Wl,-rpath,%t -o %t/prog
// RUN: %t/prog | FileCheck %s --check-prefix=NONE
// RUN: %stock_clang -O2 -fPIC -shared %S/Inputs/boundary/preload-override.c -o %t/c.so
// RUN: env LD_PRELOAD=%t/c.so %t/prog | FileCheck %s --check-prefix=C
// RUN: %clang -O2 -fPIC -shared %S/Inputs/boundary/preload-override.c -fpreserve-none-list=%t/list -o %t/list.so
// RUN: env LD_PRELOAD=%t/list.so %t/prog | FileCheck %s --check-prefix=LIST
// NONE: direct 42 pointer 42
// C: direct 42 pointer 1021
// LIST: direct 1021 pointer 1021
