/*===- cacs/detail/contract.h - What the compiler and libcacs agree on ----===*
 *
 * Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
 *
 *===----------------------------------------------------------------------===*
 *
 * The names that the cacs compiler (front door and passes) and libcacs's
 * headers must spell alike, in the one place both include: libcacs's headers
 * as "cacs/detail/contract.h", the compiler (whose own headers live under
 * cacs-compiler/) from runtime/include. A plain C header of string literals
 * (and of libcacs's stack budgets, numbers only the headers and the tests
 * read), usable from C, C++ and the compiler's C++ alike. Change a value here
 *and both sides follow; nothing else may spell these strings.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CACS_DETAIL_CONTRACT_H
#define CACS_DETAIL_CONTRACT_H

/* Macros the front door defines in every compile it runs (with -D, so that
 * -E output, which compiler caches and distcc compile, has them too). The
 * runtime headers test them by name (#if defined(__CACS__)); the preprocessor
 * cannot take a name from a string, so these strings are what the front door
 * defines and the names the headers test must match them:
 *  - __CACS__: compiled by cacs, whose passes shield what a preserve_none
 *    call may clobber (the base pointer) and give in-stack yields their
 *    frames;
 *  - __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__: -fpreserve-none-callee-saved=
 *    none is in effect (not under ThinLTO), so cacs_yield() may bind to the
 *    entry that saves nothing. */
#define CACS_CONTRACT_MACRO_CACS "__CACS__"
#define CACS_CONTRACT_MACRO_CALLEE_SAVED_NONE                                  \
  "__CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__"

/* The annotation (__attribute__((annotate(...)))) on a declaration of code
 * that saves no register, the base pointer included (libcacs's
 * cacs__yield_pn_none). The callee-saved pass gives such declarations the
 * empty register mask. */
#define CACS_CONTRACT_SAVES_NOTHING_ANNOTATION "cacs.no_callee_saved_registers"

/* A comment that the tail switch of cacs/switch.h puts in its inline asm
 * where it stores neither rbp nor rbx (CACS__TAIL_EMPTY_LIST: under
 * -fpreserve-none-callee-saved=none). That is right only in a function the
 * callee-saved pass gives the empty list, whose callers all save rbp
 * themselves; the pass rejects the form in a preserve_none function that
 * keeps rbp (docs/hazards.md). */
#define CACS_CONTRACT_TAIL_EMPTY_LIST_MARK "# cacs.tail_switch_empty_list"

/* The annotation on a declaration of a libcacs preserve_none entry that a
 * sync block (cacs/syncblock.h) allows: inside a block it runs no other
 * coroutine of the scheduler. The I/O waits of cacs/io.h make the blocking
 * system call there instead of parking; an effect resume runs a nested
 * coroutine that comes back to its caller (what that coroutine does is
 * checked at run time). libcacs's run-time checks and the sync-block check
 * (SyncBlockCheck) both follow it: the runtime lets exactly these entries
 * through a block, the check does not count them as switches. */
#define CACS_CONTRACT_SYNC_BLOCK_ALLOWS_ANNOTATION "cacs.sync_block_allows"

/* The annotation on a declaration of libcacs code that the stack bounds of
 * -fcacs-stack-bounds take as a whole, without looking inside: the prefix,
 * then the decimal number of bytes the call uses of the caller's stack,
 * below the stack pointer at the call (the return address included), from
 * the call to its return, with everything that runs on that stack in
 * between (CACS__STACK_BUDGET writes it). StackBoundRecord records the
 * declarations a compile calls, and the link's walk (cacs-stack-bounds.cpp)
 * counts the number as the callee's whole bound. libcacs's switching
 * entries carry the bytes they use on the coroutine's stack before the
 * switch, while suspended and after the resume: cacs_yield
 * CACS_CONTRACT_YIELD_STACK_BUDGET (the fast switch, or the slow one's C
 * code), the waits that park and move no data (cacs/coro.h's, cacs/sync.h's)
 * CACS_CONTRACT_PARK_STACK_BUDGET (the scheduler's C code, the
 * primitives' queues; below), cacs_wait_fd its own
 * CACS_CONTRACT_WAIT_FD_STACK_BUDGET (the same park and a descriptor's
 * registration; below), the I/O
 * calls that transfer (cacs_read, cacs_write, ..., cacs_accept,
 * cacs_connect) CACS_CONTRACT_WAIT_STACK_BUDGET (their system calls,
 * retries and engines' requests too); the pool's own calls (the waits
 * of cacs/pool.h, cacs_pool_spawn, the calls of cacs/pool_sync.h), whose
 * pool coroutine may run on an exact stack too, the smaller
 * CACS_CONTRACT_POOL_WAIT_STACK_BUDGET (below). In a pool coroutine the
 * calls above take the pool's paths; test/pool/pool-stack-budget.c and
 * test/pool/pool-sync-stack-budget.c measure them there. cacs_on_system_stack
 * carries CACS_CONTRACT_SYSTEM_STACK_BUDGET: what it runs on the coroutine's
 * stack around the move (the call itself runs on the thread's stack). Measured,
 * with a margin, by test/runtime/stack-budget.c, which fails when libcacs
 * uses more. A misuse they abort on (a single-thread wait in a pool
 * coroutine, a switch in a sync block) writes its message on the thread's
 * own stack (fatal.c), within them too: test/pool/pool-misuse-stack.c.
 * The numbers depend on the target, as the code does; a target without
 * them gets no annotation (no bound). */
