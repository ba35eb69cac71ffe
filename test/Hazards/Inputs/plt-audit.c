// An LD_AUDIT library with la_pltenter (x86-64): glibc then routes every
// call through a lazily bound PLT entry, not only the first, through
// _dl_runtime_profile, which preserves the C argument registers only.
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>

unsigned la_version(unsigned v) { return LAV_CURRENT; }

unsigned la_objopen(struct link_map *m, Lmid_t l, uintptr_t *cookie) {
  return LA_FLG_BINDTO | LA_FLG_BINDFROM;
}

uintptr_t la_symbind64(Elf64_Sym *sym, unsigned idx, uintptr_t *refcook,
                       uintptr_t *defcook, unsigned *flags, const char *name) {
  return sym->st_value;
}

Elf64_Addr la_x86_64_gnu_pltenter(Elf64_Sym *sym, unsigned idx,
                                  uintptr_t *refcook, uintptr_t *defcook,
                                  La_x86_64_regs *regs, unsigned *flags,
                                  const char *name, long *framesizep) {
  return sym->st_value;
}
