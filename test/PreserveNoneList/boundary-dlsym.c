// A name a program looks up at run time leads to the C entry: a plugin and
// its host both built with `fun:plug*`; the host takes plug12 and plug3 from
// dlsym (and its own plug_local from dlsym(RTLD_DEFAULT), linked with
// -rdynamic) and calls them through C function pointers. The plain names are
// C-convention entries, so the results are stock clang's (with the
// preserve_none body under the plain name, plug12 read the C registers'
// garbage: issue 21, defect 3).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -fPIC -shared %S/Inputs/boundary/plugin.c -o %t/ref.so
// RUN: %stock_clang -O0 -rdynamic %S/Inputs/boundary/host.c -o %t/ref -ldl
// RUN: %t/ref %t/ref.so > %t/expected
// RUN: for O in -O0 -O2; do \
// RUN:   %clang $O -fPIC -shared %S/Inputs/boundary/plugin.c -o %t/plugin.so -fpreserve-none-list=%S/Inputs/boundary/plug.list && \
// RUN:   %clang $O -rdynamic %S/Inputs/boundary/host.c -o %t/host -ldl -fpreserve-none-list=%S/Inputs/boundary/plug.list && \
// RUN:   %t/host %t/plugin.so > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for O in -O0 -O2; do \
// RUN:   %clang %aarch64_flags $O -fPIC -shared %S/Inputs/boundary/plugin.c -o %t/plugin-a64.so -fpreserve-none-list=%S/Inputs/boundary/plug.list && \
// RUN:   %clang %aarch64_flags $O -rdynamic %S/Inputs/boundary/host.c -o %t/host-a64 -ldl -fpreserve-none-list=%S/Inputs/boundary/plug.list && \
// RUN:   %run_aarch64 %t/host-a64 %t/plugin-a64.so > %t/out-a64 && diff %t/expected %t/out-a64 || exit 1; \
// RUN: done %}
