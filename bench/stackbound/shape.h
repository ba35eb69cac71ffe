//===- bench/stackbound/shape.h - The server-shaped entry's calls ---------===//
//
// What exact.c, exact_aco.c and pool.c share: the entry (serve) and its
// call tree that parses a request, handles it and formats the answer, each
// a frame with locals, the two measures (CPU time, RSS) and the ring's
// report. SHAPE_WAIT(key),
// defined before this header, is where handle() waits (pool.c); with
// SHAPE_YIELD() defined instead it yields there (the ring of yields of
// exact.c and exact_aco.c, whose entry loops); by default it does not.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_STACKBOUND_SHAPE_H
#define CACS_BENCH_STACKBOUND_SHAPE_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#ifdef SHAPE_YIELD
// The ring of yields (exact.c and exact_aco.c built with -DSHAPE_RING,
// SHAPE_YIELD() their library's yield): handle() yields in its deepest
// call, a wait that returns, as a server's does.
static int ring_on = 1; // 0 while main checks the answers (rounds_report)
__attribute__((noinline)) static uint32_t ring_wait(uint32_t key) {
  if (ring_on)
    SHAPE_YIELD();
  return key;
}
#define SHAPE_WAIT(key) ring_wait(key)
#endif
#ifndef SHAPE_WAIT
#define SHAPE_WAIT(key) (key)
#endif

// The server's shape without C library calls (one would leave the entry
// without a bound): parse a request, handle it (waiting where SHAPE_WAIT
// says), format the answer, each a frame with locals.
__attribute__((noinline)) static uint32_t format(uint32_t v) {
  char out[48];
  int n = 0;
  do
    out[n++] = (char)('0' + v % 10);
  while ((v /= 10) && n < 40);
  uint32_t h = 2166136261u;
  while (n)
    h = (h ^ (uint8_t)out[--n]) * 16777619u;
  return h;
}
__attribute__((noinline)) static uint32_t handle(uint32_t key) {
  uint32_t table[16];
  for (int i = 0; i < 16; ++i)
    table[i] = key * (uint32_t)(i + 1);
  key = SHAPE_WAIT(key);
  return format(table[key & 15] ^ table[(key >> 4) & 15]);
}
__attribute__((noinline)) static uint32_t parse(uint32_t id) {
  char line[64];
  int n = 0;
  for (uint32_t v = id; n < 60; v = v * 1103515245u + 12345u)
    line[n++] = (char)('a' + (v >> 16) % 26);
  uint32_t key = 0;
  for (int i = 0; i < n; ++i)
    key = key * 31 + (uint8_t)line[i];
  return handle(key);
}
// A request and the entry that serves it (the coroutines' entry).
typedef struct req {
  uint32_t id;
  uint32_t answer;
} req;

static void serve(void *p) {
  req *r = p;
  r->answer = parse(r->id);
}

// CPU time of the process (user and system: page faults count), not wall
// time: on a shared machine wall time measures the load.
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long rss(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &res) != 2)
      res = 0;
    fclose(f);
  }
  return res * sysconf(_SC_PAGESIZE);
}

// The ring's line (exact.c on libcacs, exact_aco.c on libaco): the mode,
// whether its coroutines ran on exact stacks and their size, RSS per
// coroutine once all N are created, then per coroutine the times between
// t[0] (before the creations), t[1] (all created), t[2] (all run) and t[3]
// (all joined), and how many came back with the right answer. Returns the
// exit status: 0 when every answer is right.
static inline int ring_report(const char *mode, long n, int exact, size_t bytes,
                              long rss0, long rss1, const double t[4],
                              const req *rs) {
  long ok = 0;
  for (long i = 0; i < n; ++i)
    ok += rs[i].answer == parse((uint32_t)i);
  printf("mode=%s n=%ld exact=%d stack=%zu rss_per_coro=%.0f create_ns=%.1f "
         "run_ns=%.1f join_ns=%.1f ok=%ld\n",
         mode, n, exact, bytes, (double)(rss1 - rss0) / (double)n,
         (t[1] - t[0]) * 1e9 / (double)n, (t[2] - t[1]) * 1e9 / (double)n,
         (t[3] - t[2]) * 1e9 / (double)n, ok);
  return ok != n;
}

#ifdef SHAPE_YIELD
// The ring of yields' entry: shape_rounds rounds of the shape, each one
// request, its answer folded into one.
static long shape_rounds = 1;
static void serve_rounds(void *p) {
  req *r = p;
  uint32_t h = 0;
  for (long k = 0; k < shape_rounds; ++k)
    h = h * 31 + parse(r->id + (uint32_t)k);
  r->answer = h;
}

// How many of the n requests came back with the right answer:
// serve_rounds again on main's stack, where SHAPE_WAIT no longer yields.
// Its own function, so that callgrind can count it apart
// (--dump-before=shape_check): the shape's instructions without a switch.
__attribute__((noinline)) static long shape_check(long n, const req *rs) {
  long ok = 0;
  for (long i = 0; i < n; ++i) {
    req r = {(uint32_t)i, 0};
    serve_rounds(&r);
    ok += rs[i].answer == r.answer;
  }
  return ok;
}

// The ring of yields' line, as ring_report's: RSS per coroutine with all N
// parked in their first yield, then per coroutine the times between t[0]
// (before the creations), t[1] (all created), t[2] (the first round: each
// started and parked), t[3]..t[4] (the rounds 2 to shape_rounds, of N
// coroutines each: round_ns, per coroutine and round) and t[5] (the
// last round and every exit, joined), the shape's own time per round
// without the switch (shape_check's: all in cache, one stack), and how
// many came back with the right answer.
static inline int rounds_report(const char *mode, long n, int exact,
                                size_t bytes, long rss0, long rss1,
                                const double t[6], const req *rs) {
  ring_on = 0;
  double c0 = now();
  long ok = shape_check(n, rs);
  double c1 = now();
  double rounds = (double)(shape_rounds - 1) * (double)n;
  printf("mode=%s n=%ld rounds=%ld exact=%d stack=%zu rss_per_coro=%.0f "
         "create_ns=%.1f first_ns=%.1f round_ns=%.2f last_ns=%.1f "
         "shape_ns=%.2f ok=%ld\n",
         mode, n, shape_rounds, exact, bytes, (double)(rss1 - rss0) / (double)n,
         (t[1] - t[0]) * 1e9 / (double)n, (t[2] - t[1]) * 1e9 / (double)n,
         (t[4] - t[3]) * 1e9 / rounds, (t[5] - t[4]) * 1e9 / (double)n,
         (c1 - c0) * 1e9 / ((double)shape_rounds * (double)n), ok);
  return ok != n;
}
#endif

#endif // CACS_BENCH_STACKBOUND_SHAPE_H
