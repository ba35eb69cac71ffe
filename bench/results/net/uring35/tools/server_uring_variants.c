/* Variants of bench/net/server_uring.c for issue 35 (bench/results/net/uring35):
   PF=1 poll-first receives, FX=1 registered (fixed) descriptors, MS=1 multishot
   receives with a provided-buffer ring. Build: clang -O2 -I bench/net THIS -luring. */
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The io_uring ceiling: one thread, one ring (liburing), a state machine
// per connection, no coroutines. A multishot accept; per connection one
// receive in flight, and after it the answer's send (a short send sends
// the rest before the next receive, as server_epoll.c stops reading until
// its output has drained). Each pass of the loop submits every queued
// request and waits for at least one completion in one io_uring_enter,
// then handles every completion there is. Same options and work as every
// server in bench/net (net_common.h).
//
//===----------------------------------------------------------------------===//

#include "net_common.h"
static int PF, FX, MS;
#define NB 4096
#define BS 2048
static struct io_uring_buf_ring *br; static char *bufs;



#include <liburing.h>

typedef struct conn {
  int fd, slot, armed;
  const char *out; // output not yet sent (into io's buffers)
  size_t out_len;
  net_conn io;
} conn;

// user_data: a connection, or this tag for the listener's accepts.
#define ACCEPT_TAG 1u

static struct io_uring ring;

// The next free submission slot; a full queue is submitted first.
static struct io_uring_sqe *sqe_get(void) {
  struct io_uring_sqe *s;
  while (!(s = io_uring_get_sqe(&ring)))
    io_uring_submit(&ring);
  return s;
}

static void queue_accept(int lfd) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_multishot_accept(s, lfd, NULL, NULL, SOCK_CLOEXEC);
  io_uring_sqe_set_data64(s, ACCEPT_TAG);
}

static void queue_recv(conn *c) {
  if (MS) { if (c->armed) return; c->armed = 1; struct io_uring_sqe *s = sqe_get(); io_uring_prep_recv_multishot(s, FX ? c->slot : c->fd, NULL, 0, 0); s->flags |= IOSQE_BUFFER_SELECT; s->buf_group = 0; if (FX) s->flags |= IOSQE_FIXED_FILE; io_uring_sqe_set_data(s, c); return; }
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_recv(s, FX ? c->slot : c->fd, net_room_ptr(&c->io), net_room(&c->io), 0);
  if (PF) s->ioprio |= IORING_RECVSEND_POLL_FIRST;
  if (FX) s->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data(s, c);
}

static void queue_send(conn *c) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_send(s, FX ? c->slot : c->fd, c->out, c->out_len, MSG_NOSIGNAL);
  if (FX) s->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data(s, c);
}

// A completion for `c` (the send's while output is pending, else the
// receive's): queue the connection's next request; -1 closes it.
static int on_done2(conn *c, int res, int fromrecv) {
  if (res <= 0)
    return -1;
  if (c->out_len && !fromrecv) {
    c->out += res;
    c->out_len -= (size_t)res;
  } else if (net_input(&c->io, (size_t)res, &c->out, &c->out_len) < 0) {
    return -1;
  }
  if (c->out_len)
    queue_send(c);
  else
    queue_recv(c);
  return 0;
}

static int on_done_x(conn *c, int res, unsigned fl) {
  if (MS && (fl & IORING_CQE_F_BUFFER)) {
    unsigned id = fl >> 16;
    if (!(fl & IORING_CQE_F_MORE)) c->armed = 0;
    if (res > 0) memcpy(net_room_ptr(&c->io), bufs + id * BS, res);
    io_uring_buf_ring_add(br, bufs + id * BS, BS, id, io_uring_buf_ring_mask(NB), 0);
    io_uring_buf_ring_advance(br, 1);
    return on_done2(c, res, 1);
  }
  if (MS && !c->out_len && res <= 0) { c->armed = 0; return -1; }
  return on_done2(c, res, 0);
}
#include <sys/mman.h>
static struct io_uring_buf_ring *io_uring_setup_buf_ring_x(struct io_uring *r, unsigned n, int bgid, int *e) {
  struct io_uring_buf_reg reg = {0};
  void *p = mmap(NULL, n * sizeof(struct io_uring_buf), PROT_READ|PROT_WRITE, MAP_ANONYMOUS|MAP_PRIVATE, -1, 0);
  reg.ring_addr = (unsigned long)p; reg.ring_entries = n; reg.bgid = bgid;
  *e = io_uring_register_buf_ring(r, &reg, 0); if (*e) { fprintf(stderr, "bufring %d\n", *e); exit(1);} 
  io_uring_buf_ring_init(p); return p; }
int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  int lfd = net_listen(&o);
  // Completions run only in this thread's io_uring_enter (6.1 and later);
  // older kernels take the plain ring.
  struct io_uring_params p = {0};
  p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  p.flags |= IORING_SETUP_CQSIZE;
  p.cq_entries = 8192;
  if (io_uring_queue_init_params(1024, &ring, &p) < 0) {
    memset(&p, 0, sizeof p);
    int e = io_uring_queue_init_params(1024, &ring, &p);
    if (e < 0) {
      errno = -e;
      net_die("io_uring_queue_init");
    }
  }
  PF = getenv("PF") != NULL; FX = getenv("FX") != NULL;
  MS = getenv("MS") != NULL;
  if (MS) { int e; br = io_uring_setup_buf_ring_x(&ring, NB, 0, &e); bufs = malloc(NB * BS);
    for (int i = 0; i < NB; i++) io_uring_buf_ring_add(br, bufs + i * BS, BS, i, io_uring_buf_ring_mask(NB), i);
    io_uring_buf_ring_advance(br, NB); }
  if (FX) io_uring_register_files_sparse(&ring, 4096);
  queue_accept(lfd);
  for (;;) {
    io_uring_submit_and_wait(&ring, 1);
    struct io_uring_cqe *cqe;
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      if (cqe->user_data == ACCEPT_TAG) {
        if (!(cqe->flags & IORING_CQE_F_MORE))
          queue_accept(lfd); // the multishot ended: arm it again
        if (cqe->res < 0)
          continue;
        net_tune(cqe->res);
        conn *c = malloc(sizeof *c);
        if (!c)
          net_die("malloc");
        c->fd = cqe->res; c->slot = c->fd; c->armed = 0;
        if (FX) { int fd = c->fd; io_uring_register_files_update(&ring, fd, &fd, 1); }
        c->out_len = 0;
        c->io.in_len = 0;
        queue_recv(c);
        continue;
      }
      conn *c = io_uring_cqe_get_data(cqe);
      if (on_done_x(c, cqe->res, cqe->flags) < 0) {
        close(c->fd);
        free(c);
      }
    }
    io_uring_cq_advance(&ring, seen);
  }
}
