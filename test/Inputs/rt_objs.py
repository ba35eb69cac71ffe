#!/usr/bin/env python3
"""The objects of libcacs's sources (and, with --io, the I/O module's),
compiled by a test's own compiler command, once per lit run.

  $(%cacs_rt_objs COMPILER FLAGS...)       libcacs
  $(%cacs_rt_objs --io COMPILER FLAGS...)  libcacs and the I/O module

prints the object files, each made by `COMPILER FLAGS... -c SOURCE -o OBJ`.
That is what the same compiler does to %cacs_rt_srcs on a command line that
also links, so `%clang F t.c $(%cacs_rt_objs %clang F)` builds what
`%clang F t.c %cacs_rt_srcs` builds. Tests that build the runtime with the
same command share one compile: about eight seconds of CPU each, some forty
times a run before.

The cache is lit.cfg.py's: a folder per lit process (CACHE), made empty when
lit starts, so a run never sees objects of an older build. One lock per
command: a second test with the same command waits for the first's objects.
"""
import fcntl
import hashlib
import os
import subprocess
import sys


def sources(cache, name):
    with open(os.path.join(cache, name)) as f:
        return f.read().split()


def main(argv):
    cache, args = argv[0], argv[1:]
    io = bool(args) and args[0] == "--io"
    if io:
        args = args[1:]
    if not args:
        sys.exit("rt_objs: no compiler command")
    key = hashlib.sha256("\0".join(args).encode()).hexdigest()[:16]
    out = os.path.join(cache, key)
    os.makedirs(out, exist_ok=True)
    srcs = sources(cache, "rt-srcs") + (sources(cache, "io-srcs") if io else [])
    root = os.path.commonpath(srcs)
    objs = []
    with open(os.path.join(out, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for src in srcs:
            # pool/pool.c -> pool_pool.c.o: names stay unique.
            rel = os.path.relpath(src, root)
            obj = os.path.join(out, rel.replace(os.sep, "_") + ".o")
            if not os.path.exists(obj):
                tmp = obj + ".tmp"
                r = subprocess.run(args + ["-c", src, "-o", tmp])
                if r.returncode != 0:
                    sys.exit("rt_objs: %s failed on %s" % (" ".join(args), src))
                os.replace(tmp, obj)
            objs.append(obj)
    print(" ".join(objs))


if __name__ == "__main__":
    main(sys.argv[1:])
