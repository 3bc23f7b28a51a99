// The GPU's results for plain C++ operations whose x86 result differs (or
// traps), written as GIMPLE: each function replaces the statement at `gsi`
// with code that computes what the H200 computes (tests/h200_probes/
// plain_cpp_semantics.out, decoded in docs/floats.md). GCC-internal headers
// must come first, so this header includes none: include it after gcc-plugin.h.
#pragma once

// Integer `/` and `%` (TRUNC_DIV_EXPR, TRUNC_MOD_EXPR): division by zero and
// MIN / -1 give the GPU's values instead of SIGFPE.
bool rewrite_division(gimple_stmt_iterator* gsi);
// `<<` and `>>` by an amount that may be the width or more: the GPU clamps it.
bool rewrite_shift(gimple_stmt_iterator* gsi);
// float/double to integer (FIX_TRUNC_EXPR): the GPU saturates.
bool rewrite_float_to_int(gimple_stmt_iterator* gsi);
// UBSan's checks of the three above (sanitized builds): the GPU defines the
// results, so reporting them as undefined would stop a correct program.
bool drop_ubsan_check(gimple_stmt_iterator* gsi);
// A volatile load or store of memory other lanes can see (not a local of the
// lane's own): a call to __warpviz_converged_access(line, site) goes before
// it, where the lanes of the warp converged there meet, so that each access
// is made by all of them before any goes on (a converged warp's one
// instruction). Returns whether it inserted one.
bool meet_before_volatile_access(gimple_stmt_iterator* gsi);
// The garbage collector's roots for the declaration it calls (register with
// PLUGIN_REGISTER_GGC_ROOTS).
const void* converged_access_gc_roots();
// The statement's source line, 0 where it has none: what the calls the
// rewrites insert pass on, for the trace and for reports.
unsigned source_line(const gimple* stmt);
// A load or store of a `__shared__` variable (a thread_local in device code)
// of 1 to 8 bytes: a call to __warpviz_shared_load or __warpviz_shared_store,
// which the emulator records as a warp-wide shared access. Returns whether it
// rewrote the statement.
// Through a pointer derived (in the same function) from an `extern __shared__`
// array's pointer, marked warpviz_shared_pointer: __warpviz_shared_pointer_load
// or _store. Call begin_shared_access_function before each function.
bool record_shared_access(gimple_stmt_iterator* gsi);
void begin_shared_access_function();
void register_shared_pointer_attribute();
const void* shared_access_gc_roots();
