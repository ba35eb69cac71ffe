// What freeing a pooled stack does with its pages: a coroutine dirties
// 32 KiB of its stack and finishes. By default its stack goes to the
// thread's cache with its pages (cacs_stack_set_cache), which
// cacs_stack_pool_trim empties. Without the cache (bound 0) the pages go
// as cacs_stack_set_reclaim says: with the default (MADV_DONTNEED) they
// are no longer resident once it is joined, with CACS_STACK_RECLAIM_NONE
// they are, and the environment variables set both at start. MADV_FREE
// leaves them to the kernel: only reuse is checked.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t default | FileCheck %s --check-prefix=CACHED
// RUN: %t nocache | FileCheck %s --check-prefix=GONE
// RUN: env CACS_STACK_CACHE=0 %t default | FileCheck %s --check-prefix=GONE
// RUN: %t none | FileCheck %s --check-prefix=KEPT
// RUN: env CACS_STACK_CACHE=0 CACS_STACK_RECLAIM=none %t default | FileCheck %s --check-prefix=KEPT
// RUN: %t free | FileCheck %s --check-prefix=FREE
//
// CACHED: resident after join: 8 of 8 pages
// CACHED-NEXT: resident after trim: 0 of 8 pages
// GONE: resident after join: 0 of 8 pages
// KEPT: resident after join: 8 of 8 pages
// FREE: reused ok

#include "cacs/coro.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char *dirty_lo;

__attribute__((noinline)) static void dirty(void) {
  volatile char buf[40 * 1024];
  for (size_t i = 0; i < sizeof buf; i += 512)
    buf[i] = 1;
  dirty_lo = (char *)buf;
}

static void body(void *arg) {
  (void)arg;
  dirty();
}

// Of eight whole pages of what dirty() wrote, well below the top page, the
// resident ones.
static int resident_pages(void) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  char *p = (char *)(((uintptr_t)dirty_lo + pg - 1) & ~(uintptr_t)(pg - 1));
  unsigned char vec[8];
  if (mincore(p, 8 * pg, vec) != 0) {
    if (errno == ENOMEM) // unmapped with its slab
      return 0;
    perror("mincore");
    return -1;
  }
  int resident = 0;
  for (int i = 0; i < 8; ++i)
    resident += vec[i] & 1;
  return resident;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "default";
  if (strcmp(mode, "default"))
    cacs_stack_set_cache(0);
  if (!strcmp(mode, "none"))
    cacs_stack_set_reclaim(CACS_STACK_RECLAIM_NONE, 4096);
  else if (!strcmp(mode, "free"))
    cacs_stack_set_reclaim(CACS_STACK_RECLAIM_FREE, 4096);
  cacs_join(cacs_create(body, NULL, 0));
  int resident = resident_pages();
  if (resident < 0)
    return 1;
  if (!strcmp(mode, "free")) {
    cacs_join(cacs_create(body, NULL, 0)); // the same stack, dirtied again
    printf("reused %s\n", dirty_lo && resident >= 0 ? "ok" : "WRONG");
    return 0;
  }
  printf("resident after join: %d of 8 pages\n", resident);
  if (!strcmp(mode, "default")) {
    cacs_stack_pool_trim();
    printf("resident after trim: %d of 8 pages\n", resident_pages());
  }
  return 0;
}
