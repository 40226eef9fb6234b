"""Tiny bit helpers for numba code (numba has no popcount builtin)."""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@njit(cache=True, inline="always")
def popcount32(x):
    """Number of set bits of a 32-bit mask (SWAR)."""
    x = np.uint32(x)
    x = x - ((x >> np.uint32(1)) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> np.uint32(2)) & np.uint32(0x33333333))
    x = (x + (x >> np.uint32(4))) & np.uint32(0x0F0F0F0F)
    return np.int64(((x * np.uint32(0x01010101)) >> np.uint32(24)) & np.uint32(0xFF))


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero 32-bit mask."""
    x = np.uint32(x)
    return popcount32((x & (~x + np.uint32(1))) - np.uint32(1))


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (LLVM ctpop: one instruction where the CPU has popcnt)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        """Emit llvm.ctpop."""
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def ctz(typingctx, x):
    """Index of the lowest set bit of a non-zero integer (LLVM cttz: one tzcnt/bsf instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        """Emit llvm.cttz (a zero argument is undefined: callers only pass non-zero masks)."""
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


def _cpu_has_bmi2() -> bool:
    """Whether numba compiles for a CPU with BMI2 (pdep): the host's, or the one NUMBA_CPU_* names."""
    from numba.core import config

    if config.CPU_FEATURES:
        return "+bmi2" in config.CPU_FEATURES.split(",")
    if config.CPU_NAME and config.CPU_NAME != "host":
        return False
    try:
        import llvmlite.binding as llvm

        return bool(llvm.get_host_cpu_features().get("bmi2", False))
    except Exception:  # noqa: BLE001 (no feature map: take the portable path)
        return False


HAVE_PDEP = _cpu_has_bmi2()


@intrinsic
def _pdep_bmi2(typingctx, src, mask):
    """BMI2 pdep on uint64 (LLVM llvm.x86.bmi.pdep.64)."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        """Emit the x86 intrinsic."""
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, inline="always")
def _pdep_portable(src, mask):
    """pdep without BMI2: deposit the low bits of `src` into the set bits of `mask`, lowest first."""
    src = np.uint64(src)
    mask = np.uint64(mask)
    out = np.uint64(0)
    bb = np.uint64(1)
    while mask:
        low = mask & (~mask + np.uint64(1))
        if src & bb:
            out |= low
        mask ^= low
        bb <<= np.uint64(1)
    return out


if HAVE_PDEP:
    @njit(cache=True, inline="always")
    def pdep(src, mask):
        """Deposit the low bits of `src`, in order, into the set bits of `mask` (x86 BMI2 pdep).

        `pdep(1 << r, m)` is the r-th lowest set bit of m; `pdep(pattern, m)` maps a pattern
        over popcount(m) positions onto the positions of m.
        """
        return _pdep_bmi2(np.uint64(src), np.uint64(mask))
else:
    @njit(cache=True, inline="always")
    def pdep(src, mask):
        """Deposit the low bits of `src`, in order, into the set bits of `mask` (portable loop)."""
        return _pdep_portable(src, mask)


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """Bit position of the k-th (0-based) set bit of mask, lowest first."""
    return np.int64(ctz(pdep(np.uint64(1) << np.uint64(k), mask)))
