// The shapes of effect_shapes.h on cacs/effect.h (libcacs's public API).
// SHAPE_IMPL names the build in the report: run.sh builds this file twice,
// as "cacs" (perform and resume entered by calls) and as "cacsjmp"
// (-fswitch-site-jumps: entered by jumps, SwitchSiteJump.cpp).

#define SHAPE_CALLS 1
#include "cacs/effect.h"
#include "effect_shapes.h"

CACS_EFFECT(get, int, int64_t);
CACS_EFFECT(put, int64_t, int);
CACS_EFFECT(tick, uint64_t, uint64_t);
CACS_EFFECT(other, int, int);
CACS_EFFECT(fail, int, int);
CACS_EFFECT(next, uint64_t, int);

static uint64_t count;

// --- state --------------------------------------------------------------

static void *stateful(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t v = CACS_PERFORM(get, 0);
    CACS_PERFORM(put, v + 1);
  }
  return NULL;
}

static uint64_t shape_state(uint64_t n) {
  count = n;
  cacs_effect_coro *k = cacs_effect_create(stateful, NULL, 0);
  int64_t value = 0;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(get, put), NULL);
  while (q.effect) {
    if (q.effect == &CACS_EFFECT_OF(get)) {
      q = cacs_effect_resume(k, CACS_HANDLES(get, put), &value);
    } else {
      value = *(int64_t *)q.payload;
      q = cacs_effect_resume(k, CACS_HANDLES(get, put), NULL);
    }
  }
  cacs_effect_destroy(k);
  return (uint64_t)value;
}

// The same loop, get and put answered by calls on the performer's stack
// (a tail-resumptive handler: no switch, no request).
static const void *get_call(void *payload, void *env) {
  (void)payload;
  return env; // &value
}
static const void *put_call(void *payload, void *env) {
  *(int64_t *)env = *(int64_t *)payload;
  return NULL;
}

static uint64_t shape_call_state(uint64_t n) {
  count = n;
  cacs_effect_coro *k = cacs_effect_create(stateful, NULL, 0);
  int64_t value = 0;
  cacs_effect_request q = cacs_effect_resume_with(
      k, NULL,
      CACS_CALLS(CACS_CALL(get, get_call, &value),
                 CACS_CALL(put, put_call, &value)),
      NULL);
  cacs_effect_destroy(k);
  return q.effect ? 0 : (uint64_t)value;
}

// --- handlers up ----------------------------------------------------------

static void *performer(void *arg) {
  (void)arg;
  uint64_t acc = 0;
  for (uint64_t i = 0; i < count; ++i)
    acc += CACS_PERFORM(tick, i);
  return (void *)(uintptr_t)acc;
}

// A handler of `other` around the next level down: `tick` passes over it.
static void *level(void *arg) {
  int below = (int)(intptr_t)arg;
  cacs_effect_coro *k =
      cacs_effect_create(below ? level : performer,
                         (void *)(intptr_t)(below - 1), 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(other), NULL);
  cacs_effect_destroy(k);
  return q.payload;
}

static uint64_t shape_up(int up, uint64_t n) {
  count = n;
  cacs_effect_coro *k =
      up == 1 ? cacs_effect_create(performer, NULL, 0)
              : cacs_effect_create(level, (void *)(intptr_t)(up - 2), 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(tick), NULL);
  while (q.effect) {
    uint64_t answer = *(uint64_t *)q.payload + 1;
    q = cacs_effect_resume(k, CACS_HANDLES(tick), &answer);
  }
  cacs_effect_destroy(k);
  return (uint64_t)(uintptr_t)q.payload;
}

// upK with tick answered by a call: the answer lives in the performer's
// frame of the call (the result pointer is read before the call returns).
static const void *tick_call(void *payload, void *env) {
  uint64_t *answer = env;
  *answer = *(uint64_t *)payload + 1;
  return answer;
}

static uint64_t shape_call_up(int up, uint64_t n) {
  count = n;
  cacs_effect_coro *k =
      up == 1 ? cacs_effect_create(performer, NULL, 0)
              : cacs_effect_create(level, (void *)(intptr_t)(up - 2), 0);
  uint64_t answer;
  cacs_effect_request q = cacs_effect_resume_with(
      k, NULL, CACS_CALLS(CACS_CALL(tick, tick_call, &answer)), NULL);
  cacs_effect_destroy(k);
  return q.effect ? 0 : (uint64_t)(uintptr_t)q.payload;
}

