# lit configuration for cacs. Tools come from the configured LLVM (the build
# directory's lit.site.cfg.py says which); the cacs front door and plugins from
# the build directory.
import os
import platform
import re
import shutil
import subprocess
import sys

import lit.formats
import lit.util

config.name = "cacs"

# The I/O tests run once per engine of cacs/io.h (io_engines.py); the
# engines are known once the build's configuration is (below).
sys.path.insert(0, os.path.dirname(__file__))
from io_engines import IoEnginesTest  # noqa: E402

config.test_format = IoEnginesTest(not lit.util.which("bash") is None)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "io_engines.py", "__pycache__"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cacs_obj_root, "test")

# FileCheck, not, count, llc, opt, ... of the configured LLVM come first.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
# XDG_CACHE_HOME: where setup left the Debian sources of the real-code tests.
# YARPGEN_DIR: a YARPGen tree the user built (the yarpgen feature below).
for var in ["HOME", "TMPDIR", "LANG", "LC_ALL", "XDG_CACHE_HOME", "YARPGEN_DIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

bin_dir = os.path.join(config.cacs_obj_root, "bin")
lib_dir = os.path.join(config.cacs_obj_root, "lib")
passes = os.path.join(lib_dir, "CACSPasses.so")
clang_plugin = os.path.join(lib_dir, "CACSClangPlugin.so")
rt_dir = os.path.join(config.cacs_obj_root, "runtime")

# Tests that build the runtime with their own flags share the objects of one
# command (test/Inputs/rt_objs.py): a folder per lit process, under which
# nothing outlives the run's build; folders of lit processes that have ended
# are removed.
rt_objs_root = os.path.join(config.test_exec_root, "rt-objs")
os.makedirs(rt_objs_root, exist_ok=True)
for _d in os.listdir(rt_objs_root):
    try:
        os.kill(int(_d), 0)
    except (ValueError, ProcessLookupError):
        shutil.rmtree(os.path.join(rt_objs_root, _d), ignore_errors=True)
    except PermissionError:
        pass
rt_objs_cache = os.path.join(rt_objs_root, str(os.getpid()))
shutil.rmtree(rt_objs_cache, ignore_errors=True)
os.makedirs(rt_objs_cache)
for _name, _srcs in (("rt-srcs", config.cacs_rt_srcs), ("io-srcs", config.cacs_io_srcs)):
    with open(os.path.join(rt_objs_cache, _name), "w") as _f:
        _f.write(_srcs)

config.substitutions.extend(
    [
        ("%clangxx", os.path.join(bin_dir, "clang++")),
        ("%clang", os.path.join(bin_dir, "clang")),
        ("%stock_clangxx", os.path.join(config.llvm_tools_dir, "clang++")),
        ("%stock_clang", os.path.join(config.llvm_tools_dir, "clang")),
        ("%cacs_passes", passes),
        ("%cacs_clang_plugin", clang_plugin),
        ("%opt_cacs", "opt -load-pass-plugin=" + passes),
        ("%llvm_major", config.llvm_version_major),
        ("%cacs_include", os.path.join(config.cacs_src_root, "runtime", "include")),
        ("%cacs_rt_x86_64", os.path.join(rt_dir, "x86_64", "libcacs.a")),
        ("%cacs_rt_aarch64", os.path.join(rt_dir, "aarch64", "libcacs.a")),
        # The I/O module; link it before libcacs.
        # (and on x86-64 what it needs after it: liburing).
        ("%cacs_io_x86_64", os.path.join(rt_dir, "x86_64", "libcacs_io.a")
         + (" " + config.cacs_io_link if config.cacs_io_link else "")),
        ("%cacs_io_aarch64", os.path.join(rt_dir, "aarch64", "libcacs_io.a")),
        # libcacs's and the I/O module's sources, for tests that build the
        # runtime with their own flags (each .S is empty on the other
        # architecture).
        ("%cacs_rt_srcs", config.cacs_rt_srcs),
        ("%cacs_io_srcs", config.cacs_io_srcs),
        # The same sources as objects of the command that follows, compiled
        # once per lit run: $(%cacs_rt_objs [--io] COMPILER FLAGS...).
        (
            "%cacs_rt_objs",
            "python3 %s %s"
            % (os.path.join(config.test_source_root, "Inputs", "rt_objs.py"), rt_objs_cache),
        ),
        ("%aarch64_flags", "--target=aarch64-linux-gnu"),
        ("%run_aarch64", "%s -L %s" % (config.qemu_aarch64, config.aarch64_sysroot)),
        ("%cacs_src_root", config.cacs_src_root),
        ("%cacs_obj_root", config.cacs_obj_root),
    ]
)

config.available_features.add("llvm-" + config.llvm_version_major)
# The I/O module's io_uring engine: built with liburing and not disabled by
# sysctl (kernel.io_uring_disabled, Linux 6.6). Then the I/O tests run on
# both engines (IoEnginesTest).
def _io_uring_enabled():
    try:
        with open("/proc/sys/kernel/io_uring_disabled") as f:
            return f.read().strip() == "0"
    except OSError:
        return True
if config.cacs_have_liburing.upper() in ("1", "TRUE", "ON", "YES") and \
        _io_uring_enabled():
    config.available_features.add("io-uring")
    # --param cacs_io_engines=epoll (or uring, or uring,epoll): the engines
    # the I/O tests run on. By default each LLVM's suite takes one engine
    # (19: epoll, 22: io_uring), since an I/O test is mostly the runtime's
    # logic and runs its whole script, compilations included, per engine:
    # CI runs both suites, so one CI run covers both engines.
    _default_engines = "epoll" if config.llvm_version_major == "19" else "uring"
    config.test_format.engines = tuple(
        lit_config.params.get("cacs_io_engines", _default_engines).split(","))
    config.test_format.all_tests = lit_config.params.get(
        "cacs_io_all_engines", "0") not in ("0", "")
    # The other tests that link the module run once. The module picks
    # io_uring, so where this suite's engine is epoll (LLVM 19's) they are
    # pinned to it: CI then runs them on each engine, the fallback's
    # included. io_engines.py sets the variable per pass for the tests it
    # runs per engine.
    if config.test_format.engines[0] == "epoll":
        config.environment["CACS_IO_ENGINE"] = "epoll"
if config.qemu_aarch64 and os.path.isdir(config.aarch64_sysroot):
    config.available_features.add("qemu-aarch64")
for tool in ["valgrind", "gdb", "gcc"]:
    if getattr(config, tool):
        config.available_features.add(tool)
# docs/api.md is generated from the headers through Doxygen (Docs/api-index.test).
if shutil.which("doxygen"):
    config.available_features.add("doxygen")
# The fuzz targets of fuzz/ (CMake's CACS_FUZZ: where the compiler links
# libFuzzer); test/Fuzz runs a slice of each (scripts/fuzz --slice).
if all(os.path.exists(os.path.join(config.cacs_obj_root, "fuzz", "fuzz-" + t))
       for t in ("list", "list-lines", "settings", "args", "stack-bounds", "http")):
    config.available_features.add("fuzz")
# State Threads (libst-dev), a peer of bench/net (Runtime/io-overload-peers.test).
if os.path.exists("/usr/include/st.h"):
    config.available_features.add("libst")
if shutil.which("csmith"):
    config.available_features.add("csmith")
# YARPGen, a second program generator for scripts/difftest (--yarpgen): not
# part of cacs nor fetched by it; built by the user, named by YARPGEN_DIR.
_yarpgens = [os.path.join(os.environ.get("YARPGEN_DIR", "/nonexistent"), *p)
             for p in (("yarpgen",), ("build", "yarpgen"))]
if any(os.path.isfile(p) and os.access(p, os.X_OK) for p in _yarpgens):
    config.available_features.add("yarpgen")
if shutil.which("cvise") or shutil.which("creduce"):
    config.available_features.add("reducer")
# Guard regions inside one mapping (MADV_GUARD_INSTALL): Linux >= 6.13.
_kver = re.match(r"(\d+)\.(\d+)", platform.release())
if _kver and (int(_kver.group(1)), int(_kver.group(2))) >= (6, 13):
    config.available_features.add("madv-guard")
# Unprivileged user namespaces: the way a test run as root can still make a
# file unreadable (see PreserveNoneList/bad-input-unreadable.test).
if shutil.which("unshare") and subprocess.run(
        ["unshare", "-U", "true"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("userns")
