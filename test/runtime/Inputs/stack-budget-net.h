//===- Inputs/stack-budget-net.h - accept and connect measured ---------===//
//
// Shared by test/runtime/stack-budget.c and test/pool/pool-stack-budget.c
// (with Inputs/stack-budget.h's MEASURE): budget_listener() makes a TCP
// listener on the loopback (its address in *a), and MEASURE_ACCEPT_CONNECT
// measures a cacs_accept that waits for a connection (`ask`, an expression,
// asks the test's other side to connect once the call waits) and a cacs_connect
// in progress, each twice, against `budget`.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_TEST_STACK_BUDGET_NET_H
#define CACS_TEST_STACK_BUDGET_NET_H

#include "stack-budget.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

// A non-blocking listener on the loopback's free port; -1 if none.
static int budget_listener(struct sockaddr_in *a) {
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof *a;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof *a) != 0 ||
      listen(fd, 8) != 0 || getsockname(fd, (struct sockaddr *)a, &len) != 0)
    return -1;
  return fd;
}

// cacs_accept waits, then forgets what the new number meant (its record);
// cacs_connect, in progress, waits for writability. `bad` set on an error.
#define MEASURE_ACCEPT_CONNECT(lfd, laddr, budget, ask, bad)                   \
  do {                                                                         \
    int a_[2] = {-1, -1}, k_ = 0;                                              \
    MEASURE("accept", budget, 0,                                               \
            ((ask), a_[k_] = cacs_accept(lfd, NULL, NULL, -1), ++k_));         \
    for (k_ = 0; k_ < 2; ++k_)                                                 \
      if (a_[k_] < 0 || cacs_close(a_[k_]) != 0)                               \
        (bad) = 1;                                                             \
    int s_[2] = {socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0),              \
                 socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)};             \
    k_ = 0;                                                                    \
    MEASURE("connect", budget, 0,                                              \
            (void)(cacs_connect(s_[k_++], (struct sockaddr *)&(laddr),         \
                                sizeof(laddr), -1) != 0 &&                     \
                   ((bad) = 1)));                                              \
    for (k_ = 0; k_ < 2; ++k_) {                                               \
      int c_ = accept(lfd, NULL, NULL);                                        \
      if (c_ < 0 || close(c_) != 0 || cacs_close(s_[k_]) != 0)                 \
        (bad) = 1;                                                             \
    }                                                                          \
  } while (0)

#endif // CACS_TEST_STACK_BUDGET_NET_H
