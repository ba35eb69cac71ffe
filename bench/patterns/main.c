//===- bench/patterns/main.c - The pattern benchmarks' harness --*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//   pat_<runtime> -v PATTERN [-n SWITCHES] [-r REPS]
//
// PATTERN: pingpong, pipeline, ring2, ring10, ring100, ring10000, chain,
// handler, waits, nest1 to nest5, server (patterns.h); ring10same: 10 tasks all running one function. -n is the number of switches aimed at; ops in the
// RESULT line is the number of yields actually made (counted by YIELD at
// every site), so ns/op is ns per switch on every runtime. Each repetition
// spawns the tasks, times the pattern (not the spawns, not the tasks' exit)
// and checks the result against a computation without coroutines. Time is
// the thread's CPU time (bench_cpu_ns): the machine these run on is shared.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "patterns.h"

uint64_t pat_switches;

static ring_arg ring_args[RING_MAX];
static uint64_t srv_want;

static unsigned ring_tasks(const char *pat) {
  unsigned tasks = (unsigned)strtoul(pat + 4, NULL, 10);
  if (tasks < 1 || tasks > RING_MAX) {
    fprintf(stderr, "ring size 1..%d\n", RING_MAX);
    exit(64);
  }
  return tasks;
}

/// ringNsame: every task runs ring_fns[0] (one function, one yield site:
/// the shape of bench/yield).
static int ring_same(const char *pat) { return strstr(pat, "same") != NULL; }

/// server: about 3.5 switches per request.
static uint64_t srv_requests(uint64_t n) {
  uint64_t requests = n * 2 / 7 / SRV_CONNS * SRV_CONNS;
  return requests ? requests : SRV_CONNS;
}

/// chain: what chain_a_run returns, computed without coroutines.
static uint64_t chain_ref(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i) {
    uint64_t x = (((i + 1) ^ 2) + 3) * 2, box, r;
    box = x & 4 ? x : x + 9;
    box = box & 8 ? box * 5 + 1 : box + 7;
    r = x & 4 ? box + 5 : box ^ 5;
    sum += r + 4 + 3 + 2 + 1;
  }
  return sum;
}

/// handler: what hd_a_run returns, computed without coroutines (each of
/// hd_a.c's functions meets the hd_b.c function of the same turn).
static uint64_t hd_ref(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i)
    sum += (i * 2 + 1) + 1 + ((i ^ 5) ^ 0x55) * 3 + (((i + 7) + 3) ^ 9);
  return sum;
}

/// nestN: what nest_a_run returns, without coroutines.
static uint64_t nest_level_ref(unsigned k, uint64_t x, unsigned d) {
  if (k == d)
    return (x * 3 + 1) + k;
  return nest_level_ref(k + 1, x + k, d) ^ k;
}
static uint64_t nest_ref(uint64_t rounds, unsigned d) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i)
    sum += nest_level_ref(1, i, d);
  return sum;
}
static unsigned nest_depth_of(const char *pat) {
  unsigned d = (unsigned)strtoul(pat + 4, NULL, 10);
  if (d < 1 || d > 5) {
    fprintf(stderr, "nest depth 1..5\n");
    exit(64);
  }
  return d;
}

/// pipeline: the sum of the sink, without coroutines.
static uint64_t pipe_ref(uint64_t items) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < items; ++i) {
    uint64_t v = 3 * i + 1;
    sum += v ^ (v >> 3);
  }
  return sum;
}

uint64_t pat_t1;
static unsigned ring_left;

void ring_done(void) {
  if (!--ring_left)
    pat_t1 = bench_cpu_ns();
}

