// The per-thread stack cache (cacs_stack_set_cache): a steady create/join
// loop with fewer coroutines alive than the cache holds makes no system
// call (coroutines, generators, effect coroutines; pool coroutines:
// test/pool/pool-stack-steady.c); after a burst, the stacks beyond the
// cache give their pages back (in batches, one call for many stacks, when
// the kernel can) and RSS returns to where it was. A loop with more alive
// than the bound (2,000) raises it: from its third round on it makes no
// system call either, nor one whose 2,000 run to their end one after the
// other (one stack, their blocks' chunks kept); and when it is over, the
// stacks it kept go back while the thread creates and joins fewer. A burst
// beyond the limit of what the cache learns (16,384 by default) repeated at
// once is not learned: RSS after the second returns to where it was, with
// nothing called; under a limit above the burst (CACS_STACK_CACHE_LIMIT),
// the second is learned. A burst of coroutines that run to their end (one
// stack, their blocks in chunks of their own) gives RSS back too, and the
// drain of the next unmaps the chunks in batches, not one call each. Blocks
// of a few coroutines are never in a transparent huge page (2 MiB resident
// for them where THP is "always"); a burst's are.
// (Overflows into the guards of cached and carved stacks: stack-overflow.c.)
//
// System calls are counted by a seccomp filter that traps the memory
// calls into a SIGSYS handler, which counts them and pretends they worked
// (Inputs/trap-memory-calls.h): a filter cannot be removed, so it goes on
// for the last phase only.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t steady | FileCheck %s --check-prefix=STEADY
// RUN: %t burst | FileCheck %s --check-prefix=BURST
// RUN: %t burst-run | FileCheck %s --check-prefix=BURST-ENDS
// RUN: %t thp | FileCheck %s --check-prefix=THP
// RUN: env CACS_STACK_CACHE=0 %t nocache | FileCheck %s --check-prefix=NOCACHE
// RUN: %t learn | FileCheck %s --check-prefix=LEARN
// RUN: %t learn-run | FileCheck %s --check-prefix=LEARN-ENDS
// RUN: %t forget | FileCheck %s --check-prefix=FORGET
// RUN: %t again | FileCheck %s --check-prefix=AGAIN
// RUN: env CACS_STACK_CACHE_LIMIT=40000 %t again \
// RUN:   | FileCheck %s --check-prefix=KEPT
//
// STEADY: memory system calls, 1 alive: 0
// STEADY-NEXT: memory system calls, 100 alive: 0
// STEADY-NEXT: memory system calls, generators: 0
// STEADY-NEXT: memory system calls, effect coroutines: 0
// BURST: rss after the burst: within 10% of before
// BURST-NEXT: reclaim calls: batched
// BURST-ENDS: rss after the burst run to its end: within 10% of before
// BURST-ENDS-NEXT: mmap and munmap in the next drain: batched
// THP: blocks of a few: never huge
// THP-NEXT: blocks of a burst: huge
// NOCACHE: memory system calls, 1 alive: 1000
// LEARN: memory system calls, 2000 alive after two rounds: 0
// LEARN-ENDS: mmap and munmap, 2000 run to their end after two rounds: 0
// FORGET: rss while 2000 alive in rounds: above before
// FORGET-NEXT: rss after 100 alive for a while: within 10% of before
// AGAIN: rss after the first burst: within 10% of before
// AGAIN-NEXT: rss after the same burst again: within 10% of before
// KEPT: rss after the first burst: within 10% of before
// KEPT-NEXT: rss after the same burst again: above before

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "cacs/effect.h"
#include "cacs/generator.h"

#include "Inputs/trap-memory-calls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long sum;
static cacs_coro *coros[50000];
// Each parks once, so that a round's coroutines hold their stacks at once
// (the cache's subject). Coroutines that run to their end one after the
// other, created while no warm stack was cached, share one stack instead
// (coro-lazy-stack.c).
static void body(void *arg) {
  cacs_yield();
  sum += (long)(intptr_t)arg;
}

// Runs to its end at once: coroutines created while no warm stack was
// cached share one stack, and their control blocks come from chunks of
// their own (coro_blocks.c), kept as the stack cache keeps stacks.
static void run_body(void *arg) { sum += (long)(intptr_t)arg; }

static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  cacs_gen_yield(g, 1);
}

CACS_EFFECT(tick, int, int);

static void *effect_body(void *arg) {
  (void)CACS_PERFORM(tick, 1);
  return arg;
}

