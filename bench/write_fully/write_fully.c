//===- bench/write_fully/write_fully.c - write_fully on stackful coroutines
//===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Built once per switch design (BCO_MODE of bcoro.h, and with or without
// -fauto-preserve-none). -n: bytes per task (default 100 MB). -v small:
// 4112-byte stacks, contiguous (default: 64 KiB, page aligned, which puts
// every task's frames at the same offset modulo 4 KiB). Checksum: the sum of
// all sockets' checksums plus bytes sent (wf.h).
//
//===----------------------------------------------------------------------===//

#define BCO_DEFINE_ASM
#include "bcoro.h"
#include "bench.h"

#define WF_YIELD() bco_yield()
#include "wf.h"

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "unnamed"
#endif

#define STACK_SIZE (64 * 1024)
#define SMALL_STACK 4112


int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100u << 20);
  int small = a.variant && !strcmp(a.variant, "small");
  char name[128];
  snprintf(name, sizeof name, "%s%s", BENCH_VARIANT,
           small ? "+small-stack" : "");
  bench_run r = bench_begin("write_fully", name, a.n);
  size_t bytes = (size_t)a.n;
  unsigned char *buf = wf_make_buffer(bytes);
  uint64_t expected = wf_expected(buf, bytes);
  static bco cos[WF_TASKS];
  static task tasks[WF_TASKS];
  char *stacks[WF_TASKS];
  size_t stack_size = small ? SMALL_STACK : STACK_SIZE;
  char *block = (char *)aligned_alloc(64, (size_t)SMALL_STACK * WF_TASKS);
  for (int i = 0; i < WF_TASKS; ++i)
    stacks[i] = small ? block + (size_t)i * SMALL_STACK
                      : (char *)aligned_alloc(4096, STACK_SIZE);
  for (int rep = 0; rep < a.reps; ++rep) {
    for (int i = 0; i < WF_TASKS; ++i) {
      tasks[i] = (task){{0, 0}, buf, bytes};
      bco_create(&cos[i], stacks[i], stack_size, task_body, &tasks[i]);
    }
    uint64_t t0 = bench_now_ns();
    bco_run();
    uint64_t t1 = bench_now_ns();
    uint64_t got = 0;
    for (int i = 0; i < WF_TASKS; ++i)
      got += tasks[i].sock.sum + tasks[i].sock.sent;
    bench_record(&r, t1 - t0, wf_ops(bytes), got, expected);
  }
  return bench_end(&r);
}
