// 10,000 concurrent loopback TCP connections: a client process (10,000
// coroutines) connects them all, waits until every one is connected and
// echoed, then closes; the server process (an acceptor and one coroutine
// per connection) sees all 10,000 open at once, echoes each, reads each EOF
// and closes. Two processes, so that each needs about 10,000 descriptors;
// the test raises RLIMIT_NOFILE if it must, and says SKIP if it cannot.
//
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: {{^(server: 10000 connections open at once, each echoed ok|SKIP: .*)$}}
// CHECK-NEXT: {{^(client: 10000 connections echoed ok|SKIP: .*)$}}
// CHECK-NEXT: {{^(descriptors: none leaked|SKIP: .*)$}}
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <sys/resource.h>
#include <sys/wait.h>

enum { NCONN = 10000, MSG = 64 };
static const int64_t TIMEOUT = 60 * 1000000LL;
static struct sockaddr_in addr;
static int listener;

static int raise_nofile(rlim_t need) {
  struct rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) != 0)
    return -1;
  if (r.rlim_cur >= need)
    return 0;
  if (r.rlim_max < need)
    r.rlim_max = need; // only a privileged process may raise the hard limit
  r.rlim_cur = need;
  return setrlimit(RLIMIT_NOFILE, &r);
}

// Parks every caller until `n` have arrived.
struct barrier {
  int n, arrived;
  cacs_coro **waiting;
};
static void barrier_wait(struct barrier *b) {
  if (++b->arrived == b->n) {
    for (int i = 0; i < b->n - 1; i++)
      cacs_wake(b->waiting[i]);
    return;
  }
  b->waiting[b->arrived - 1] = cacs_self();
  cacs_park();
}

static void fill(char *m, int id) {
  for (int i = 0; i < MSG; i++)
    m[i] = (char)(id * 7 + i);
}

// --- client process ------------------------------------------------------

static struct barrier connected, echoed;
static int client_ok;

static void client(void *arg) {
  int id = (int)(long)arg;
  int fd = connect_loopback(&addr, TIMEOUT);
  EXPECT(fd >= 0);
  barrier_wait(&connected); // all 10,000 are open now
  char out[MSG], in[MSG];
  fill(out, id);
  int ok = fd >= 0 && cacs_write_all(fd, out, MSG, TIMEOUT) == MSG;
  size_t got = 0;
  ssize_t k = 0;
  while (ok && got < MSG &&
         (k = cacs_read(fd, in + got, MSG - got, TIMEOUT)) > 0)
    got += (size_t)k;
  ok = ok && got == MSG && memcmp(in, out, MSG) == 0;
  EXPECT(ok);
  client_ok += ok;
  barrier_wait(&echoed); // the server held all 10,000 at once
  if (fd >= 0)
    cacs_close(fd);
}

static int run_clients(int report) {
  static cacs_coro *co[NCONN], *w1[NCONN], *w2[NCONN];
  connected = (struct barrier){NCONN, 0, w1};
  echoed = (struct barrier){NCONN, 0, w2};
  cacs_coro_attr a = {CACS_STACK_SMALL_SIZE, 0, 0, NULL};
  for (int i = 0; i < NCONN; i++) {
    co[i] = cacs_create_ex(client, (void *)(long)i, &a);
    EXPECT(co[i] != NULL);
  }
  for (int i = 0; i < NCONN; i++)
    cacs_join(co[i]);
  // The parent prints it, after its own line.
  int r[2] = {client_ok, failures};
  return write(report, r, sizeof r) != sizeof r || failures != 0;
}

// --- server process --------------------------------------------------------

static int open_now, open_peak, served;

static void handler(void *arg) {
  int fd = (int)(long)arg;
  open_now++;
  if (open_now > open_peak)
    open_peak = open_now;
  char m[MSG];
  size_t got = 0;
  ssize_t k = 0;
  while (got < MSG && (k = cacs_read(fd, m + got, MSG - got, TIMEOUT)) > 0)
    got += (size_t)k;
  EXPECT(got == MSG);
  EXPECT(cacs_write_all(fd, m, got, TIMEOUT) == (ssize_t)got);
  EXPECT(cacs_read(fd, m, 1, TIMEOUT) == 0); // the client closes
  served += got == MSG;
  open_now--;
  EXPECT(cacs_close(fd) == 0);
}

static void acceptor(void *arg) {
  (void)arg;
  static cacs_coro *h[NCONN];
  cacs_coro_attr a = {CACS_STACK_SMALL_SIZE, 0, 0, NULL};
  int n = 0;
  for (; n < NCONN; n++) {
    int fd = cacs_accept(listener, NULL, NULL, TIMEOUT);
    EXPECT(fd >= 0);
    if (fd < 0)
      break;
    h[n] = cacs_create_ex(handler, (void *)(long)fd, &a);
    EXPECT(h[n] != NULL);
  }
  for (int i = 0; i < n; i++)
    cacs_join(h[i]);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(300);
  if (raise_nofile(NCONN + 100) != 0) {
    struct rlimit r;
    getrlimit(RLIMIT_NOFILE, &r);
    for (int i = 0; i < 3; i++)
      printf("SKIP: RLIMIT_NOFILE hard limit %llu < %d and cannot be raised\n",
             (unsigned long long)r.rlim_max, NCONN + 100);
    printf("PASS\n");
    return 0;
  }
  listener = listen_loopback(4096, &addr);
  EXPECT(listener >= 0);
  int report[2];
  EXPECT(pipe(report) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    close(listener);
    close(report[0]);
    _exit(run_clients(report[1]));
  }
  close(report[1]);
  io_warm_up();
  int fds = fd_count();
  cacs_coro *acc = cacs_create(acceptor, NULL, 0);
  cacs_join(acc);
  EXPECT(open_peak == NCONN && served == NCONN);
  printf("server: %d connections open at once, each echoed %s\n", open_peak,
         failures ? "FAILED" : "ok");
  int status = 0;
  EXPECT(waitpid(pid, &status, 0) == pid);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  int r[2] = {0, 1};
  EXPECT(read(report[0], r, sizeof r) == sizeof r);
  EXPECT(r[1] == 0);
  printf("client: %d connections echoed %s\n", r[0], r[1] ? "FAILED" : "ok");
  int leaked = fd_count() - fds;
  EXPECT(leaked == 0);
  printf("descriptors: %s\n", leaked ? "LEAKED" : "none leaked");
  close(report[0]);
  cacs_close(listener);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
