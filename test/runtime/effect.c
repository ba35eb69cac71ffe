// Effect handlers (cacs/effect.h): the scenarios of libseff's own tests,
// written anew: flat and nested effects, an effect going to the enclosing
// handler over many handlers, a coroutine resumed under another handler
// stack, system calls from coroutines, deep returns, throw (the stack and
// the coroutines suspended with it released), generators, actors, a
// scheduler with async I/O written as handlers, default handlers, ids
// past 64, and a CACS_HANDLES set used after the function that made it
// returned. Argument: a scale (1: quick, for valgrind).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 4 | FileCheck %s
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 4 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 4 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 4 | FileCheck %s
// Stock clang: the calls go through the default-convention symbols (with
// LLVM 19) or bind to the entries (22); the tail switches land in those.
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts 4 | FileCheck %s
//
// CHECK: flat: {{[0-9]+}} ok
// CHECK-NEXT: nested: ok
// CHECK-NEXT: up 10: ok
// CHECK-NEXT: rehandled: ok
// CHECK-NEXT: shallow: ok
// CHECK-NEXT: syscalls: ok
// CHECK-NEXT: deep return: ok
// CHECK-NEXT: throw: ok
// CHECK-NEXT: generator: ok
// CHECK-NEXT: actors: ok
// CHECK-NEXT: async io: ok
// CHECK-NEXT: default: ok
// CHECK-NEXT: many effects: ok
// CHECK-NEXT: static sets: ok
// CHECK-NEXT: PASS
// SMALL: flat: 1000 ok
// SMALL: many effects: ok
// SMALL-NEXT: static sets: ok
// SMALL-NEXT: PASS

#include "cacs/effect.h"
#include "cacs/stack.h"
#include "Inputs/effect-many.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;
static int scale = 1;

static void report(const char *what, int ok) {
  failures += !ok;
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
}

// --- flat: mutable state as two effects -------------------------------------
CACS_EFFECT(get, int, long);
CACS_EFFECT(put, long, int);

static void *counter(void *arg) {
  long n = (long)(intptr_t)arg;
  for (long i = 0; i < n; ++i)
    CACS_PERFORM(put, CACS_PERFORM(get, 0) + 1);
  return (void *)(intptr_t)CACS_PERFORM(get, 0);
}

// Runs `k` with get/put over the state *s until it returns.
static void *run_state(cacs_effect_coro *k, long *s) {
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(get, put), NULL);
  for (;;) {
    if (q.effect == &CACS_EFFECT_OF(get))
      q = cacs_effect_resume(k, CACS_HANDLES(get, put), s);
    else if (q.effect == &CACS_EFFECT_OF(put)) {
      *s = *(long *)q.payload;
      q = cacs_effect_resume(k, CACS_HANDLES(get, put), NULL);
    } else
      return q.payload;
  }
}

static void test_flat(void) {
  long s = 0, n = 1000 * scale;
  cacs_effect_coro *k = cacs_effect_create(counter, (void *)(intptr_t)n, 0);
  void *r = run_state(k, &s);
  int ok = s == n && (long)(intptr_t)r == n && cacs_effect_done(k);
  failures += !ok;
  printf("flat: %ld %s\n", s, ok ? "ok" : "WRONG");
  cacs_effect_destroy(k);
}

// --- nested: the inner handler handles `get`, `log` goes to the outer -----
CACS_EFFECT(log, int, int);

static void *inner_body(void *arg) {
  (void)arg;
  long sum = 0;
  for (int i = 0; i < 10; ++i) {
    sum += CACS_PERFORM(get, 0);
    CACS_PERFORM(log, i);
  }
  return (void *)(intptr_t)sum;
}

// Middle coroutine: handles `get` for inner_body with the value 7.
static void *middle_body(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(inner_body, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(get), NULL);
  while (q.effect) {
    // The handler performs the effect it handles: to the outer handler,
    // not to the coroutine whose request it holds.
    long seven = CACS_PERFORM(get, 0) + 7;
    q = cacs_effect_resume(k, CACS_HANDLES(get), &seven);
  }
  cacs_effect_destroy(k);
  CACS_PERFORM(log, 100);
  return q.payload;
}