/// One repetition: spawns the tasks (not timed), times the pattern from the
/// first switch to the end of its work (the tasks' exit and the stacks'
/// release are not timed), lets every task finish. Returns the result and
/// sets *t0; the end is pat_t1.
static uint64_t run(const char *pat, uint64_t n, uint64_t *t0) {
  uint64_t got = 0;
  if (!strcmp(pat, "pingpong")) {
    pp_stop = 0;
    rt_spawn(pp_pong, NULL);
    *t0 = bench_cpu_ns();
    got = pp_ping(n / 2);
    pat_t1 = bench_cpu_ns();
  } else if (!strcmp(pat, "pipeline")) {
    // Every stage blocks about once per item.
    pipe_items = n / 4;
    pipe_c1.full = pipe_c2.full = pipe_c3.full = 0;
    rt_spawn(pipe_gen, NULL);
    rt_spawn(pipe_scale, NULL);
    rt_spawn(pipe_mix, NULL);
    *t0 = bench_cpu_ns();
    got = pipe_sink(n / 4);
    pat_t1 = bench_cpu_ns();
  } else if (!strncmp(pat, "ring", 4)) {
    unsigned tasks = ring_tasks(pat);
    for (unsigned k = 0; k < tasks; ++k) {
      ring_args[k].iters = n / tasks ? n / tasks : 1;
      ring_args[k].out = 0;
      rt_spawn(ring_fns[ring_same(pat) ? 0 : k % RING_FUNCTIONS], &ring_args[k]);
    }
    ring_left = tasks;
    *t0 = bench_cpu_ns();
    rt_wait_all(); // the last task to finish sets pat_t1
    for (unsigned k = 0; k < tasks; ++k)
      got += ring_args[k].out;
    return got;
  } else if (!strcmp(pat, "chain")) {
    chain_stop = 0;
    rt_spawn(chain_b_run, NULL);
    *t0 = bench_cpu_ns();
    got = chain_a_run(n / 2);
    pat_t1 = bench_cpu_ns();
  } else if (!strcmp(pat, "handler")) {
    // Six switches a round.
    hd_stop = 0;
    rt_spawn(hd_b_run, NULL);
    *t0 = bench_cpu_ns();
    got = hd_a_run(n / 6);
    pat_t1 = bench_cpu_ns();
  } else if (!strcmp(pat, "waits")) {
    // Six switches a round, as the handler's.
    wt_stop = 0;
    rt_spawn(wt_b_run, NULL);
    *t0 = bench_cpu_ns();
    got = wt_a_run(n / 6);
    pat_t1 = bench_cpu_ns();
  } else if (!strncmp(pat, "nest", 4)) {
    nest_stop = 0;
    nest_depth = nest_depth_of(pat);
    rt_spawn(nest_b_run, NULL);
    *t0 = bench_cpu_ns();
    got = nest_a_run(n / 2);
    pat_t1 = bench_cpu_ns();
  } else if (!strcmp(pat, "server") || !strcmp(pat, "server-hinted")) {
    memset(srv_conns, 0, sizeof srv_conns);
    for (unsigned k = 0; k < SRV_CONNS; ++k)
      rt_spawn(srv_session, &srv_conns[k]);
    *t0 = bench_cpu_ns();
    got = (pat[6] ? srv_client_hinted : srv_client)(srv_requests(n), &srv_want);
    pat_t1 = bench_cpu_ns();
  } else {
    fprintf(stderr, "unknown pattern %s\n", pat);
    exit(64);
  }
  rt_wait_all();
  return got;
}

/// The result `run` must return, computed without coroutines.
static uint64_t expected(const char *pat, uint64_t n) {
  if (!strcmp(pat, "pingpong"))
    return (n / 2) * (n / 2); // the sum of 2i + 1
  if (!strcmp(pat, "pipeline"))
    return pipe_ref(n / 4);
  if (!strcmp(pat, "chain"))
    return chain_ref(n / 2);
  if (!strcmp(pat, "handler") || !strcmp(pat, "waits"))
    return hd_ref(n / 6);
  if (!strncmp(pat, "nest", 4))
    return nest_ref(n / 2, nest_depth_of(pat));
  if (!strncmp(pat, "server", 6))
    return srv_want; // summed by the client from what it sent
  uint64_t want = 0;
  unsigned tasks = ring_tasks(pat);
  for (unsigned k = 0; k < tasks; ++k)
    want += ring_expected(ring_same(pat) ? 0 : k % RING_FUNCTIONS,
                          n / tasks ? n / tasks : 1);
  return want;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 10000000);
  const char *pat = a.variant ? a.variant : "pingpong";
  static char workload[64];
  snprintf(workload, sizeof workload, "pat-%s", pat);
  bench_run r = bench_begin(workload, rt_name, a.n);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = 0;
    pat_switches = 0;
    uint64_t got = run(pat, a.n, &t0);
    bench_record(&r, pat_t1 - t0, pat_switches, got, expected(pat, a.n));
  }
  return bench_end(&r);
}
