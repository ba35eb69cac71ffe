// --help: clang's own help first, then the cacs flags the front door takes,
// each with its spellings, description and default, from the settings
// table; the settings only -mllvm sets are not shown.
// RUN: %clang --help | FileCheck %s
// RUN: %clangxx --help | FileCheck %s
//
// CHECK: OVERVIEW: clang LLVM compiler
// CHECK: CACS OPTIONS (cacs {{[0-9.]+}}; the front door also adds libcacs's include and library directories):
// CHECK-NEXT: {{^}}  -fauto-preserve-none, -fno-auto-preserve-none{{$}}
// CHECK-NEXT: {{^}}      Propagate preserve_none to the callers of preserve_none functions where{{$}}
// CHECK-NEXT: {{^}}      that is safe (-fauto-preserve-none). Default: off.{{$}}
// CHECK-NEXT: {{^}}  -fpreserve-none-list=<file>{{$}}
// CHECK:      {{^}}  -fpreserve-none-list-export-warning, -fno-preserve-none-list-export-warning{{$}}
// CHECK:      {{^}}  -fpreserve-none-callee-saved=<upstream|none>{{$}}
// CHECK:      Default: upstream.
// CHECK-NOT: link-binds-now
// CHECK-NOT: warn-unused