static void test_nested(void) {
  cacs_effect_coro *m = cacs_effect_create(middle_body, NULL, 0);
  int logged[16], n = 0, gets = 0;
  long zero = 0;
  cacs_effect_request q = cacs_effect_resume(m, CACS_HANDLES(log, get), NULL);
  while (q.effect) {
    if (q.effect == &CACS_EFFECT_OF(get)) {
      ++gets;
      q = cacs_effect_resume(m, CACS_HANDLES(log, get), &zero);
      continue;
    }
    if (n < 16)
      logged[n++] = *(int *)q.payload;
    q = cacs_effect_resume(m, CACS_HANDLES(log, get), NULL);
  }
  int ok = q.effect == NULL && (long)(intptr_t)q.payload == 70 && n == 11 &&
           logged[10] == 100 && gets == 10;
  for (int i = 0; i < 10 && ok; ++i)
    ok = logged[i] == i;
  report("nested", ok);
  cacs_effect_destroy(m);
}

// --- up 10: 10 handlers of other effects between performer and handler -----
CACS_EFFECT(noise, int, int);
CACS_EFFECT(ping, int, int);

static void *chain_body(void *arg) {
  int depth = (int)(intptr_t)arg;
  if (depth == 0) {
    int acc = 0;
    for (int i = 0; i < 100; ++i)
      acc += CACS_PERFORM(ping, i);
    return (void *)(intptr_t)acc;
  }
  // A handler of `noise`, which nobody performs: `ping` passes over it.
  cacs_effect_coro *k =
      cacs_effect_create(chain_body, (void *)(intptr_t)(depth - 1), 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(noise), NULL);
  void *r = q.payload;
  int ok = q.effect == NULL && cacs_effect_done(k);
  cacs_effect_destroy(k);
  return ok ? r : (void *)(intptr_t)-1;
}

static void test_up10(void) {
  cacs_effect_coro *k = cacs_effect_create(chain_body, (void *)(intptr_t)10, 0);
  int seen = 0, ok = 1;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ping), NULL);
  while (q.effect == &CACS_EFFECT_OF(ping)) {
    int v = *(int *)q.payload;
    ok &= v == seen++;
    int twice = 2 * v;
    q = cacs_effect_resume(k, CACS_HANDLES(ping), &twice);
  }
  ok &= seen == 100 && (int)(intptr_t)q.payload == 2 * 99 * 100 / 2;
  report("up 10", ok);
  cacs_effect_destroy(k);
}

// --- rehandled: a coroutine resumed under another handler stack -----------
static void *asks_log(void *arg) {
  (void)arg;
  int a = CACS_PERFORM(ping, 1); // suspended here, resumed elsewhere
  int b = CACS_PERFORM(log, 2);  // goes to the new resumer's enclosing one
  return (void *)(intptr_t)(a * 10 + b);
}

static cacs_effect_coro *parked;

static void *rehandler(void *arg) {
  (void)arg;
  int five = 5;
  // Resume the coroutine suspended under main with `ping`, now under us.
  cacs_effect_request q =
      cacs_effect_resume(parked, CACS_HANDLES(ping), &five);
  return q.effect == NULL ? q.payload : (void *)(intptr_t)-1;
}

static void test_rehandled(void) {
  parked = cacs_effect_create(asks_log, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(parked, CACS_HANDLES(ping), NULL);
  int ok = q.effect == &CACS_EFFECT_OF(ping) && *(int *)q.payload == 1;
  cacs_effect_coro *h = cacs_effect_create(rehandler, NULL, 0);
  q = cacs_effect_resume(h, CACS_HANDLES(log), NULL);
  // `log` went past rehandler's handler of `ping` to us, two levels up.
  ok &= q.effect == &CACS_EFFECT_OF(log) && *(int *)q.payload == 2;
  int three = 3;
  q = cacs_effect_resume(h, CACS_HANDLES(log), &three);
  ok &= q.effect == NULL && (int)(intptr_t)q.payload == 53;
  report("rehandled", ok);
  cacs_effect_destroy(h);
  cacs_effect_destroy(parked);
}

// --- shallow: a handler that resumes with another set ----------------------
static void *pings_twice(void *arg) {
  (void)arg;
  return (void *)(intptr_t)(CACS_PERFORM(ping, 1) + CACS_PERFORM(ping, 2));
}

static void *narrows(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(pings_twice, NULL, 0);
  int ten = 10;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ping, log), NULL);
  int ok = q.effect == &CACS_EFFECT_OF(ping) && *(int *)q.payload == 1;
  // Without `ping` now: its second ping goes past us, to main.
  q = cacs_effect_resume(k, CACS_HANDLES(log), &ten);
  ok &= q.effect == NULL;
  void *r = q.payload;
  cacs_effect_destroy(k);
  return ok ? r : (void *)(intptr_t)-1;
}

