// Whether a device function's atomic calls can see the order blocks run in
// (atomic_order.cpp). GCC-internal headers must come first: include it after
// gcc-plugin.h.
#pragma once

// Defines __warpviz_order_dependent_atomic in the translation unit, naming the
// call, when `fn` (device code outside the kit's headers) makes an atomic call
// whose outcome depends on the order of blocks.
void note_order_dependent_atomics(tree fn, gimple_seq body);