#define CACS_CONTRACT_STACK_BUDGET_ANNOTATION "cacs.stack_budget="
/* Measured (LLVM 19's libcacs, -O2): x86-64 yield 272 (the slow switch of
 * a coroutine with its own FP environment; the fast one 64), transfers 624
 * (the first timed wait of a thread, a read on io_uring), the system
 * stack's call 160; AArch64 368, 656 (a thread's read; 496 since its
 * waits' helpers are preserve_none, internal.h's CACS__IO_PN), 160.
 * In a pool coroutine: x86-64 520, AArch64 776 (a read through the pool's
 * poller; its park switches out first and leaves the timer and the wake's
 * arming to the worker's loop, on the worker's stack, and a descriptor's
 * first look runs there too); x86-64 592 a read on its worker's io_uring
 * ring (568 since the ring's wait takes its caller's deadline, session
 * 35; 248 a cacs_wait_fd there). The wait budget keeps a margin of 80 bytes
 * on x86-64, 88 on AArch64 (744 -> 776 there: the entries spill 32 bytes
 * more around the preserve_none cacs__io_fd_wait; LLVM 22's 752 -> 784). The
 * pool's own calls: x86-64 496, AArch64 704 (a contended mutex of
 * cacs/pool_sync.h; its waits of cacs/pool.h 160 and 240), budgets 576 and 768;
 * since (session 42, libcacs built by clang 19 and by clang 22 alike) x86-64
 * 552, AArch64 720 (704 by clang 22), a contended mutex_lock on a path
 * that only some runs take (x86-64's frames: mutex_lock_slow,
 * cancel_mutex, wait_served, cacs__pool_switch_home_inline, resumed,
 * cacs__pool_notify; most runs 528, 624); budgets 640 and 784, the margins
 * of 80 and 64 back (x86-64's 632 rounded up to 16 bytes, as 576 was: a
 * bound's parity sets how a pool's exact stack packs with its block,
 * which test/pool/pool-exact.c checks). Session 47: a hand-off that
 * resumes a waiter queues the releaser and wakes an idle worker from below
 * the waiter's park; where that worker slept in the pool's poller or its
 * ring, the eventfd's kick (libc's write) took a write lock behind a
 * writer to 680 on x86-64, 864 on AArch64
 * (test/pool/pool-sync-stack-budget-kick.c); a wake's system calls now run
 * on the worker's stack (pool_ready.c's notify_idle) and the queueing is a
 * tail call: 568 and 688; 576 and 704 where the worker's deque is full
 * (the shared queue's lock, also moved: 624 and 784 before), the budgets
 * kept.
 * cacs_accept and cacs_connect, measured since session 39: a thread's
 * accept on io_uring 672 on x86-64 (cacs_accept's frame, which holds the
 * epoll loop's inlined wait, was below the ring's; 560 since the ring's
 * accept is a tail call), a pool coroutine's 552 (568 LLVM 22), connect
 * 392; AArch64 800 (a pool coroutine's accept), connect 576.
 * Session 42's static sums (.stack_sizes along the relocations:
 * bench/results/stackbound/README.md) found two paths past the transfer
 * budget; neither runs on a coroutine's stack, so the budget stays. x86-64
 * 672: a pool coroutine's accept on its worker's ring, then
 * cacs__pool_resumed > cacs__pool_ready_on > cacs__pool_io_kick, which a
 * wait's park runs only when a CES hand-off resumes it. Only
 * cacs/pool_sync.h's waiters are handed to (pool_waiter.h's run_served:
 * an untimed waiter, which only its releaser wakes); the descriptor waits'
 * parks are compiled without that path and trap on a hand-off
 * (pool_park_inline.h's `handed`, test/pool/pool-io-no-handoff.c).
 * AArch64 880: cacs__accept_pn > cacs__uring_io > cacs__io_fd_wait >
 * cacs__uring_wait > cacs__wait_now_ns > cacs__deep_call. The ring's
 * calls fall back to cacs__io_fd_wait only inside a sync block (which
 * blocks there before either engine) or when ring_ready() fails, which
 * sets the thread's engine to epoll first (io_uring.c), so
 * cacs__io_on_ring() is false and cacs__io_fd_wait does not go back to the
 * ring. What runs there instead, measured since session 43
 * (test/runtime/stack-budget-uring-fallback.c, x86-64, direct and
 * through _pn_bp): in a child after fork that io_uring refuses
 * (ring_after_fork), the epoll loop's wait below the ring's frames used
 * 752 / 768 bytes (a thread's first accept after the fork), 640 / 656 (a
 * read), 616 / 632 (an accept parked at the fork), all over 608, and 240
 * / 256 for cacs_wait_fd, over its 216. Those calls now start over on
 * the epoll loop from io.c's frames (io_uring.h's CACS__URING_MOVED;
 * cacs_wait_fd's ring wait tail-calls the loop's): 464 / 480, 368 / 384,
 * 512 / 528 (the parked accept's wait on the ring before the fork), 160 /
 * 176. A connect and a sync block's call still wait below the ring's
 * frames, within the budget: 344 / 360 (a connect parked at the fork:
 * its ring wait; 320 / 336 the first after it), 456 / 472 (an accept in
 * a sync block, poll(2)). A thread whose ring cannot be made at its first
 * call takes the epoll loop's paths: every number of stack-budget.c the
 * same as on epoll (as a pool whose workers cannot make rings takes its
 * epoll poller's: pool-stack-budget.c's). No call falls back per
 * descriptor: a file that will not wait and a shared stack's call wait
 * with a poll request on the ring. AArch64 (qemu runs no ring; the I/O
 * module's frames built with liburing's headers, llvm-readobj
 * --stack-sizes, plus qemu's measure of the epoll loop's wait below
 * cacs__io_fd_wait's call): a first read after the fork was about 944
 * (cacs__read_pn 96, cacs__uring_io 368, io_try_wait 304, the wait 176)
 * and an accept about 1,072, over 864; now 560 for the read (cacs__read_pn
 * 96, cacs__io_do_moved 288, the wait 176) and the epoll loop's accept
 * (368 measured) after the ring's part (about 690,
 * unmeasured as before); cacs_wait_fd about 272 -> the loop's 192.
 * The transfers' largest measured path, a thread's accept on io_uring
 * through _pn_bp, 528 -> 512 since (accept_ring preserve_none); the
 * budgets stay.
 */
