// The echo server of docs/runtime.md (examples/echo/echo.c) builds and works: its
// main runs in a coroutine of this program, 50 client coroutines talk to it
// over loopback, and every session frees itself (cacs_detach) after its
// client closes.
//
// docs/runtime.md shows this very file:
// RUN: sed -n '/echo-example-begin/,/echo-example-end/p' %cacs_src_root/docs/runtime.md | sed '1,2d;$d' | sed '$d' > %t.readme.c
// RUN: diff %t.readme.c %cacs_src_root/examples/echo/echo.c
// RUN: %clang -O2 -fauto-preserve-none -Wall -Werror -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: 50 clients echoed ok
// CHECK-NEXT: sessions alive after the clients closed: 0
// CHECK-NEXT: PASS

#define main echo_main
#include "../../examples/echo/echo.c"
#undef main

#include "Inputs/io-test.h"

#include <arpa/inet.h>

enum { NCLIENT = 50, NMSG = 20 };
static struct sockaddr_in addr;
static char port[16];
static int ok_clients;

static void server(void *arg) {
  (void)arg;
  char *argv[] = {"echo", port, NULL};
  echo_main(2, argv); // returns only if accept fails
  EXPECT(0);
}

static void client(void *arg) {
  int id = (int)(long)arg;
  int fd = connect_loopback(&addr, 10 * 1000000);
  EXPECT(fd >= 0);
  int ok = fd >= 0;
  for (int m = 0; ok && m < NMSG; m++) {
    char out[64], in[64];
    int n = snprintf(out, sizeof out, "client %d message %d", id, m);
    size_t got = 0;
    ssize_t k = 0;
    ok = cacs_write_all(fd, out, (size_t)n, 10 * 1000000) == n;
    while (ok && got < (size_t)n &&
           (k = cacs_read(fd, in + got, (size_t)n - got, 10 * 1000000)) > 0)
      got += (size_t)k;
    ok = ok && got == (size_t)n && memcmp(in, out, (size_t)n) == 0;
  }
  EXPECT(ok);
  ok_clients += ok;
  if (fd >= 0)
    cacs_close(fd);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(60);
  // A free port: bind to 0, read it back, release it for the server.
  int probe = listen_loopback(1, &addr);
  EXPECT(probe >= 0);
  close(probe);
  snprintf(port, sizeof port, "%d", ntohs(addr.sin_port));
  cacs_coro *s = cacs_create(server, NULL, 0);
  cacs_yield(); // the server listens and waits in accept
  cacs_coro *c[NCLIENT];
  for (int i = 0; i < NCLIENT; i++)
    c[i] = cacs_create(client, (void *)(long)i, 0);
  for (int i = 0; i < NCLIENT; i++)
    cacs_join(c[i]);
  printf("%d clients echoed %s\n", ok_clients, failures ? "FAILED" : "ok");
  // The sessions read EOF and finish (give them up to 5 s on a busy machine).
  for (int i = 0; i < 5000 && cacs_count() > 1; i++)
    cacs_sleep(1000);
  // Left: the server, parked in accept (and the service coroutine, which
  // cacs_count does not count).
  printf("sessions alive after the clients closed: %zu\n", cacs_count() - 1);
  (void)s; // never joined: the process ends with the server waiting
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
