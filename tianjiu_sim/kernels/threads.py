"""Threads: numba's worker-thread count (results never depend on it) and the counter workers share."""
from __future__ import annotations

import numba
from numba.core import cgutils, types
from numba.extending import intrinsic


def set_threads(threads: int | None) -> None:
    """Limit numba's worker threads to `threads`, within what numba started with (None: leave as is)."""
    if threads is not None:
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


@intrinsic
def fetch_add1(typingctx, arr, idx):
    """Atomically add 1 to arr[idx] (int64) and return the value it had (LLVM atomicrmw)."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and isinstance(idx, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        """Emit `atomicrmw add` on the element's address."""
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i])
        return builder.atomic_rmw("add", ptr, context.get_constant(types.int64, 1), "seq_cst")

    return types.int64(arr, idx), codegen
