// In C++ the error and its notes name the functions as the source does
// (demangled), the libcacs call by the name the user wrote, and the block
// by its file and line.
//
// RUN: not %clangxx -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clangxx -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
#include "cacs/coro.h"
#include "cacs/syncblock.h"

namespace app {
__attribute__((noinline)) void wait_for(int n) {
  if (n)
    cacs_sleep(n);
}

struct Store {
  int total = 0;
  void add(int n);
};

void Store::add(int n) {
  CACS_SYNC {
    total += n;
    wait_for(n);
    // CHECK: cxx.cpp:[[@LINE-1]]:{{[0-9]+}}: error: call to 'app::wait_for(int)' inside the sync block at {{.*}}cxx.cpp:[[@LINE-3]] can switch coroutines: app::wait_for(int) -> cacs_sleep{{$}}
    // CHECK: note: {{.*}}cxx.cpp:[[@LINE-4]]:{{[0-9]+}}: the sync block at {{.*}}cxx.cpp:[[@LINE-4]] starts here, in 'app::Store::add(int)'
    // CHECK-NEXT: note: {{.*}}cxx.cpp:[[@LINE-14]]:{{[0-9]+}}: 'app::wait_for(int)' calls 'cacs_sleep'
  }
}
} // namespace app
// CHECK-NOT: error:
