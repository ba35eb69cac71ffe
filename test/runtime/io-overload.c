// The servers users copy survive overload (issue 36, part 1): each server
// below runs in a child process whose descriptor limit is 64 (soft and
// hard), and this program, its clients, checks that
//   - 16 established connections keep echoing through the flood, every byte
//     compared (checksums of what went and what came back);
//   - 4 slow clients (one byte every 50 ms) are echoed byte by byte;
//   - a flood of 1,000 connecting clients is served: the server's
//     descriptors reach the limit (so accept4 meets EMFILE), cacs_accept
//     backs off, and every client is served once descriptors free up; one
//     in ten writes and then resets its connection while the server writes;
//   - after the flood, 20 new clients are served, the server is alive and
//     its resident memory stays under 64 MiB.
// The servers: docs/runtime.md's echo server (examples/echo/echo.c, whose
// loop ends at accept's first error), bench/net's server_cacs (one thread)
// and server_cacs_pool (2 workers), whose loops retry at once (the peers
// of bench/net: io-overload-peers.test).
// (Arch-neutral C: x86-64 only.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t
// RUN: %clang -O2 -I%cacs_include %cacs_src_root/examples/echo/echo.c %cacs_io_x86_64 %cacs_rt_x86_64 -o %t.echo
// RUN: %t %t.echo PORT | FileCheck %s
// RUN: %clang -O2 -I%cacs_include -I%cacs_src_root/bench/net %cacs_src_root/bench/net/server_cacs.c %cacs_io_x86_64 %cacs_rt_x86_64 -o %t.bench
// RUN: %t %t.bench -p PORT -m echo | FileCheck %s
// RUN: %clang -O2 -I%cacs_include -I%cacs_src_root/bench/net -DNET_POOL_WORKERS=2 %cacs_src_root/bench/net/server_cacs_pool.c %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t.pool
// RUN: %t %t.pool -p PORT -m echo | FileCheck %s
//
// CHECK: established: 16 connections echoed through the flood, checksums match
// CHECK-NEXT: slow: 4 clients echoed byte by byte
// CHECK-NEXT: flood: 1000 clients served (100 reset while the server wrote)
// CHECK-NEXT: the server's descriptors reached the limit of 64
// CHECK-NEXT: after the flood: 20 new clients served
// CHECK-NEXT: server alive, resident memory under 64 MiB
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#include "Inputs/io-test.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

enum { NEST = 16, NSLOW = 4, NFLOOD = 1000, NRESET = 100, NAFTER = 20 };
enum { LIMIT = 64 };
// Every call's timeout: a lost byte fails the test instead of hanging it.
#define T_US ((int64_t)30 * 1000000)

static struct sockaddr_in addr;
static pid_t server;
static int flood_done, est_ok, slow_ok, flood_ok, reset_ok, after_ok, peak;

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Send `n` bytes of a pattern seeded by `seed`, read them back; both
// directions checksummed into *out and *in. 0 on success.
static int echo_round(int fd, unsigned seed, size_t n, uint64_t *out,
                      uint64_t *in) {
  unsigned char buf[2048], got[2048];
  for (size_t i = 0; i < n; ++i)
    buf[i] = (unsigned char)(seed * 131 + i * 7);
  if (cacs_write_all(fd, buf, n, T_US) != (ssize_t)n)
    return -1;
  *out = fnv(*out, buf, n);
  for (size_t have = 0; have < n;) {
    ssize_t k = cacs_read(fd, got + have, n - have, T_US);
    if (k <= 0)
      return -1;
    have += (size_t)k;
  }
  *in = fnv(*in, got, n);
  return 0;
}

static int dial(void) {
  int fd = connect_loopback(&addr, T_US);
  EXPECT(fd >= 0);
  return fd;
}

static void established(void *arg) {
  unsigned id = (unsigned)(long)arg;
  int fd = dial();
  if (fd < 0)
    return;
  uint64_t out = 14695981039346656037ull, in = out;
  int rounds = 0, bad = 0;
  while (!bad && (!flood_done || rounds < 40)) {
    bad = echo_round(fd, id * 1000 + rounds, 1 + (id * 97 + rounds) % 2000,
                     &out, &in);
    ++rounds;
    cacs_sleep(2000);
  }
  EXPECT(!bad && out == in);
  est_ok += !bad && out == in;
  cacs_close(fd);
}

static void slow(void *arg) {
  unsigned id = (unsigned)(long)arg;
  int fd = dial();
  if (fd < 0)
    return;
  uint64_t out = 1, in = 1;
  int bad = 0;
  for (int i = 0; !bad && (!flood_done || i < 10); ++i) {
    bad = echo_round(fd, id + i, 1, &out, &in);
    cacs_sleep(50000);
  }
  EXPECT(!bad && out == in);
  slow_ok += !bad && out == in;
  cacs_close(fd);
}

