// sync-cxx.cpp with AddressSanitizer (the runtime compiled with it too):
// no leak (boxed channel items), no use of a waiter record after its wait.
// On LLVM 22 this file used to stop the backend with "Stack realignment in
// presence of dynamic allocas is not supported with this calling
// convention": an invoke of a preserve_none function from a frame with a
// base pointer (test/Hazards/invoke-base-pointer.cpp).
//
// RUN: %clangxx -std=c++17 -O1 -g -fsanitize=address -I%cacs_include %S/sync-cxx.cpp $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %ta
// RUN: env ASAN_OPTIONS=detect_leaks=1 %ta 2>&1 | FileCheck %S/sync-cxx.cpp