// An effect coroutine's life: created, one perform handled, run to its
// end, destroyed.
static void effects(int n) {
  for (int i = 0; i < n; ++i) {
    cacs_effect_coro *k = cacs_effect_create(effect_body, NULL, 0);
    if (!k)
      exit(3);
    cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(tick), NULL);
    if (q.effect != &CACS_EFFECT_OF(tick))
      exit(4);
    q = cacs_effect_resume(k, CACS_HANDLES(tick), NULL);
    if (q.effect || !cacs_effect_done(k))
      exit(5);
    cacs_effect_destroy(k);
  }
}

static void round_of(cacs_entry_fn fn, int alive) {
  for (int i = 0; i < alive; ++i)
    if (!(coros[i] = cacs_create(fn, (void *)(intptr_t)1, 0)))
      exit(3);
  for (int i = 0; i < alive; ++i)
    cacs_join(coros[i]);
}

static void round_(int alive) { round_of(body, alive); }

static void gens(int n) {
  for (int i = 0; i < n; ++i) {
    cacs_gen *g = cacs_gen_create(gen_body, NULL, 0);
    cacs_gen_resume(g, 0);
    cacs_gen_destroy(g);
  }
}

// Resident KiB (/proc/self/statm: pages).
static long rss_kib(void) {
  long size = 0, pages = -1;
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f || fscanf(f, "%ld %ld", &size, &pages) != 2)
    pages = -1;
  if (f)
    fclose(f);
  return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