// --- throw ------------------------------------------------------------------

__attribute__((noinline)) static int deep(int left, int frames) {
  if (left == 0)
    return CACS_PERFORM(fail, frames);
  int r = deep(left - 1, frames);
  SHAPE_KEEP(r);
  return r + 1;
}

static void *thrower(void *arg) {
  int frames = (int)(intptr_t)arg;
  return (void *)(intptr_t)deep(frames, frames);
}

static uint64_t shape_throw(int frames, uint64_t n) {
  uint64_t caught = 0;
  for (uint64_t i = 0; i < n; ++i) {
    cacs_effect_coro *k =
        cacs_effect_create(thrower, (void *)(intptr_t)frames, 0);
    cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(fail), NULL);
    if (q.effect == &CACS_EFFECT_OF(fail))
      caught += (uint64_t)*(int *)q.payload;
    cacs_effect_destroy(k); // not resumed: the throw
  }
  return caught;
}

// --- generator --------------------------------------------------------------

static void *numbers(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < count; ++i)
    CACS_PERFORM(next, i);
  return NULL;
}

static uint64_t shape_generator(uint64_t n) {
  count = n;
  cacs_effect_coro *k = cacs_effect_create(numbers, NULL, 0);
  uint64_t sum = 0;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(next), NULL);
  while (q.effect) {
    sum += *(uint64_t *)q.payload;
    q = cacs_effect_resume(k, CACS_HANDLES(next), NULL);
  }
  cacs_effect_destroy(k);
  return sum;
}

// --- skynet -----------------------------------------------------------------

CACS_EFFECT(leaf, int64_t, int);
static int64_t last_layer;
static cacs_effect *const handles_nothing[] = {NULL};

static void *skynet(void *arg) {
  int64_t num = (int64_t)(intptr_t)arg;
  if (num >= last_layer) {
    CACS_PERFORM(leaf, num - last_layer);
    return NULL;
  }
  num *= 10;
  cacs_effect_coro *kids[10];
  for (int i = 0; i < 10; ++i)
    kids[i] = cacs_effect_create(skynet, (void *)(intptr_t)(num + i), 0);
  // A leaf's perform passes over this node to the root's handler; the
  // child has returned when its resume comes back.
  for (int i = 0; i < 10; ++i)
    while (!cacs_effect_done(kids[i]))
      cacs_effect_resume(kids[i], handles_nothing, NULL);
  for (int i = 0; i < 10; ++i)
    cacs_effect_destroy(kids[i]);
  return NULL;
}

static uint64_t shape_skynet(uint64_t leaves) {
  last_layer = (int64_t)leaves;
  cacs_effect_coro *root = cacs_effect_create(skynet, (void *)(intptr_t)1, 0);
  uint64_t total = 0;
  cacs_effect_request q = cacs_effect_resume(root, CACS_HANDLES(leaf), NULL);
  while (q.effect) {
    total += (uint64_t)(*(int64_t *)q.payload);
    q = cacs_effect_resume(root, CACS_HANDLES(leaf), NULL);
  }
  cacs_effect_destroy(root);
  return total;
}

// --- idle -------------------------------------------------------------------

CACS_EFFECT(park, int, int);

static void *idler(void *arg) {
  (void)arg;
  CACS_PERFORM(park, 0);
  return NULL;
}

static uint64_t shape_idle(uint64_t n, uint64_t *rss_bytes) {
  cacs_effect_coro **ks = malloc(n * sizeof *ks);
  uint64_t got = 0;
  long before = vm_rss_kib();
  for (uint64_t i = 0; i < n; ++i) {
    ks[i] = cacs_effect_create(idler, NULL, 0);
    cacs_effect_request q = cacs_effect_resume(ks[i], CACS_HANDLES(park), NULL);
    got += q.effect == &CACS_EFFECT_OF(park);
  }
  *rss_bytes = (uint64_t)(vm_rss_kib() - before) * 1024;
  for (uint64_t i = 0; i < n; ++i)
    cacs_effect_destroy(ks[i]);
  free(ks);
  return got;
}

#ifndef SHAPE_IMPL
#define SHAPE_IMPL "cacs"
#endif

int main(int argc, char **argv) {
  return shape_main(argc, argv, SHAPE_IMPL);
}