/* The pool's own calls (cacs/pool.h's waits and spawn, cacs/pool_sync.h)
 * carry CACS_CONTRACT_POOL_WAIT_STACK_BUDGET: they take only the pool's
 * paths (its park, queues and timer heap; a plain thread's futex outside a
 * pool coroutine), not the I/O module's nor the single-thread scheduler's,
 * and an entry that waits only on them gets the smaller bound. */
/* The waits that park and move no data carry
 * CACS_CONTRACT_PARK_STACK_BUDGET: cacs/coro.h's (cacs_join, cacs_park,
 * cacs_park_timeout, cacs_sleep) and every wait of cacs/sync.h;
 * cacs_wait_fd carries CACS_CONTRACT_WAIT_FD_STACK_BUDGET, by the same
 * rule (its paths' measured maximum and the margin), its own since its
 * paths were cut below the others' (session 38). They run the scheduler's park
 * and, for cacs_wait_fd, the I/O module's registration, not a transfer's system
 * call, retries and readiness cache; the rare deep calls of a thread's first
 * wait (the loop's or the ring's setup, the timer heap's growth, the service
 * coroutine's creation, the records' tables' growth) run on the thread's
 * own stack through cacs__deep_call, a tail call; sync.c's waits inline
 * their record's wait into the preserve_none entries (no callee-saved
 * registers pushed below the park) and cacs_cond_wait relocks on its
 * wait's record. The I/O module's part runs in preserve_none helpers
 * (internal.h's CACS__IO_PN: cacs__io_fd_wait, the io_uring wait, the
 * pool ring's request start, the pool's waits for cacs_wait_fd), which
 * push no callee-saved registers below the park; a timed wait parks on
 * the deadline its call fixed (io_internal.h's io_park, sync.c's
 * wait_rec: cacs__park_until), not reading the clock again below the
 * park, and the one read that fixes a deadline runs on the thread's
 * stack too (sched.h's cacs__wait_now_ns: the vDSO's frames, 64 to 112
 * bytes on x86-64, are not below the wait's); the engine's pick
 * (getenv, the ring's setup) runs on the thread's stack, and the io_uring
 * wait makes a thread's first deep calls right below its own frame
 * (io_uring.c's req_fill); sync.c's one-thread records carry no inbox
 * record, and a shared object's shares the waiter's links. Measured
 * (LLVM 19's libcacs, -O2, session 36): x86-64 240 (a thread's first
 * cacs_wait_fd, either engine, and any on epoll; on io_uring 208, 224
 * timed; the first on io_uring was 288, timed or first on epoll 264),
 * 232 (a pool coroutine's cacs_wait_fd, either engine, timed or not;
 * was 248), 208 (cacs_chan_recv/send, timed or not; timed was 264), 192
 * (cond_wait, xsem_wait; timed was 248), the other sync.c waits 176;
 * AArch64 384 (a thread's cacs_wait_fd), 368 (a shared channel's; a
 * timed channel wait, 352 before: qemu's clock_gettime is shallower than
 * the deep call), 344 (a pool coroutine's cacs_wait_fd), 352 (the
 * channel's and xsem's), 272 (cacs_join); the runtime built by clang 22:
 * the same maxima (240, 384). Margins 40 and 64 over those. cacs_wait_fd
 * since (session 38, x86-64): its entry reaches each engine's wait by a
 * tail call, after its poll(2) in a frame of its own (io_wait.c's
 * cacs__io_poll_now), and each wait sets errno itself, so one frame (the
 * wait's) is below the caller while it is parked; the pool's epoll
 * registration and its timed-out re-arm run on the worker's stack, the
 * thread's poll set's growth on the thread's, the thread's parks call the
 * plain preserve_none entries (io_internal.h's io_park, not the _bp ones)
 * and its records' growth is preserve_none, the ring's poll wait is
 * inlined into it: 208 (a thread's first, either engine, or timed on
 * epoll; was 240), 200 (a pool coroutine's on io_uring; was 248), 192 (a
 * thread's on either engine), 168 (a pool coroutine's on epoll; was 232);
 * budget 248 (was the park budget's 280). AArch64 keeps the park
 * budget's 448. Its rare paths (session 39), measured since: a pool
 * coroutine's wait on a descriptor a cacs_close has forgotten and not yet
 * closed yields (its yield now inlined, as the park: 248 on io_uring
 * before, the parked 200 now; AArch64 448 -> 336), a timed-out wait
 * (the pool's check for a descriptor closed behind its back: 240 on
 * io_uring, 216 now), the epoll engine's epoll mode (a registration in
 * the wait: 216, 208 now) and its move from poll(2) to epoll (224, 208
 * now): x86-64 216 (LLVM 19; 208 LLVM 22), a margin of 32 under 248;
 * AArch64 352 (either LLVM; io_uring unmeasured there: qemu has none,
 * so 448 stays). Every number above counted, below the entry's own
 * return address, the frame of the test program's cold-call shield (the
 * safety pass's C-convention call of the entry: x86-64 five pushed
 * registers and its return address, 48 bytes; AArch64 x19-x28, d8-d15
 * and the frame record, 160), which a bounded caller's walk counts in
 * the caller's frames, not in the budget. Measured since (session 40)
 * below the stack pointer of a direct call, the budget tests built with
 * the shield off: x86-64 160 (a thread's first or timed cacs_wait_fd, on
 * either engine, LLVM 19 and 22), 152 (a pool coroutine's on io_uring),
 * 176 through the _pn_bp entry (CACS_YIELD_SAVE_BP: its push of rbx and
 * the inner call's return address, 16 more); budget 216, the margin of
 * 40 over that. AArch64 192 (a thread's, epoll), 176 (a pool coroutine's),
 * 208 through _pn_bp: 448 -> 288, the same 160 bytes out, the reserve
 * for its unmeasured io_uring path kept (96 over the direct 192).
 * The others, measured below the call too (session 41, LLVM 19, both
 * engines, direct and through _pn_bp): x86-64 yield 240 (the slow switch
 * through _pn_bp), park 208 (a channel's wait in a _pn_bp build, which
 * calls cacs/sync.h's C entries: the test holds them to the budget too;
 * 160 direct), transfers 528 (a thread's accept on io_uring through
 * _pn_bp): budgets 384 -> 336 (the shield's 48 out, the reserve kept),
 * 280 -> 248 and 704 -> 608 (margins 40 and 80). AArch64 yield 224 (512
 * -> 352, the shield's 160 out), park 368 (a timed channel wait through
 * the C entry; 208 direct): 448 -> 432, a margin of 64.
 * A pool coroutine's transfers wait through preserve_none helpers since
 * (internal.h's CACS__IO_PN: cacs__io_do_pool, cacs__pool_io_wait): its
 * accept 640 -> 528 on AArch64 (544 through _pn_bp), a read 576 -> 464;
 * x86-64 480 -> 424, 432 -> 376. AArch64's transfer budget stays 864 all
 * the same: its io_uring paths, which qemu cannot run, are unmeasured,
 * and their frames (llvm-readobj --stack-sizes of AArch64 objects built
 * with liburing's headers) along x86-64's deepest path, a thread's accept
 * on the ring (accept_ring 96, cacs__uring_accept 128, cacs__uring_io
 * 368, then the request's calls), come to about 690.
 * Valgrind's
 * paths are left out: its client requests add frames (a deep call's 72
 * bytes, sysstack.c, and io_uring.c's: 472 on x86-64, 640 on AArch64), so
 * libcacs uses no exact stack under Valgrind (coro.c's exact_rule). An
 * entry that waits only on these (a server that waits for readiness,
 * then reads on the system stack or with read(2)) gets the smaller
 * bound. */
