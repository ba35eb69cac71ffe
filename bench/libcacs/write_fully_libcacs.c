//===- bench/libcacs/write_fully_libcacs.c - write_fully on libcacs
//--------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// write_fully.c with the runtime's coroutines: 9 cacs_create()d tasks plus
// main as the 10th, wait_for_ready() = cacs_yield().
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"

#define WF_YIELD() cacs_yield()
#include "wf.h"

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "libcacs"
#endif


int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100u << 20);
  bench_run r = bench_begin("write_fully", BENCH_VARIANT, a.n);
  size_t bytes = (size_t)a.n;
  unsigned char *buf = wf_make_buffer(bytes);
  uint64_t expected = wf_expected(buf, bytes);
  static task tasks[WF_TASKS];
  for (int rep = 0; rep < a.reps; ++rep) {
    cacs_coro *c[WF_TASKS - 1];
    for (int i = 0; i < WF_TASKS; ++i)
      tasks[i] = (task){{0, 0}, buf, bytes};
    for (int i = 0; i < WF_TASKS - 1; ++i)
      c[i] = cacs_create(task_body, &tasks[i], 0);
    uint64_t t0 = bench_cpu_ns();
    task_body(&tasks[WF_TASKS - 1]);
    for (int i = 0; i < WF_TASKS - 1; ++i)
      cacs_join(c[i]);
    uint64_t t1 = bench_cpu_ns();
    uint64_t got = 0;
    for (int i = 0; i < WF_TASKS; ++i)
      got += tasks[i].sock.sum + tasks[i].sock.sent;
    bench_record(&r, t1 - t0, wf_ops(bytes), got, expected);
  }
  return bench_end(&r);
}
