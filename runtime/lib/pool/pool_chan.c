//===- lib/pool/pool_chan.c - The pool's bounded channel ------------------===//
//
// cacs_pool_chan of cacs/pool_sync.h: a ring of items guarded by a spin
// lock, with queues of waiting senders and receivers (pool_waiter.h).
//
// errno is set by cacs__fail() (errors.h), out of line, after the last
// switch of a call: a call may resume on another worker, whose errno is
// another address.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_waiter.h"

struct cacs_pool_chan {
  uint32_t spin;
  int closed;
  size_t item_size, cap, head, len;
  cacs__pwaitq senders, receivers;
  unsigned char *buf;
};

cacs_pool_chan *cacs_pool_chan_create(size_t item_size, size_t capacity) {
  if (item_size == 0 || (capacity && item_size > SIZE_MAX / capacity)) {
    cacs__set_errno(EINVAL);
    return NULL;
  }
  cacs_pool_chan *ch = calloc(1, sizeof *ch);
  if (!ch)
    return NULL;
  ch->item_size = item_size;
  ch->cap = capacity;
  if (capacity && !(ch->buf = malloc(item_size * capacity))) {
    free(ch);
    return NULL;
  }
  return ch;
}

int cacs_pool_chan_destroy(cacs_pool_chan *ch) {
  spin_lock(&ch->spin);
  int busy = ch->senders.head || ch->receivers.head;
  spin_unlock(&ch->spin);
  if (busy)
    return cacs__fail(EBUSY);
  free(ch->buf);
  free(ch);
  return 0;
}

static unsigned char *slot(cacs_pool_chan *ch, size_t i) {
  return ch->buf + ((ch->head + i) % ch->cap) * ch->item_size;
}

int cacs_pool_chan_send(cacs_pool_chan *ch, const void *item,
                        int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&ch->spin);
  if (ch->closed) {
    spin_unlock(&ch->spin);
    return cacs__fail(EPIPE);
  }
  waiter *r = q_pop(&ch->receivers);
  if (r) { // only when the buffer is empty: straight into its buffer
    cacs__ptask *next = NULL;
    memcpy(r->item, item, ch->item_size);
    serve(r, 0, &next);
    spin_unlock(&ch->spin);
    run_served(next, 1);
    return 0;
  }
  if (ch->len < ch->cap) {
    memcpy(slot(ch, ch->len++), item, ch->item_size);
    spin_unlock(&ch->spin);
    return 0;
  }
  if (timeout_us == 0) {
    spin_unlock(&ch->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  w.item = (void *)item;
  q_push(&ch->senders, &w);
  spins sp = {&ch->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, ch));
}

int cacs_pool_chan_recv(cacs_pool_chan *ch, void *item, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&ch->spin);
  cacs__ptask *next = NULL;
  if (ch->len) {
    memcpy(item, slot(ch, 0), ch->item_size);
    ch->head = (ch->head + 1) % ch->cap;
    ch->len--;
    waiter *s = q_pop(&ch->senders); // its item takes the freed room
    if (s) {
      memcpy(slot(ch, ch->len++), s->item, ch->item_size);
      serve(s, 0, &next);
    }
    spin_unlock(&ch->spin);
    run_served(next, 1);
    return 0;
  }
  waiter *s = q_pop(&ch->senders); // capacity 0: a rendezvous
  if (s) {
    memcpy(item, s->item, ch->item_size);
    serve(s, 0, &next);
    spin_unlock(&ch->spin);
    run_served(next, 1);
    return 0;
  }
  if (ch->closed) {
    spin_unlock(&ch->spin);
    return cacs__fail(EPIPE);
  }
  if (timeout_us == 0) {
    spin_unlock(&ch->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  w.item = item;
  q_push(&ch->receivers, &w);
  spins sp = {&ch->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, ch));
}

int cacs_pool_chan_close(cacs_pool_chan *ch) {
  spin_lock(&ch->spin);
  if (ch->closed) {
    spin_unlock(&ch->spin);
    return cacs__fail(EPIPE);
  }
  ch->closed = 1;
  waiter *w;
  while ((w = q_pop(&ch->senders)))
    serve(w, EPIPE, NULL);
  while ((w = q_pop(&ch->receivers)))
    serve(w, EPIPE, NULL);
  spin_unlock(&ch->spin);
  return 0;
}