#if defined(__x86_64__)
#define CACS_CONTRACT_YIELD_STACK_BUDGET 336
#define CACS_CONTRACT_WAIT_STACK_BUDGET 608
#define CACS_CONTRACT_PARK_STACK_BUDGET 248
#define CACS_CONTRACT_WAIT_FD_STACK_BUDGET 216
#define CACS_CONTRACT_POOL_WAIT_STACK_BUDGET 640
#define CACS_CONTRACT_SYSTEM_STACK_BUDGET 256
#elif defined(__aarch64__)
#define CACS_CONTRACT_YIELD_STACK_BUDGET 352
#define CACS_CONTRACT_WAIT_STACK_BUDGET 864
#define CACS_CONTRACT_PARK_STACK_BUDGET 432
#define CACS_CONTRACT_WAIT_FD_STACK_BUDGET 288
#define CACS_CONTRACT_POOL_WAIT_STACK_BUDGET 784
#define CACS_CONTRACT_SYSTEM_STACK_BUDGET 256
#endif
#define CACS__CONTRACT_STR2(x) #x
#define CACS__CONTRACT_STR(x) CACS__CONTRACT_STR2(x)
#if defined(CACS_CONTRACT_WAIT_STACK_BUDGET) && defined(__has_attribute)
#if __has_attribute(annotate)
#define CACS__STACK_BUDGET(bytes)                                              \
  __attribute__((annotate(                                                     \
      CACS_CONTRACT_STACK_BUDGET_ANNOTATION CACS__CONTRACT_STR(bytes))))
