// The shapes of effect_shapes.h on libseff (the peer; its public API,
// seff.h), built by run.sh against a libseff tree the user gives. Not
// built otherwise: libseff is neither packaged nor kept here.

#include "effect_shapes.h"
#include "seff.h"

DEFINE_EFFECT(get, 0, int64_t, {});
DEFINE_EFFECT(put, 1, void, { int64_t value; });
DEFINE_EFFECT(tick, 2, uint64_t, { uint64_t i; });
DEFINE_EFFECT(other, 3, void, {});
DEFINE_EFFECT(fail, 4, void, { int frames; });
DEFINE_EFFECT(next, 5, void, { uint64_t i; });

static uint64_t count;

// --- state --------------------------------------------------------------

static void *stateful(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t v = PERFORM(get);
    PERFORM(put, v + 1);
  }
  return NULL;
}

static uint64_t shape_state(uint64_t n) {
  count = n;
  seff_coroutine_t *k = seff_coroutine_new(stateful, NULL);
  int64_t value = 0;
  effect_set h = HANDLES(get) | HANDLES(put);
  seff_request_t q = seff_resume(k, NULL, h);
  while (!seff_finished(q)) {
    if (q.effect == EFF_ID(get)) {
      q = seff_resume(k, (void *)(intptr_t)value, h);
    } else {
      value = ((EFF_PAYLOAD_T(put) *)q.payload)->value;
      q = seff_resume(k, NULL, h);
    }
  }
  seff_coroutine_delete(k);
  return (uint64_t)value;
}

// --- handlers up ----------------------------------------------------------

static void *performer(void *arg) {
  (void)arg;
  uint64_t acc = 0;
  for (uint64_t i = 0; i < count; ++i)
    acc += PERFORM(tick, i);
  return (void *)(uintptr_t)acc;
}

// A handler of `other` around the next level down: `tick` passes over it.
static void *level(void *arg) {
  int below = (int)(intptr_t)arg;
  seff_coroutine_t *k = seff_coroutine_new(below ? level : performer,
                                           (void *)(intptr_t)(below - 1));
  seff_request_t q = seff_resume(k, NULL, HANDLES(other));
  seff_coroutine_delete(k);
  return q.payload;
}

static uint64_t shape_up(int up, uint64_t n) {
  count = n;
  seff_coroutine_t *k =
      up == 1 ? seff_coroutine_new(performer, NULL)
              : seff_coroutine_new(level, (void *)(intptr_t)(up - 2));
  seff_request_t q = seff_resume(k, NULL, HANDLES(tick));
  while (!seff_finished(q)) {
    uint64_t answer = ((EFF_PAYLOAD_T(tick) *)q.payload)->i + 1;
    q = seff_resume(k, (void *)(uintptr_t)answer, HANDLES(tick));
  }
  seff_coroutine_delete(k);
  return (uint64_t)(uintptr_t)q.payload;
}

// --- throw ------------------------------------------------------------------

__attribute__((noinline)) static int deep(int left, int frames) {
  if (left == 0)
    THROW(fail, frames);
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
    seff_coroutine_t *k = seff_coroutine_new(thrower, (void *)(intptr_t)frames);
    seff_request_t q = seff_resume(k, NULL, HANDLES(fail));
    if (q.effect == EFF_ID(fail))
      caught += (uint64_t)((EFF_PAYLOAD_T(fail) *)q.payload)->frames;
    seff_coroutine_delete(k); // not resumed: the throw
  }
  return caught;
}

// --- generator --------------------------------------------------------------

static void *numbers(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < count; ++i)
    PERFORM(next, i);
  return NULL;
}

static uint64_t shape_generator(uint64_t n) {
  count = n;
  seff_coroutine_t *k = seff_coroutine_new(numbers, NULL);
  uint64_t sum = 0;
  seff_request_t q = seff_resume(k, NULL, HANDLES(next));
  while (!seff_finished(q)) {
    sum += ((EFF_PAYLOAD_T(next) *)q.payload)->i;
    q = seff_resume(k, NULL, HANDLES(next));
  }
  seff_coroutine_delete(k);
  return sum;
}

// --- skynet -----------------------------------------------------------------

DEFINE_EFFECT(leaf, 6, void, { int64_t value; });
static int64_t last_layer;

// Creation and deletion inside a coroutine run on the system stack (its
// macro), as libseff's own skynet_bench does: its segmented stacks start
// small.
MAKE_SYSCALL_WRAPPER(seff_coroutine_t *, seff_coroutine_new, seff_start_fun_t *,
                     void *);
MAKE_SYSCALL_WRAPPER(void, seff_coroutine_delete, seff_coroutine_t *);

static void *skynet(void *arg) {
  int64_t num = (int64_t)(intptr_t)arg;
  if (num >= last_layer) {
    PERFORM(leaf, num - last_layer);
    return NULL;
  }
  num *= 10;
  seff_coroutine_t *kids[10];
  for (int i = 0; i < 10; ++i)
    kids[i] =
        seff_coroutine_new_syscall_wrapper(skynet, (void *)(intptr_t)(num + i));
  for (int i = 0; i < 10; ++i)
    while (kids[i]->state != FINISHED)
      seff_resume(kids[i], NULL, 0);
  for (int i = 0; i < 10; ++i)
    seff_coroutine_delete_syscall_wrapper(kids[i]);
  return NULL;
}

static uint64_t shape_skynet(uint64_t leaves) {
  last_layer = (int64_t)leaves;
  seff_coroutine_t *root = seff_coroutine_new(skynet, (void *)(intptr_t)1);
  uint64_t total = 0;
  seff_request_t q = seff_resume(root, NULL, HANDLES(leaf));
  while (!seff_finished(q)) {
    total += (uint64_t)((EFF_PAYLOAD_T(leaf) *)q.payload)->value;
    q = seff_resume(root, NULL, HANDLES(leaf));
  }
  seff_coroutine_delete(root);
  return total;
}

// --- idle -------------------------------------------------------------------

DEFINE_EFFECT(park, 7, void, {});

static void *idler(void *arg) {
  (void)arg;
  PERFORM(park);
  return NULL;
}

static uint64_t shape_idle(uint64_t n, uint64_t *rss_bytes) {
  seff_coroutine_t **ks = malloc(n * sizeof *ks);
  uint64_t got = 0;
  long before = vm_rss_kib();
  for (uint64_t i = 0; i < n; ++i) {
    ks[i] = seff_coroutine_new(idler, NULL);
    seff_request_t q = seff_resume(ks[i], NULL, HANDLES(park));
    got += q.effect == EFF_ID(park);
  }
  *rss_bytes = (uint64_t)(vm_rss_kib() - before) * 1024;
  for (uint64_t i = 0; i < n; ++i)
    seff_coroutine_delete(ks[i]);
  free(ks);
  return got;
}

int main(int argc, char **argv) { return shape_main(argc, argv, "libseff"); }
