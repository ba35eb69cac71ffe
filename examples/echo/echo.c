// A TCP echo server on cacs/io.h: one coroutine per connection.
//   clang -O2 -fauto-preserve-none echo.c -lcacs_io -lcacs && ./a.out 7000
#include <cacs/io.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>

static void session(void *arg) {
  int fd = (int)(intptr_t)arg;
  char buf[4096];
  ssize_t n; // 0: the client closed; -1: an error, or 60 s without a byte
  while ((n = cacs_read(fd, buf, sizeof buf, 60 * 1000000)) > 0)
    if (cacs_write_all(fd, buf, (size_t)n, 60 * 1000000) < 0)
      break;
  cacs_close(fd);
}

int main(int argc, char **argv) {
  struct sockaddr_in a = {.sin_family = AF_INET,
                          .sin_port = htons(argc > 1 ? atoi(argv[1]) : 7000)};
  int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(lfd, (struct sockaddr *)&a, sizeof a) || listen(lfd, SOMAXCONN))
    return perror("echo"), 1;
  for (int fd; (fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER)) >= 0;) {
    cacs_coro *c = cacs_create(session, (void *)(intptr_t)fd, 0);
    c ? cacs_detach(c) : cacs_close(fd); // a finished session frees itself
  }
  return perror("accept"), 1;
}
