//===- bench/patterns/srv_session.c - server: one echo session --*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The coroutine body of examples/echo/echo.c over srv_transport.c.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

void srv_session(void *arg) {
  srv_conn *c = arg;
  char buf[4096];
  long n; // 0: the client closed
  while ((n = srv_read(c, buf, sizeof buf)) > 0)
    if (srv_write_all(c, buf, (unsigned long)n) < 0)
      break;
  srv_close(c);
}