static void flood(void *arg) {
  unsigned id = (unsigned)(long)arg;
  int fd = dial();
  if (fd < 0)
    return;
  if (id % (NFLOOD / NRESET) == 0) {
    // Write more than the server can write back unread, then reset.
    static unsigned char big[256 * 1024];
    cacs_write(fd, big, sizeof big, 50000);
    struct linger lg = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    reset_ok++;
  } else {
    uint64_t out = 7, in = 7;
    int bad = echo_round(fd, id, 32, &out, &in);
    EXPECT(!bad && out == in);
    flood_ok += !bad && out == in;
    cacs_sleep(10000); // hold the server's descriptor a while
  }
  cacs_close(fd);
}

static void after(void *arg) {
  int fd = dial();
  if (fd < 0)
    return;
  uint64_t out = 3, in = 3;
  int bad = echo_round(fd, (unsigned)(long)arg, 1500, &out, &in);
  EXPECT(!bad && out == in);
  after_ok += !bad && out == in;
  cacs_close(fd);
}

static int server_fds(void) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/fd", (int)server);
  DIR *d = opendir(path);
  if (!d)
    return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static void sampler(void *arg) {
  (void)arg;
  while (!flood_done) {
    int n = server_fds();
    peak = n > peak ? n : peak;
    cacs_sleep(500);
  }
}

static long server_rss_kib(void) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)server);
  FILE *f = fopen(path, "r");
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6))
      kib = atol(line + 6);
  if (f)
    fclose(f);
  return kib;
}

static void start_server(char **argv) {
  int s = listen_loopback(1, &addr); // a free port, given to the server
  EXPECT(s >= 0);
  close(s);
  char port[16];
  snprintf(port, sizeof port, "%d", ntohs(addr.sin_port));
  for (char **a = argv; *a; ++a)
    if (!strcmp(*a, "PORT"))
      *a = port;
  server = fork();
  if (server == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); // a watchdog's exit ends it too
    struct rlimit rl = {LIMIT, LIMIT};
    setrlimit(RLIMIT_NOFILE, &rl);
    execv(argv[0], argv);
    _exit(127);
  }
  for (int i = 0; i < 500; ++i) { // until it listens
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int r = connect(fd, (struct sockaddr *)&addr, sizeof addr);
    close(fd);
    if (r == 0)
      return;
    usleep(10000);
  }
  EXPECT(0);
}

static cacs_coro *spawn(void (*f)(void *), long arg) {
  cacs_coro *c = cacs_create(f, (void *)arg, 64 * 1024);
  EXPECT(c != NULL);
  return c;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SERVER ARGS... (PORT: the port)\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(60);
  signal(SIGPIPE, SIG_IGN);
  start_server(argv + 1);
  cacs_coro *est[NEST], *sl[NSLOW], *fl[NFLOOD], *af[NAFTER];
  for (long i = 0; i < NEST; ++i)
    est[i] = spawn(established, i);
  for (long i = 0; i < NSLOW; ++i)
    sl[i] = spawn(slow, i);
  cacs_sleep(100000); // all established
  cacs_coro *smp = spawn(sampler, 0);
  for (long i = 0; i < NFLOOD; ++i)
    fl[i] = spawn(flood, i);
  for (int i = 0; i < NFLOOD; ++i)
    cacs_join(fl[i]);
  flood_done = 1;
  cacs_join(smp);
  for (int i = 0; i < NEST; ++i)
    cacs_join(est[i]);
  for (int i = 0; i < NSLOW; ++i)
    cacs_join(sl[i]);
  for (long i = 0; i < NAFTER; ++i)
    af[i] = spawn(after, i);
  for (int i = 0; i < NAFTER; ++i)
    cacs_join(af[i]);

  if (est_ok == NEST)
    printf("established: %d connections echoed through the flood, "
           "checksums match\n",
           NEST);
  if (slow_ok == NSLOW)
    printf("slow: %d clients echoed byte by byte\n", NSLOW);
  if (flood_ok + reset_ok == NFLOOD && reset_ok == NRESET)
    printf("flood: %d clients served (%d reset while the server wrote)\n",
           NFLOOD, NRESET);
  EXPECT(peak >= LIMIT - 1); // its last descriptor may be a socket half made
  if (peak >= LIMIT - 1)
    printf("the server's descriptors reached the limit of %d\n", LIMIT);
  else
    printf("the server's descriptors peaked at %d\n", peak);
  if (after_ok == NAFTER)
    printf("after the flood: %d new clients served\n", NAFTER);
  int status;
  long rss = server_rss_kib();
  int alive = waitpid(server, &status, WNOHANG) == 0;
  EXPECT(alive && rss > 0 && rss < 64 * 1024);
  if (alive && rss > 0 && rss < 64 * 1024)
    printf("server alive, resident memory under 64 MiB\n");
  kill(server, SIGKILL);
  waitpid(server, &status, 0);
  EXPECT(est_ok == NEST && slow_ok == NSLOW && after_ok == NAFTER);
  EXPECT(flood_ok + reset_ok == NFLOOD);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
