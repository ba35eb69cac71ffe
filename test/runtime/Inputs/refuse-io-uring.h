//===- Inputs/refuse-io-uring.h - io_uring refused to this process ------===//
//
// Shared by the tests of the io_uring engine's fallback to the epoll loop
// (test/runtime/io-uring-fallback.c, stack-budget-uring-fallback.c):
// refuse_io_uring(err) installs a seccomp filter that makes io_uring_setup
// fail with `err` in this process, its threads and its children (ENOSYS as
// on a kernel without io_uring, EPERM as sysctl kernel.io_uring_disabled=2
// or a container's profile), while a ring made before keeps working. 0, or
// -1 with errno. x86-64 only (the filter checks the architecture).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_TEST_REFUSE_IO_URING_H
#define CACS_TEST_REFUSE_IO_URING_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static int refuse_io_uring(int err) {
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 3),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {sizeof f / sizeof *f, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

#endif // CACS_TEST_REFUSE_IO_URING_H
