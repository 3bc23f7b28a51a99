// fiber_switch.h's switch. The saved context is Boost.Context's x86-64 SysV
// frame, 0x40 bytes at the context's stack pointer: the MXCSR and x87
// control words (0x0, 0x4), r12, r13, r14, r15, rbx, rbp (0x8 to 0x30), the
// return address (0x38). A switch returns {the context left, data} in rax:rdx,
// and a fiber's first entry (Boost's trampoline) takes them in rdi:rsi.
#include "fiber_switch.h"

#if defined(__x86_64__) && defined(__ELF__)

asm(R"(
    .text
    .p2align 4
    .globl warpviz_switch_fcontext
    .hidden warpviz_switch_fcontext
    .type warpviz_switch_fcontext, @function
warpviz_switch_fcontext:
    endbr64
    leaq -0x38(%rsp), %rsp
    stmxcsr (%rsp)
    fnstcw 0x4(%rsp)
    movq %r12, 0x8(%rsp)
    movq %r13, 0x10(%rsp)
    movq %r14, 0x18(%rsp)
    movq %r15, 0x20(%rsp)
    movq %rbx, 0x28(%rsp)
    movq %rbp, 0x30(%rsp)
    movq %rsp, %rax
    movq %rdi, %rsp
    movq 0x8(%rsp), %r12
    movq 0x10(%rsp), %r13
    movq 0x18(%rsp), %r14
    movq 0x20(%rsp), %r15
    movq 0x28(%rsp), %rbx
    movq 0x30(%rsp), %rbp
    leaq 0x38(%rsp), %rsp
    movq %rsi, %rdx
    movq %rax, %rdi
    ret
    .size warpviz_switch_fcontext, .-warpviz_switch_fcontext
    .section .note.GNU-stack,"",@progbits
    .text
)");

#endif
