//===- trap-memory-calls.h - Count the memory system calls ------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// For the stack caches' tests (x86-64): a seccomp filter traps the memory
// system calls (madvise, process_madvise, mmap, munmap, mprotect, brk) into
// a SIGSYS handler, which counts them in `trapped` (mmap and munmap also in
// `maps`) and pretends they worked without doing them: madvise and munmap
// return 0, process_madvise every byte asked for, the others fail with
// ENOSYS. A filter cannot be removed, so it goes on for a test's last
// phase only.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_TEST_TRAP_MEMORY_CALLS_H
#define CACS_TEST_TRAP_MEMORY_CALLS_H

// Include it first, or after defining _GNU_SOURCE (REG_RAX, REG_RSI).
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

static volatile long trapped;
static volatile long maps; // of them mmap and munmap

static void on_sigsys(int sig, siginfo_t *si, void *uc) {
  (void)sig;
  __atomic_fetch_add(&trapped, 1, __ATOMIC_RELAXED); // any thread's
  if (si->si_syscall == SYS_mmap || si->si_syscall == SYS_munmap)
    __atomic_fetch_add(&maps, 1, __ATOMIC_RELAXED);
  greg_t *r = ((ucontext_t *)uc)->uc_mcontext.gregs;
  long ret = -38; // -ENOSYS
  if (si->si_syscall == SYS_madvise || si->si_syscall == SYS_munmap)
    ret = 0;
  if (si->si_syscall == SYS_process_madvise) {
    const struct iovec *iov = (const struct iovec *)r[REG_RSI];
    ret = 0;
    for (long i = 0; i < (long)r[REG_RDX]; ++i)
      ret += (long)iov[i].iov_len;
  }
  r[REG_RAX] = ret;
}

// From here on, every memory system call (`all`), or every madvise,
// counts in `trapped`: the calling thread's, or with `threads` every
// thread's of the process (SECCOMP_FILTER_FLAG_TSYNC).
static void trap_memory_calls(int all, int threads) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSYS, &sa, NULL);
#define TRAP(nr)                                                               \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                             \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP)
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      TRAP(SYS_madvise),
      TRAP(SYS_process_madvise),
      TRAP(SYS_mmap),
      TRAP(SYS_munmap),
      TRAP(SYS_mprotect),
      TRAP(SYS_brk),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
#undef TRAP
  // Without `all`, the madvise calls only: what follows them is allowed.
  if (!all)
    f[8] = f[sizeof f / sizeof *f - 1];
  struct sock_fprog prog = {all ? sizeof f / sizeof *f : 9, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
              threads ? SECCOMP_FILTER_FLAG_TSYNC : 0, &prog) != 0) {
    perror("seccomp");
    exit(1);
  }
}

#endif // CACS_TEST_TRAP_MEMORY_CALLS_H
