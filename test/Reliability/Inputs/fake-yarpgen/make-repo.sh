#!/usr/bin/env bash
# make-repo.sh DIR: a git repository laid out as YARPGen's (CMakeLists.txt,
# src/, README.md) whose CMake build makes a `yarpgen` that prints the
# version of the commit it was built from: "fake 1" at the first commit,
# "fake 2" at the second (HEAD). For difftest-yarpgen-fetch.test.
set -e
d=$1
mkdir -p "$d/src"
cd "$d"
git init -q .
git config user.email test@cacs.invalid
git config user.name test
printf 'cmake_minimum_required(VERSION 3.13)\nproject(fake C)\nadd_executable(yarpgen src/main.c)\n' > CMakeLists.txt
echo 'fake YARPGen' > README.md
for v in 1 2; do
  printf '#include <stdio.h>\nint main(void) { puts("yarpgen version fake %s"); return 0; }\n' $v > src/main.c
  git add -A && git commit -q -m "fake $v"
done