static void *logs_then_pings(void *arg) {
  (void)arg;
  int a = CACS_PERFORM(log, 4);
  return (void *)(intptr_t)(a + CACS_PERFORM(ping, 5));
}

// And widening: resumed with {log} after its log, then with {log, ping}
// (a set that starts like the one its request came under): its ping comes
// here, not to main.
static void *widens(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(logs_then_pings, NULL, 0);
  int one = 1, two = 2;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(log), NULL);
  int ok = q.effect == &CACS_EFFECT_OF(log) && *(int *)q.payload == 4;
  q = cacs_effect_resume(k, CACS_HANDLES(log, ping), &one);
  ok &= q.effect == &CACS_EFFECT_OF(ping) && *(int *)q.payload == 5;
  q = cacs_effect_resume(k, CACS_HANDLES(log, ping), &two);
  ok &= q.effect == NULL;
  void *r = q.payload;
  cacs_effect_destroy(k);
  return ok ? r : (void *)(intptr_t)-1;
}

// And narrowing to a set that starts like the one its request came under:
// resumed with {log, ping} up to its log, then with {log}: its ping goes
// past us, to main.
static void *narrows_tail(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(logs_then_pings, NULL, 0);
  int one = 1;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(log, ping), NULL);
  int ok = q.effect == &CACS_EFFECT_OF(log) && *(int *)q.payload == 4;
  q = cacs_effect_resume(k, CACS_HANDLES(log), &one);
  ok &= q.effect == NULL;
  void *r = q.payload;
  cacs_effect_destroy(k);
  return ok ? r : (void *)(intptr_t)-1;
}

static void test_shallow(void) {
  cacs_effect_coro *o = cacs_effect_create(narrows, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(o, CACS_HANDLES(ping), NULL);
  int ok = q.effect == &CACS_EFFECT_OF(ping) && *(int *)q.payload == 2;
  int hundred = 100;
  q = cacs_effect_resume(o, CACS_HANDLES(ping), &hundred);
  ok &= q.effect == NULL && (int)(intptr_t)q.payload == 110;
  cacs_effect_destroy(o);
  o = cacs_effect_create(widens, NULL, 0);
  q = cacs_effect_resume(o, CACS_HANDLES(ping), NULL);
  ok &= q.effect == NULL && (int)(intptr_t)q.payload == 3;
  cacs_effect_destroy(o);
  o = cacs_effect_create(narrows_tail, NULL, 0);
  q = cacs_effect_resume(o, CACS_HANDLES(ping), NULL);
  ok &= q.effect == &CACS_EFFECT_OF(ping) && *(int *)q.payload == 5;
  q = cacs_effect_resume(o, CACS_HANDLES(ping), &hundred);
  ok &= q.effect == NULL && (int)(intptr_t)q.payload == 101;
  report("shallow", ok);
  cacs_effect_destroy(o);
}

// --- system calls from coroutines --------------------------------------------
CACS_EFFECT(yield, int, int);

static void *syscaller(void *arg) {
  int *fds = (int *)arg;
  char buf[64];
  for (int i = 0; i < 50; ++i) {
    int n = snprintf(buf, sizeof buf, "msg %d pid %d", i, (int)getpid());
    if (write(fds[1], buf, (size_t)n) != n)
      return (void *)1;
    CACS_PERFORM(yield, 0);
    char in[64];
    ssize_t got = read(fds[0], in, sizeof in);
    if (got != n || memcmp(in, buf, (size_t)n) != 0)
      return (void *)2;
  }
  return NULL;
}

static void test_syscalls(void) {
  int fds[2];
  if (pipe(fds) != 0) {
    report("syscalls", 0);
    return;
  }
  cacs_effect_coro *k = cacs_effect_create(syscaller, fds, 0);
  cacs_effect_request q;
  int rounds = 0;
  do {
    q = cacs_effect_resume(k, CACS_HANDLES(yield), NULL);
    ++rounds;
  } while (q.effect);
  report("syscalls", q.payload == NULL && rounds == 51);
  cacs_effect_destroy(k);
  close(fds[0]);
  close(fds[1]);
}

// --- deep return ----------------------------------------------------------
static long deep(int n) {
  if (n == 0)
    return CACS_PERFORM(get, 0);
  volatile char pad[64];
  pad[0] = (char)n;
  return deep(n - 1) + 1 + pad[0] - (char)n;
}

static void *deep_body(void *arg) {
  return (void *)(intptr_t)deep((int)(intptr_t)arg);
}

static void test_deep_return(void) {
  cacs_effect_coro *k =
      cacs_effect_create(deep_body, (void *)(intptr_t)2000, 1024 * 1024);
  long s = 40;
  void *r = run_state(k, &s);
  report("deep return", (long)(intptr_t)r == 2040);
  cacs_effect_destroy(k);
}

// --- throw: the handler never resumes --------------------------------------
CACS_EFFECT(error, int, int);

static void *thrower(void *arg) {
  int depth = (int)(intptr_t)arg;
  if (depth > 0) { // the throw goes over one handler of `noise`
    cacs_effect_coro *k =
        cacs_effect_create(thrower, (void *)(intptr_t)(depth - 1), 0);
    cacs_effect_resume(k, CACS_HANDLES(noise), NULL);
    return (void *)1; // never: the throw abandons this frame
  }
  CACS_PERFORM(error, 42);
  return (void *)2; // never
}

static void test_throw(void) {
  int ok = 1;
  size_t pooled = cacs_stack_pool_count();
  for (int i = 0; i < 200 * scale; ++i) {
    cacs_effect_coro *k = cacs_effect_create(thrower, (void *)(intptr_t)(i % 3), 0);
    cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(error), NULL);
    ok &= q.effect == &CACS_EFFECT_OF(error) && *(int *)q.payload == 42;
    cacs_effect_destroy(k); // with the coroutines suspended inside it
  }
  // Every stack came back to the thread's pool: the three of the deepest
  // throw at least, and none of those there before was kept.
  size_t now = cacs_stack_pool_count();
  ok &= now >= pooled && now >= 3;
  report("throw", ok);
}

