//===- bench/lifecycle/pagefloor.c - The cost of a fresh page here -------===//
//
// The floor under a coroutine's first use (issue 38): a private stack is at
// least one page of fresh memory (its control block and first frames), so
// no runtime that gives each of N coroutines its own stack can create them
// for less than what the kernel (and, in a virtual machine, the
// hypervisor) takes to hand out N pages, guard them and take them back.
// This measures that, without any runtime: N pages one per SLOT bytes, as
// stacks lie, in the ways a runtime can get them.
//
//   pagefloor MODE [N] [SLOT_KIB]     (N = 100000, SLOT_KIB = 64)
//
//   fault       write one byte per slot's top page (a page fault each)
//   populate    MADV_POPULATE_WRITE over the top pages, 64 per call
//   mappopulate one mmap(MAP_POPULATE) of N contiguous pages (the kernel's
//               cheapest way to N pages: no fault, no per-page call)
//   guard+fault, guard+populate: MADV_GUARD_INSTALL on each slot's bottom
//               page first, 64 per call (Linux >= 6.13)
//   mprotect+fault: mprotect(PROT_NONE) guards, a call (and a mapping
//               split) each: keep N under vm.max_map_count / 2
//
// Then, for every mode: the pages written again (already there), given back
// with MADV_DONTNEED 32 per call (as the stack cache's reclaim), unmapped.
// Prints one line: thread CPU ns per page of each step, page faults
// (getrusage minflt, which counts populated pages too) per page.
// Needs Linux >= 6.15 (process_madvise on itself, as lib/stack.c batches).
// Not built by CMake; beside bench/lifecycle/run.sh, pinned as it is
// (bench/results/lifecycle/NOTES.md):
//   clang -O2 -Ibench/common bench/lifecycle/pagefloor.c -o /tmp/pagefloor
//   taskset -c 1 /tmp/pagefloor guard+populate
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "bench.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif
#define SELF_THREAD (-10000) // PIDFD_SELF_THREAD
#define BATCH_POPULATE 64    // as lib/stack.c's CACS_PREFAULT_MAX
#define BATCH_RELEASE 32     // as lib/stack.c's CACS_RECLAIM_BATCH

static long page;

static long minflt(void) {
  struct rusage r;
  getrusage(RUSAGE_THREAD, &r);
  return r.ru_minflt;
}

// `advice` over `n` pages, the i-th at base + i * stride + off, `batch` per
// process_madvise call.
static void advise(char *base, long n, size_t stride, size_t off, int batch,
                   int advice) {
  struct iovec iov[BATCH_POPULATE];
  for (long i = 0; i < n; i += batch) {
    long k = n - i < batch ? n - i : batch;
    for (long j = 0; j < k; ++j)
      iov[j] =
          (struct iovec){base + (size_t)(i + j) * stride + off, (size_t)page};
    if (syscall(SYS_process_madvise, SELF_THREAD, iov, (size_t)k, advice, 0) <
        0) {
      perror("pagefloor: process_madvise");
      exit(1);
    }
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  long n = argc > 2 ? atol(argv[2]) : 100000;
  size_t slot = (size_t)(argc > 3 ? atol(argv[3]) : 64) << 10;
  page = sysconf(_SC_PAGESIZE);
  int dense = !strcmp(mode, "mappopulate");
  int guard = !strncmp(mode, "guard+", 6);
  int prot = !strncmp(mode, "mprotect+", 9);
  const char *touch = strchr(mode, '+') ? strchr(mode, '+') + 1 : mode;
  if (n < 1 || slot < 2 * (size_t)page ||
      (strcmp(touch, "fault") && strcmp(touch, "populate") && !dense)) {
    fprintf(stderr,
            "usage: %s fault|populate|mappopulate|guard+fault|"
            "guard+populate|mprotect+fault [N] [SLOT_KIB]\n",
            argv[0]);
    return 64;
  }
  size_t stride = dense ? (size_t)page : slot, top = stride - (size_t)page;
  size_t len = (size_t)n * stride;
  uint64_t t0 = bench_cpu_ns();
  long f0 = minflt();
  char *b = mmap(NULL, len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                     (dense ? MAP_POPULATE : 0),
                 -1, 0);
  if (b == MAP_FAILED) {
    perror("pagefloor: mmap");
    return 1;
  }
  uint64_t t1 = bench_cpu_ns();
  if (guard)
    advise(b, n, stride, 0, BATCH_POPULATE, MADV_GUARD_INSTALL);
  for (long i = 0; prot && i < n; ++i)
    if (mprotect(b + (size_t)i * stride, (size_t)page, PROT_NONE)) {
      perror("pagefloor: mprotect");
      return 1;
    }
  uint64_t t2 = bench_cpu_ns();
  long f2 = minflt();
  if (!strcmp(touch, "populate"))
    advise(b, n, stride, top, BATCH_POPULATE, MADV_POPULATE_WRITE);
  else if (!dense)
    for (long i = 0; i < n; ++i)
      ((volatile char *)b)[(size_t)i * stride + top] = 1;
  uint64_t t3 = bench_cpu_ns();
  long f3 = minflt();
  for (long i = 0; i < n; ++i)
    ((volatile char *)b)[(size_t)i * stride + top] = 2;
  uint64_t t4 = bench_cpu_ns();
  advise(b, n, stride, top, BATCH_RELEASE, MADV_DONTNEED);
  uint64_t t5 = bench_cpu_ns();
  munmap(b, len);
  uint64_t t6 = bench_cpu_ns();
  double d = (double)n;
  // mappopulate's pages come with the mapping: its `map` is the touch.
  printf("mode=%s n=%ld slot_kib=%zu map_ns=%.0f guard_ns=%.0f touch_ns=%.0f "
         "faults=%.2f again_ns=%.0f dontneed_ns=%.0f munmap_ns=%.0f\n",
         mode, n, slot >> 10, (double)(t1 - t0) / d, (double)(t2 - t1) / d,
         (double)(t3 - t2) / d, (double)(f3 - f2 + (dense ? f2 - f0 : 0)) / d,
         (double)(t4 - t3) / d, (double)(t5 - t4) / d, (double)(t6 - t5) / d);
  return 0;
}
