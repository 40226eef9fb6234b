"""Arrays passed by address: one small context array instead of many array arguments in a deep recursion.

numba passes an array argument as its whole structure (two pointers, sizes, shape, strides: 7 words
for a vector, 9 for a table), so a recursive kernel with twelve arrays copies about a hundred words
at every call (`kernels/solver.py`: a fifth of a node's time; benchmarks/README.md, stop 26).  The
caller writes each array's address and shape once into an int64 vector (`address`); the callee
rebuilds the same arrays from it (`vector`, `table`, `float_table`) in a few instructions.

The views own nothing: the arrays they read must outlive the call that uses them (the caller holds
them), be C-contiguous, and have the dtype the view says.
"""
from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def address(typingctx, arr):
    """The address of a C-contiguous array's first element, as an int64."""
    if not (isinstance(arr, types.Array) and arr.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        ary = make_array(signature.args[0])(context, builder, args[0])
        return builder.ptrtoint(ary.data, context.get_value_type(types.int64))

    return types.int64(arr), codegen


def _build(dtype, ndim):
    """The codegen of a view: a C-contiguous `dtype` array of `ndim` dimensions from (address, *shape)."""
    aryty = types.Array(dtype, ndim, "C")

    def codegen(context, builder, signature, args):
        ary = make_array(aryty)(context, builder)
        data = builder.inttoptr(args[0], context.get_value_type(dtype).as_pointer())
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(dtype)))
        dims = list(args[1:])
        strides = [itemsize]
        for d in reversed(dims[1:]):
            strides.insert(0, builder.mul(strides[0], d))
        populate_array(ary, data=data, shape=cgutils.pack_array(builder, dims),
                       strides=cgutils.pack_array(builder, strides), itemsize=itemsize, meminfo=None)
        return ary._getvalue()

    return aryty(types.int64, *([types.int64] * ndim)), codegen


@intrinsic
def vector(typingctx, addr, n):
    """The int64 vector of n elements at an address (`address`)."""
    return _build(types.int64, 1)


@intrinsic
def table(typingctx, addr, rows, cols):
    """The C-contiguous int64 table of rows × cols at an address."""
    return _build(types.int64, 2)


@intrinsic
def float_table(typingctx, addr, rows, cols):
    """The C-contiguous float64 table of rows × cols at an address."""
    return _build(types.float64, 2)