// --- generator: in-order walk of a tree, from recursion --------------------
struct node {
  int v;
  struct node *l, *r;
};

static void walk(struct node *n) {
  if (!n)
    return;
  walk(n->l);
  CACS_PERFORM(yield, n->v);
  walk(n->r);
}

static void *walker(void *arg) {
  walk((struct node *)arg);
  return NULL;
}

static struct node *build(int lo, int hi, struct node *pool, int *used) {
  if (lo > hi)
    return NULL;
  int mid = lo + (hi - lo) / 2;
  struct node *n = &pool[(*used)++];
  n->v = mid;
  n->l = build(lo, mid - 1, pool, used);
  n->r = build(mid + 1, hi, pool, used);
  return n;
}

static void test_generator(void) {
  enum { N = 1023 };
  static struct node pool[N];
  int used = 0;
  struct node *root = build(0, N - 1, pool, &used);
  cacs_effect_coro *k = cacs_effect_create(walker, root, 0);
  int expect = 0, ok = 1;
  for (cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(yield), NULL);
       q.effect; q = cacs_effect_resume(k, CACS_HANDLES(yield), NULL))
    ok &= *(int *)q.payload == expect++;
  report("generator", ok && expect == N);
  cacs_effect_destroy(k);
}

// --- actors: mailboxes and a round-robin scheduler as handlers -------------
CACS_EFFECT(send, struct msg, int);
CACS_EFFECT(recv, int, struct msg);
struct msg {
  int to, value;
};

enum { NACTORS = 4 };

static void *actor(void *arg) {
  int self = (int)(intptr_t)arg, total = 0;
  if (self == 0)
    CACS_PERFORM(send, .to = 1, .value = 1);
  for (;;) {
    struct msg m = CACS_PERFORM(recv, self);
    if (m.value < 0)
      return (void *)(intptr_t)total;
    total += m.value;
    // Pass the token on, growing, until 100: then stop everyone.
    if (m.value >= 100)
      for (int i = 0; i < NACTORS; ++i)
        CACS_PERFORM(send, .to = i, .value = -1);
    else
      CACS_PERFORM(send, .to = (self + 1) % NACTORS, .value = m.value + 1);
  }
}

