"""Machine-level helpers the kernels share, each with a plain-Python body so that
``NUMBA_DISABLE_JIT=1`` runs (tests/kernel/test_plain_python.py) play the same games."""

import numpy as np
from numba import njit
from numba.core import errors, types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.dispatcher import Dispatcher
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, overload


class _ArraysApart(CompilerBase):
    """numba's nopython pipeline, with every pointer argument of the compiled function marked
    ``noalias``: a promise to LLVM that no two arrays it is given share memory, so a store into
    one (the state) does not force it to reload another (the rules, the random stream) and values
    stay in registers across stores. numba has the flag but no option for it."""

    def define_pipelines(self):
        self.state.flags.noalias = True
        return [DefaultPassBuilder.define_nopython_pipeline(self.state)]


def plain_njit(**options):
    """``njit`` for a kernel function over plain arrays: cached, without reference counting, and
    compiled on the promise that no two of its array arguments overlap (``_ArraysApart``; never
    pass it two views of one array). Its arrays are the game's own, so the promise holds; a
    function that allocates or keeps an array may not use it.

    ``forceinline=True`` asks LLVM to inline the function into every caller (its ``alwaysinline``
    attribute): numba types and lowers it once per signature, where numba's own
    ``inline="always"`` types and lowers its body again at every call site, and a helper inlined
    into a helper into a turn many times over. POWER's scripted kernel compiled in 10 s of CPU
    that way against 48 s, and played as fast (docs/performance.md, "Compile and suite time").
    Without the option a function is never forced inline: numba would otherwise let a function
    first compiled from a forced caller inherit the flag, and how it compiles would depend on
    which caller came first."""
    options.setdefault("forceinline", False)
    jit = njit(cache=True, _nrt=False, pipeline_class=_ArraysApart, **options)
    return (lambda function: typed_as_variables(jit(function))) if options["forceinline"] else jit


def inline_njit(**options):
    """``njit`` for a kernel helper that LLVM inlines into every caller (``plain_njit``'s
    ``forceinline``), without reference counting, its constant arguments typed as variables
    (``typed_as_variables``)."""
    jit = njit(cache=True, _nrt=False, forceinline=True, **options)
    return lambda function: typed_as_variables(jit(function))


def typed_as_variables(dispatcher):
    """``dispatcher``, compiled for a call's constant arguments as for variables of their type
    (``int64``, not ``Literal[int](3)``), unless the function only types with the constants
    (a tuple's length, an index into a tuple).

    numba compiles a function anew for every constant a caller passes, and its callees with it;
    for a helper LLVM inlines, the constant reaches the inlined code all the same, so the copies
    only cost compile time (a quarter of Time Barons' scripted kernel:
    docs/performance.md, "Compile and suite time")."""
    if not isinstance(dispatcher, Dispatcher):  # NUMBA_DISABLE_JIT: a plain function
        return dispatcher
    literal_call_template = dispatcher.get_call_template

    def get_call_template(args, kws):
        try:
            return literal_call_template(
                [types.unliteral(a) for a in args], {k: types.unliteral(v) for k, v in kws.items()}
            )
        except errors.TypingError:
            return literal_call_template(args, kws)

    dispatcher.get_call_template = get_call_template
    return dispatcher


def lowest_bit(bits):
    """The position of the lowest set bit of a non-empty bitmask (enumerate a set: take it, then
    ``bits &= bits - 1``).

    This body runs as plain Python; compiled code uses the processor's count-trailing-zeros
    instruction through the overload below, which numba cannot run as Python.
    """
    bits = int(bits)
    return (bits & -bits).bit_length() - 1


@overload(lowest_bit, inline="always")
def _lowest_bit_compiled(bits):
    return lambda bits: trailing_zeros(bits)


@njit(cache=True, _nrt=False, inline="always")
def ix(i):
    """The array index ``i`` as an unsigned number, for the hottest lookups: numba gives every
    lookup with a signed index a negative-index wraparound (3-4 instructions), and none with an
    unsigned one. So ``i`` must never be negative: it would not wrap around but read outside the
    array."""
    return np.uint64(i)


def claim_next(counter):
    """``counter[0]``, incremented: one atomic step in compiled code, so threads that share the
    counter each claim different values (chunk.play_blocks: the next block to play).

    This body runs as plain Python, where it is not atomic; play_blocks runs blocks on a single
    thread when the JIT is off. Compiled code takes the overload below.
    """
    value = counter[0]
    counter[0] = value + 1
    return value


@intrinsic
def _fetch_and_increment(typingctx, counter):
    """The processor's atomic add on ``counter[0]`` (an int64 array), returning the old value:
    numba has no atomics for the CPU, LLVM has (``atomicrmw``)."""

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        one = context.get_constant(types.int64, 1)
        # Only the counter needs to be atomic ("monotonic"): what the claimed work writes is read
        # after the threads are joined, and the join orders it.
        return builder.atomic_rmw("add", array.data, one, "monotonic")

    return types.int64(counter), codegen


@overload(claim_next, inline="always")
def _claim_next_compiled(counter):
    if (
        isinstance(counter, types.Array)
        and counter.dtype == types.int64
        and counter.ndim == 1
        and counter.mutable
    ):
        return lambda counter: _fetch_and_increment(counter)
    return None  # numba then reports that claim_next takes no other type
