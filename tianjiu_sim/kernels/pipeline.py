"""The play worker's numba pipeline: numba's nopython pipeline plus copy propagation after typing.

`inline="always"` binds every argument of an inlined function to a fresh variable, and each
array variable costs an NRT incref where it is bound and a decref where it dies. LLVM's
reference-count pruning cannot pair most of these across the branches of the inlined
strategies, so without this step a greedy hk deal made ~215 increfs and ~220 decrefs (atomic
calls, ~40 % of its time). A kernel compiled with parallel=True never paid them: its parfor
pass copy-propagates the aliases away (`ir_utils.simplify`), which is how the engine ran
before it moved out of the parallel kernel into `runner._play_worker`. This pipeline runs
that one step without the parfor passes (whose compile time is why the worker is separate).
"""
from __future__ import annotations

from numba.core import ir_utils
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.typed_passes import NopythonRewrites


@register_pass(mutates_CFG=True, analysis_only=False)
class CopyPropagation(FunctionPass):
    """Replace copies of variables by the originals and drop dead code, as the parfor pass does."""

    _name = "tjsim_copy_propagation"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        ir_utils.simplify(state.func_ir, state.typemap, state.calltypes, {})
        state.func_ir._definitions = ir_utils.build_definitions(state.func_ir.blocks)
        return True


class CopyPropagatingCompiler(CompilerBase):
    """numba's nopython pipeline with `CopyPropagation` after the typed rewrites."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.add_pass_after(CopyPropagation, NopythonRewrites)
        pm.finalize()
        return [pm]
