"""Debian source packages for --real (apt-get source), cached in
$XDG_CACHE_HOME/cacs-difftest (~/.cache/cacs-difftest).

Debian's index may list a version whose files the archive no longer serves
(bookworm's security update of zlib, 1:1.2.13.dfsg-1+deb12u1, answers 404
while 1:1.2.13.dfsg-1 is still there). So every version `apt-cache showsrc`
lists is tried, newest first, each in a directory of its own, and the log
says which one was used; only when none can be fetched is it a failure.
"""

import functools
import glob
import os
import re
import shutil
import tempfile

from .common import log, run

CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cacs-difftest")
DEB_SRC = "/etc/apt/sources.list.d/cacs-deb-src.sources"


def have_deb_src():
    """Whether apt has a source-package entry (one-line or deb822 form; not
    in a comment)."""
    files = (glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list")
             + glob.glob("/etc/apt/sources.list.d/*.sources"))
    for p in files:
        for line in open(p, errors="replace"):
            if re.match(r"\s*deb-src\s", line) or re.match(r"\s*Types:.*\bdeb-src\b", line):
                return True
    return False


def add_deb_src():
    """Add deb-src twins of Debian's deb822 entries (with sudo when not root)
    and update apt's lists."""
    base = "/etc/apt/sources.list.d/debian.sources"
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if not os.path.exists(base) or (sudo and not shutil.which("sudo")):
        log("difftest: no deb-src entry in apt's sources and cannot add one (%s)"
            % ("no " + base if not os.path.exists(base) else "not root, no sudo"))
        return False
    text = re.sub(r"^Types: deb$", "Types: deb-src", open(base).read(), flags=re.M)
    tmp = os.path.join(CACHE, "deb-src.sources")
    with open(tmp, "w") as f:
        f.write(text)
    r = run(sudo + ["cp", tmp, DEB_SRC], timeout=60)
    os.remove(tmp)
    if not r.ok:
        log("difftest: cannot write %s: %s" % (DEB_SRC, r.err.strip()[-200:]))
        return False
    log("difftest: added %s (deb-src)" % DEB_SRC)
    run(sudo + ["apt-get", "update", "-qq"], timeout=600)
    return True


def _newer(a, b):
    """dpkg's order of two Debian versions (epochs, ~, +debNuM)."""
    if a == b:
        return 0
    return -1 if run(["dpkg", "--compare-versions", a, "gt", b], timeout=60).ok else 1


def source_versions(package):
    """The versions of source package `package` that apt's index lists,
    newest first (each once; apt-cache showsrc lists one per suite, in no
    useful order)."""
    r = run(["apt-cache", "showsrc", "--only-source", package], timeout=120)
    versions = []
    for stanza in r.out.split("\n\n"):
        name = re.search(r"^Package: (\S+)$", stanza, re.M)
        version = re.search(r"^Version: (\S+)$", stanza, re.M)
        if name and version and name.group(1) == package and version.group(1) not in versions:
            versions.append(version.group(1))
    return sorted(versions, key=functools.cmp_to_key(_newer))


def tree_version(tree):
    """The Debian version of an unpacked source tree (debian/changelog's
    first entry), or None."""
    try:
        with open(os.path.join(tree, "debian", "changelog"), errors="replace") as f:
            m = re.match(r"\S+ \(([^)]+)\)", f.readline())
    except OSError:
        return None
    return m.group(1) if m else None


def _tree(where, package, probe):
    found = glob.glob(os.path.join(where, package + "-*", probe))
    return found[0][:-len(probe)].rstrip("/") if found else None


def fetch_source(package, probe):
    """The top directory of Debian source package `package` (cached), via
    apt-get source; `probe` is a file the tree must contain. None, after
    saying why, when no version apt lists can be fetched."""
    if _tree(CACHE, package, probe):
        return _tree(CACHE, package, probe)
    os.makedirs(CACHE, exist_ok=True)
    versions = source_versions(package)
    if not versions and not have_deb_src() and add_deb_src():
        versions = source_versions(package)
    if not versions:
        log("difftest: apt knows no source package %s (apt-cache showsrc --only-source %s lists nothing)"
            % (package, package))
        return None
    for i, version in enumerate(versions):
        # Each try in a directory of its own: a failed one leaves nothing
        # (a .dsc, half a tree) that a later one or the cache could take.
        tmp = tempfile.mkdtemp(prefix=".fetch-%s-" % package, dir=CACHE)
        try:
            r = run(["apt-get", "source", "-qq", "%s=%s" % (package, version)], cwd=tmp, timeout=600)
            tree = _tree(tmp, package, probe)
            if tree is None:
                lines = [l for l in (r.err + r.out).strip().splitlines() if l.strip()]
                log("difftest: apt-get source %s=%s failed (%d of %d versions): %s"
                    % (package, version, i + 1, len(versions),
                       " | ".join(lines[-3:])[-400:] or "rc %d, no tree with %s" % (r.rc, probe)))
                continue
            for name in os.listdir(tmp):
                dest = os.path.join(CACHE, name)
                if os.path.isdir(dest) and not os.path.islink(dest):
                    shutil.rmtree(dest)  # a tree without the probe: broken
                os.replace(os.path.join(tmp, name), dest)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        log("difftest: fetched source %s %s (%s)" % (
            package, version, "the newer ones failed" if i else
            "newest of %d listed" % len(versions) if len(versions) > 1 else "the one listed"))
        return _tree(CACHE, package, probe)
    log("difftest: no version of source package %s could be fetched (tried %s)"
        % (package, ", ".join(versions)))
    return None
