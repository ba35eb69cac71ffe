//===- lib/io_entries.S - The I/O module's _bp entries ----------*- asm -*-===//
//
// cacs/io.h binds the calls that may wait to preserve_none entries (io.c),
// or, for callers that may keep a base pointer in rbx / x19 across such a
// call, to these (entry_asm.h). Part of libcacs_io, beside the entries.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"

#if defined(__x86_64__) || defined(__aarch64__)
        SAVE_BP cacs__wait_fd_pn
        SAVE_BP cacs__read_pn
        SAVE_BP cacs__write_pn
        SAVE_BP cacs__readv_pn
        SAVE_BP cacs__writev_pn
        SAVE_BP cacs__recv_pn
        SAVE_BP cacs__send_pn
        SAVE_BP cacs__write_all_pn
        SAVE_BP cacs__accept_pn
        SAVE_BP cacs__connect_pn
#endif

        ENTRY_NOTES
