// The guard of kernels without MADV_GUARD_INSTALL (forced here with
// CACS_STACK_GUARD=mprotect; qemu-user always takes it): it splits mappings,
// so guarded stacks stop at a budget of vm.max_map_count with ENOMEM and a
// message naming it, never a crash, and every coroutine created before runs
// and finishes. See stack-many-guarded.c.
//
// RUN: %clang -O1 -I%cacs_include %S/stack-many-guarded.c %cacs_rt_x86_64 -o %t
// RUN: env CACS_STACK_GUARD=mprotect %t budget 2>&1 | FileCheck %S/stack-many-guarded.c --check-prefix=FALLBACK