static void test_actors(void) {
  cacs_effect_coro *a[NACTORS];
  struct msg box[NACTORS][8];
  int nbox[NACTORS] = {0}, blocked[NACTORS] = {0}, alive = NACTORS;
  int totals = 0;
  cacs_effect_request q[NACTORS];
  for (int i = 0; i < NACTORS; ++i) {
    a[i] = cacs_effect_create(actor, (void *)(intptr_t)i, 0);
    q[i] = cacs_effect_resume(a[i], CACS_HANDLES(send, recv), NULL);
  }
  while (alive) {
    int progress = 0;
    for (int i = 0; i < NACTORS; ++i) {
      if (cacs_effect_done(a[i]))
        continue;
      if (q[i].effect == &CACS_EFFECT_OF(send)) {
        struct msg *m = q[i].payload;
        box[m->to][nbox[m->to]++] = *m;
        q[i] = cacs_effect_resume(a[i], CACS_HANDLES(send, recv), NULL);
        progress = 1;
      } else if (q[i].effect == &CACS_EFFECT_OF(recv)) {
        blocked[i] = nbox[i] == 0;
        if (blocked[i])
          continue;
        struct msg m = box[i][0];
        memmove(box[i], box[i] + 1, --nbox[i] * sizeof m);
        q[i] = cacs_effect_resume(a[i], CACS_HANDLES(send, recv), &m);
        progress = 1;
      }
      if (cacs_effect_done(a[i])) {
        totals += (int)(intptr_t)q[i].payload;
        --alive;
      }
    }
    if (!progress)
      break;
  }
  report("actors", alive == 0 && totals == 100 * 101 / 2);
  for (int i = 0; i < NACTORS; ++i)
    cacs_effect_destroy(a[i]);
}

// --- async I/O: a scheduler of tasks that await readiness ------------------
CACS_EFFECT(await_readable, int, int);

static void *pipe_reader(void *arg) {
  int fd = (int)(intptr_t)arg;
  long sum = 0;
  for (;;) {
    CACS_PERFORM(await_readable, fd);
    char c;
    if (read(fd, &c, 1) != 1)
      return (void *)(intptr_t)sum;
    sum += c;
  }
}

static void *pipe_writer(void *arg) {
  int fd = (int)(intptr_t)arg;
  for (char c = 1; c <= 20; ++c) {
    if (write(fd, &c, 1) != 1)
      return (void *)-1;
    CACS_PERFORM(yield, 0); // let the reader run
  }
  close(fd);
  return NULL;
}

static void test_async_io(void) {
  int fds[2];
  if (pipe(fds) != 0) {
    report("async io", 0);
    return;
  }
  cacs_effect_coro *t[2] = {
      cacs_effect_create(pipe_reader, (void *)(intptr_t)fds[0], 0),
      cacs_effect_create(pipe_writer, (void *)(intptr_t)fds[1], 0)};
  int waiting_fd[2] = {-1, -1}, live = 2;
  void *results[2] = {0, 0};
  while (live) {
    for (int i = 0; i < 2; ++i) {
      if (cacs_effect_done(t[i]))
        continue;
      if (waiting_fd[i] >= 0) { // the scheduler's poll, per task
        struct pollfd p = {.fd = waiting_fd[i], .events = POLLIN};
        if (poll(&p, 1, 0) != 1)
          continue;
      }
      cacs_effect_request q =
          cacs_effect_resume(t[i], CACS_HANDLES(await_readable, yield), NULL);
      waiting_fd[i] = q.effect == &CACS_EFFECT_OF(await_readable)
                          ? *(int *)q.payload
                          : -1;
      if (!q.effect) {
        results[i] = q.payload;
        --live;
      }
    }
  }
  report("async io", (long)(intptr_t)results[0] == 210 && results[1] == NULL);
  for (int i = 0; i < 2; ++i)
    cacs_effect_destroy(t[i]);
  close(fds[0]);
}

// --- default handlers ---------------------------------------------------------
CACS_EFFECT(env, const char *, long);

static const void *env_default(void *payload) {
  static long v;
  v = (long)strlen(*(const char **)payload);
  return &v;
}

static void *env_user(void *arg) {
  (void)arg;
  long a = CACS_PERFORM(env, "abc"); // handled by main: 100
  long b = CACS_PERFORM(yield, 0);   // a generator step
  (void)b;
  return (void *)(intptr_t)a;
}

