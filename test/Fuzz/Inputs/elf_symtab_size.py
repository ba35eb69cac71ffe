"""Writes a copy of an ELF64 little-endian program whose symbol table's
sh_size is SIZE (it then reaches past the end of the file).
Usage: elf_symtab_size.py IN OUT SIZE"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
for i in range(shnum):
    at = shoff + i * shentsize
    if struct.unpack_from("<I", data, at + 4)[0] == 2:  # SHT_SYMTAB
        struct.pack_into("<Q", data, at + 0x20, int(sys.argv[3], 0))
open(sys.argv[2], "wb").write(data)
