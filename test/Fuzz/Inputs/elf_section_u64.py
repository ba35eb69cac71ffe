"""Writes a copy of an ELF64 little-endian program with the 8 bytes at
OFFSET in section NAME replaced by VALUE.
Usage: elf_section_u64.py IN OUT NAME OFFSET VALUE"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)


def header(i):
    at = shoff + i * shentsize
    name, = struct.unpack_from("<I", data, at)
    offset, size = struct.unpack_from("<QQ", data, at + 0x18)
    return name, offset, size


_, strtab, _ = header(shstrndx)
for i in range(shnum):
    name, offset, size = header(i)
    end = data.index(b"\0", strtab + name)
    if data[strtab + name:end].decode() == sys.argv[3]:
        at = int(sys.argv[4], 0)
        assert at + 8 <= size, "past the end of the section"
        struct.pack_into("<Q", data, offset + at, int(sys.argv[5], 0))
        break
else:
    sys.exit("no section " + sys.argv[3])
open(sys.argv[2], "wb").write(data)
