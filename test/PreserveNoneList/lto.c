// Full LTO: the compile steps record the list in the IR; the link applies it
// again to the merged program inside lld, and only there does an entry that
// matched nothing in the whole program give a warning (the compile steps,
// where an entry usually matches nothing, stay quiet). The program runs.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -O2 -flto -c %S/Inputs/two-tu-def.c -o %t/def.o -fpreserve-none-list=%t/list.txt \
// RUN:   -fno-preserve-none-list-export-warning 2>&1 | count 0
// RUN: %clang -O2 -flto -c %S/Inputs/two-tu-use.c -o %t/use.o -fpreserve-none-list=%t/list.txt 2>&1 | count 0
// RUN: %clang -O2 -flto %t/def.o %t/use.o -o %t/prog -Wl,--save-temps 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LINK -DLIST=%t/list.txt --implicit-check-not=warning:
// LINK: {{^}}ld.lld: warning: [[LIST]]:5:1: 'fun:no_such_function' matched no function in the program
// RUN: %t/prog | FileCheck %S/two-tu-x86_64.c
//
// The merged program, as code generation gets it:
// RUN: llvm-dis %t/prog.0.5.precodegen.bc -o - | FileCheck %s --check-prefix=IR -DLIST=%t/list.txt
// IR-DAG: define {{.*}}preserve_nonecc {{.*}} @mix8.preserve_none_list(
// IR-DAG: call preserve_nonecc {{.*}} @mix8.preserve_none_list(
// IR-DAG: define {{.*}} @apply(
// IR-DAG: !cacs.preserve_none_lists = !{
// IR-DAG: !{!"[[LIST]]", !"# Listed{{.*}}", !"2,3,4"}

//--- list.txt
# Listed in both translation units of two-tu-*.c.
fun:mix8
fun:fiber_step
fun:apply
fun:no_such_function
