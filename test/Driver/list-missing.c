// A missing list file is a clear error in clang's format, before any job runs.
// RUN: not %clang -fpreserve-none-list=%t.does-not-exist -c %s -o /dev/null 2>&1 | FileCheck %s -DPATH=%t.does-not-exist
// CHECK: clang: error: preserve-none list file '[[PATH]]' not found
int f(void) { return 0; }
