// One list file named through two spellings of the settings table (the front
// door's flag, which reaches the clang plugin, and -mllvm, which reaches the
// cl::opt), relative and with "./", is one list: it is recorded once, under
// its normalized path.
//
// RUN: rm -rf %t && mkdir -p %t/sub && cd %t
// RUN: printf 'fun:g\n' > pn.list
// RUN: %clang -O1 -S -emit-llvm -o - %s -fpreserve-none-list=pn.list -mllvm -cacs-preserve-none-list=./sub/../pn.list | FileCheck %s -DDIR=%t
// RUN: %stock_clang -O1 -S -emit-llvm -o - %s -fplugin=%cacs_clang_plugin -fpass-plugin=%cacs_passes -fplugin-arg-cacs-preserve-none-list=%t/pn.list -mllvm -cacs-preserve-none-list=pn.list | FileCheck %s -DDIR=%t
//
// CHECK: !cacs.preserve_none_lists = !{![[L:[0-9]+]]}
// CHECK: ![[L]] = !{!"[[DIR]]/pn.list", !"fun:g\0A",

void g(void);
void f(void) { g(); }