// Whether the mapping holding `p` has VmFlags `flag` (/proc/self/smaps):
// 1, 0, or -1 if it was not found.
static int vm_flag(const void *p, const char *flag) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[512];
  int in = 0, found = -1;
  while (f && found < 0 && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) // a mapping's first line
      in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
    else if (in && !strncmp(line, "VmFlags:", 8))
      found = strstr(line, flag) != NULL;
  }
  if (f)
    fclose(f);
  return found;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "steady";
  setvbuf(stdout, NULL, _IONBF, 0); // printf allocates nothing later
  if (!strcmp(mode, "steady") || !strcmp(mode, "nocache")) {
    round_(100); // warm up: stacks carved, caches filled
    gens(10);
    effects(10);
    trap_memory_calls(1, 0);
    for (int i = 0; i < 1000; ++i)
      round_(1);
    printf("memory system calls, 1 alive: %ld\n", trapped);
    if (!strcmp(mode, "nocache"))
      return 0;
    trapped = 0;
    for (int i = 0; i < 100; ++i)
      round_(100);
    printf("memory system calls, 100 alive: %ld\n", trapped);
    trapped = 0;
    gens(1000);
    printf("memory system calls, generators: %ld\n", trapped);
    trapped = 0;
    effects(1000);
    printf("memory system calls, effect coroutines: %ld\n", trapped);
    return sum == 1000 + 100 * 100 + 100 ? 0 : 1;
  }
  if (!strcmp(mode, "burst") || !strcmp(mode, "burst-run")) {
    // burst-run: bodies that run to their end, sharing a stack; their
    // 50,000 blocks take 136 chunks of 64 KiB, in regions of 32
    // (coro_blocks.c), and their handles a table of 512 KiB (coro.c).
    int run = !strcmp(mode, "burst-run");
    int n = run ? 50000 : 20000;
    for (int i = 0; i < 100; ++i) // a server's steady state
      round_(100);
    memset(coros, 0, sizeof coros); // this program's own, resident before
    long before = rss_kib();
    round_of(run ? run_body : body, n);
    long after = rss_kib();
    printf("rss after the burst%s: %s (%ld KiB, %ld before)\n",
           run ? " run to its end" : "",
           after <= before + before / 10 ? "within 10% of before" : "WRONG",
           after, before);
    if (run) { // the drain of a second such burst, mmap and munmap counted
      for (int i = 0; i < n; ++i)
        if (!(coros[i] = cacs_create(run_body, (void *)(intptr_t)1, 0)))
          return 3;
      trap_memory_calls(1, 0);
      for (int i = 0; i < n; ++i)
        cacs_join(coros[i]);
      // One munmap a chunk beyond the one kept would be 135.
      printf("mmap and munmap in the next drain: %s (%ld)\n",
             maps < 40 ? "batched" : "WRONG", maps);
      return sum == 100 * 100 + 2 * n ? 0 : 1;
    }
    // A server's steady state again, long enough for the cache to forgive
    // the burst's stacks (an epoch with stacks left in it unused): the
    // second burst does not raise the bound.
    for (int i = 0; i < 20; ++i)
      round_(100);
    // The drain of a second burst, its madvise calls counted: one per
    // stack beyond the cache without batches, one per 32 with.
    for (int i = 0; i < n; ++i)
      coros[i] = cacs_create(body, (void *)(intptr_t)1, 0);
    cacs_yield(); // each runs to its park: the stacks not cached are bound
    struct iovec iov = {coros[0], 0};
    int can_batch =
        syscall(SYS_process_madvise, -10000, &iov, 1, MADV_DONTNEED, 0) == 0;
    trap_memory_calls(0, 0);
    for (int i = 0; i < n; ++i)
      cacs_join(coros[i]);
    long calls = trapped;
    printf("reclaim calls: %s (%ld for %d stacks)\n",
           !can_batch ? "batched (n/a: the kernel has no batches)"
           : calls > 0 && calls < n / 16 ? "batched"
                                         : "WRONG",
           calls, n);
    return 0;
  }
  if (!strcmp(mode, "thp")) {
    // A fresh thread: its first blocks start a region (coro_blocks.c); a
    // burst's next regions are mapped while a region's worth is in use.
    int thp = access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
    int n = 20000;
    for (int i = 0; i < n; ++i)
      if (!(coros[i] = cacs_create(run_body, (void *)(intptr_t)1, 0)))
        return 3;
    int few = vm_flag(coros[0], " nh"), burst = vm_flag(coros[n - 1], " hg");
    printf("blocks of a few: %s (%d)\n",
           few == 1 || !thp ? "never huge" : "WRONG", few);
    printf("blocks of a burst: %s (%d)\n",
           burst == 1 || !thp ? "huge" : "WRONG", burst);
    for (int i = 0; i < n; ++i)
      cacs_join(coros[i]);
    return sum == n ? 0 : 1;
  }
  if (!strcmp(mode, "learn") || !strcmp(mode, "learn-run")) {
    // learn-run: bodies that run to their end, sharing a stack; their
    // blocks' chunks (6) are the ones given back, then needed again.
    int run = !strcmp(mode, "learn-run");
    cacs_entry_fn fn = run ? run_body : body;
    round_of(fn, 2000); // the stacks' first use
    round_of(fn, 2000); // beyond the cache's 128: given back, then needed again
    trap_memory_calls(1, 0);
    for (int i = 0; i < 3; ++i)
      round_of(fn, 2000);
    // (learn-run, not madvise: each round one more coroutine finds a cached
    // stack at its creation, the one the others shared in the round before,
    // and the shared one is then a fresh slot, populated in ramping batches.)
    if (run)
      printf("mmap and munmap, 2000 run to their end after two rounds: %ld\n",
             maps);
    else
      printf("memory system calls, 2000 alive after two rounds: %ld\n",
             trapped);
    return sum == 5 * 2000 ? 0 : 1;
  }
  if (!strcmp(mode, "forget")) {
    for (int i = 0; i < 100; ++i) // a server's steady state
      round_(100);
    memset(coros, 0, sizeof coros); // this program's own, resident before
    long before = rss_kib();
    for (int i = 0; i < 3; ++i) // a steady state of 2000 alive
      round_(2000);
    long during = rss_kib(); // between two rounds: the cache holds them
    printf("rss while 2000 alive in rounds: %s (%ld KiB, %ld before)\n",
           during > before + before / 10 ? "above before" : "WRONG", during,
           before);
    // 20,000 creates: more than two epochs of the learned bound.
    for (int i = 0; i < 200; ++i)
      round_(100);
    long after = rss_kib();
    printf("rss after 100 alive for a while: %s (%ld KiB, %ld before)\n",
           after <= before + before / 10 ? "within 10% of before" : "WRONG",
           after, before);
    return 0;
  }
  if (!strcmp(mode, "again")) {
    int n = 20000; // beyond the default limit of what the cache learns
    for (int i = 0; i < 100; ++i) // a server's steady state
      round_(100);
    memset(coros, 0, sizeof coros); // this program's own, resident before
    long before = rss_kib();
    const char *what[] = {"the first burst", "the same burst again"};
    for (int k = 0; k < 2; ++k) {
      round_(n);
      long after = rss_kib();
      printf("rss after %s: %s (%ld KiB, %ld before)\n", what[k],
             after <= before + before / 10 ? "within 10% of before"
                                           : "above before",
             after, before);
    }
    return sum == 100 * 100 + 2 * n ? 0 : 1;
  }
  return 64;
}
