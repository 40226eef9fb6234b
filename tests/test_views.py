"""Arrays passed by address (tianjiu_sim/kernels/views.py): the views read and write the arrays they stand for."""
from __future__ import annotations

import numpy as np
from numba import njit

from tianjiu_sim.kernels.views import address, float_table, table, vector


@njit
def _through_views(v, t, f):
    a = np.empty(3, dtype=np.int64)
    a[0] = address(v)
    a[1] = address(t)
    a[2] = address(f)
    vv = vector(a[0], v.shape[0])
    tt = table(a[1], t.shape[0], t.shape[1])
    ff = float_table(a[2], f.shape[0], f.shape[1])
    vv[2] += 7
    tt[1, 2] = vv[2] * 10
    ff[2, 1] = 0.5 + tt[0, 3]
    return vv.shape[0], tt.shape[0], tt.shape[1], ff.shape[1], tt[1].sum(), ff[2].sum()


def test_views_share_memory_and_shape_with_their_arrays():
    """Writes through a view land in the array; shapes and row views are the array's."""
    v = np.arange(5, dtype=np.int64)
    t = np.arange(12, dtype=np.int64).reshape(3, 4)
    f = np.zeros((4, 2))
    got = _through_views(v, t, f)
    assert v[2] == 9 and t[1, 2] == 90 and f[2, 1] == 3.5
    assert got == (5, 3, 4, 2, 4 + 5 + 90 + 7, 3.5)
