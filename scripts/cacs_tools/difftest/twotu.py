"""The two-TU build of a csmith program (the lto-2tu variant): the
program's TU compiled with main renamed, a wrapper main in a TU of its own,
and their LTO link. Shared by the test (programs.py) and the reduction
(reduce.py), which saves it as a two-TU regression test."""

import os

# The two-TU variant: the program's TU is compiled with main renamed and a
# prototype of it included (a reduction that changes main's parameters then
# no longer compiles), the wrapper main without any cacs flag.
MAIN_PROTO = "int csmith_main(int, char **);\n"
MAIN_WRAPPER = MAIN_PROTO + "int main(int argc, char **argv) { return csmith_main(argc, argv); }\n"


def two_tu_commands(clang, flags, cflags, target, src, files, exe, link_extra=()):
    """The three command lines of the two-TU build; files names the
    prototype header, the wrapper's source and the two objects. Used by the
    test itself, the reduction's interestingness script and the saved
    regression test (with lit's %clang and %t names)."""
    proto, wrapper, o1, o2 = files
    return [[clang] + flags + cflags + target + ["-include", proto, "-Dmain=csmith_main", "-c", src, "-o", o1],
            [clang, "-O0", "-flto"] + target + ["-c", wrapper, "-o", o2],
            [clang, "-O2", "-flto"] + target + [o1, o2, "-o", exe, "-Wl,-mllvm,-verify-machineinstrs"]
            + list(link_extra)]


def write_two_tu_files(d):
    files = [os.path.join(d, n) for n in ("csmith-main.h", "main-wrapper.c", "tu1.o", "tu2.o")]
    for path, text in zip(files, (MAIN_PROTO, MAIN_WRAPPER)):
        with open(path, "w") as f:
            f.write(text)
    return files