#endif
#endif
#ifndef CACS__STACK_BUDGET
#define CACS__STACK_BUDGET(bytes)
#endif

/* The names of libcacs's preserve_none entries: a call cacs_<name>(...)
 * binds to the entry CACS_CONTRACT_ENTRY_PREFIX "<name>" followed by one of
 * the suffixes (cacs/detail/bind.h); the compiler's diagnostics name such an
 * entry by the call the user wrote, cacs_<name>. */
#define CACS_CONTRACT_ENTRY_PREFIX "cacs__"
#define CACS_CONTRACT_ENTRY_SUFFIX "_pn"
#define CACS_CONTRACT_ENTRY_SUFFIX_BP "_pn_bp"
#define CACS_CONTRACT_ENTRY_SUFFIX_NONE "_pn_none"

/* Jump-entered switches (-fswitch-site-jumps, x86-64: SwitchSiteJump.cpp):
 * the compiler lowers a call of cacs_yield's, cacs_effect_perform's or
 * cacs_effect_resume's preserve_none entry to
 *   leaq 1f(%rip), %r11; movq %r11, -8(%rsp);
 *   jmpq *<entry>_jmp@GOTPCREL(%rip)
 *   1:
 * (the arguments and results in the call's registers; through the GOT,
 * never a lazily bound PLT entry, whose resolver writes below rsp; the
 * linker makes it a direct jump within a module), and the jump entry
 * (yield_x86_64.S, effect_x86_64.S) takes rsp as pointing just above that
 * word, where a call would have pushed its return address: the same
 * suspended layout as the entry's, without the call that the switch never
 * returns to. */
#define CACS_CONTRACT_JUMP_SUFFIX "_jmp"

/* The first line of the inline assembly of a marked in-stack yield (x86-64,
 * compiled by cacs): the InstackYield pass matches it character for character
 * and removes it. Assembled as it is (the pass did not run), it stops the
 * build with its message instead of producing a misaligned frame. */
#define CACS_CONTRACT_INSTACK_YIELD_MARKER                                     \
  ".error \"cacs: this in-stack yield needs the cacs pass plugin\"\n\t"

/* The first line of the assembly that keeps an in-stack generator's consumer
 * frame marker under SafeStack: the InstackYield pass removes it and keeps
 * the marker's allocation on the real stack. */
#define CACS_CONTRACT_INSTACK_CONSUMER_MARKER                                  \
  ".error \"cacs: an in-stack generator under SafeStack needs the cacs pass "  \
  "plugin\"\n\t"

#endif /* CACS_DETAIL_CONTRACT_H */