static void test_default(void) {
  cacs_effect_set_default(&CACS_EFFECT_OF(env), env_default);
  // Outside any coroutine: the default handler, on the caller's stack.
  long d = CACS_PERFORM(env, "hello");
  cacs_effect_coro *k = cacs_effect_create(env_user, NULL, 0);
  long hundred = 100;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(env, yield), NULL);
  int ok = q.effect == &CACS_EFFECT_OF(env);
  q = cacs_effect_resume(k, CACS_HANDLES(env, yield), &hundred);
  ok &= q.effect == &CACS_EFFECT_OF(yield);
  q = cacs_effect_resume(k, CACS_HANDLES(env, yield), NULL);
  ok &= q.effect == NULL && (long)(intptr_t)q.payload == 100;
  report("default", ok && d == 5);
  cacs_effect_destroy(k);
}

// --- more than 64 effects -----------------------------------------------------
CACS_EFFECTS_10(m0);
CACS_EFFECTS_10(m1);
CACS_EFFECTS_10(m2);
CACS_EFFECTS_10(m3);
CACS_EFFECTS_10(m4);
CACS_EFFECTS_10(m5);
CACS_EFFECTS_10(m6);
CACS_EFFECTS_10(m7);

static void *many_body(void *arg) {
  (void)arg;
  return (void *)(intptr_t)(CACS_PERFORM(m79, 1) + CACS_PERFORM(m00, 2));
}

static void test_many(void) {
  // Number 80 effects in order, so that m79's id is past 64.
  static cacs_effect *all[] = {
      CACS_EFFECTS_10_ADDRS(m0), CACS_EFFECTS_10_ADDRS(m1),
      CACS_EFFECTS_10_ADDRS(m2), CACS_EFFECTS_10_ADDRS(m3),
      CACS_EFFECTS_10_ADDRS(m4), CACS_EFFECTS_10_ADDRS(m5),
      CACS_EFFECTS_10_ADDRS(m6), CACS_EFFECTS_10_ADDRS(m7), NULL};
  cacs_effect_coro *k = cacs_effect_create(many_body, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(k, all, NULL);
  int ok = q.effect == &CACS_EFFECT_OF(m79) && CACS_EFFECT_OF(m79).id > 64;
  int r = 10;
  q = cacs_effect_resume(k, all, &r);
  ok &= q.effect == &CACS_EFFECT_OF(m00);
  r = 20;
  q = cacs_effect_resume(k, all, &r);
  ok &= q.effect == NULL && (int)(intptr_t)q.payload == 30;
  report("many effects", ok);
  cacs_effect_destroy(k);
}

// --- static sets: CACS_HANDLES lives for the program -------------------------
// The set of get and put, made in a function that returns it: a handler
// may keep a set past the block that made it (cacs/effect.h). A set in
// that function's frame would be zeros after clobber() wrote over it: an
// empty set, and the first get would find no handler.
__attribute__((noinline)) static cacs_effect *const *state_set(void) {
  return CACS_HANDLES(get, put);
}

__attribute__((noinline)) static void clobber(void) {
  volatile char junk[4096];
  for (size_t i = 0; i < sizeof junk; ++i)
    junk[i] = 0;
}

static void test_static_sets(void) {
  cacs_effect *const *set = state_set();
  clobber();
  cacs_effect_coro *k = cacs_effect_create(counter, (void *)(intptr_t)10, 0);
  long s = 0;
  cacs_effect_request q = cacs_effect_resume(k, set, NULL);
  // 21 requests: a wrong set must not loop forever.
  for (int n = 0; q.effect && n < 21; ++n) {
    if (q.effect == &CACS_EFFECT_OF(put))
      s = *(long *)q.payload;
    clobber();
    q = cacs_effect_resume(k, set,
                           q.effect == &CACS_EFFECT_OF(get) ? &s : NULL);
  }
  report("static sets", !q.effect && s == 10 &&
                            (long)(intptr_t)q.payload == 10 &&
                            set == state_set());
  cacs_effect_destroy(k);
}

int main(int argc, char **argv) {
  if (argc > 1)
    scale = atoi(argv[1]);
  test_flat();
  test_nested();
  test_up10();
  test_rehandled();
  test_shallow();
  test_syscalls();
  test_deep_return();
  test_throw();
  test_generator();
  test_actors();
  test_async_io();
  test_default();
  test_many();
  test_static_sets();
  if (failures)
    printf("FAIL: %d\n", failures);
  else
    printf("PASS\n");
  return failures != 0;
}
