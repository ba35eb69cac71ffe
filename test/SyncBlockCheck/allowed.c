// What a sync block allows at run time is no error at compile time: the
// I/O waits of cacs/io.h (they block the thread inside a block), directly
// or through a local function, an effect resume (a nested coroutine that
// comes back to the block; cacs_effect_resume_with too) and a generator's resume (an inline switch).
// The same entries libcacs lets through, by one mark on their declarations
// (cacs/detail/contract.h).
//
// RUN: %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
// RUN: %clang -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
// RUN: %clang %aarch64_flags -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
// RUN: %clang %aarch64_flags -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
#include "cacs/effect.h"
#include "cacs/generator.h"
#include "cacs/io.h"
#include "cacs/syncblock.h"

CACS_EFFECT(next, int, int);

__attribute__((noinline)) static ssize_t fill(int fd, char *buf, size_t n) {
  return cacs_read(fd, buf, n, CACS_FOREVER);
}

ssize_t echo(int fd, int lfd, char *buf, size_t n) {
  ssize_t r = 0;
  CACS_SYNC {
    if (cacs_wait_fd(fd, EPOLLIN, 1000) == 0)
      r = fill(fd, buf, n);
    if (r > 0)
      r = cacs_write_all(fd, buf, (size_t)r, CACS_FOREVER);
    int c = cacs_accept(lfd, NULL, NULL, 1000);
    if (c >= 0)
      r += cacs_send(c, buf, n, 0, 1000);
  }
  return r;
}

int sum_effects(cacs_effect_coro *k) {
  int s = 0;
  CACS_SYNC {
    cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(next), NULL);
    for (; q.effect; q = cacs_effect_resume(k, CACS_HANDLES(next), NULL))
      s += *(int *)q.payload;
  }
  return s;
}

// The resume with call handlers: the same mark.
static const void *answer(void *payload, void *env) {
  (void)payload;
  return env;
}
int sum_effects_with_calls(cacs_effect_coro *k, int *v) {
  int s = 0;
  CACS_SYNC {
    cacs_effect_request q = cacs_effect_resume_with(
        k, CACS_HANDLES(next), CACS_CALLS(CACS_CALL(next, answer, v)), NULL);
    if (q.effect)
      s += *(int *)q.payload;
  }
  return s;
}

uint64_t sum_generator(cacs_gen *g) {
  uint64_t s = 0, v;
  CACS_SYNC {
    while (cacs_gen_next(g, &v))
      s += v;
  }
  return s;
}
