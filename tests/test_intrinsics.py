"""The machine-level helpers of simcore/intrinsics.py against plain Python."""

import numpy as np
from numba import njit

from simcore.intrinsics import lowest_bit, plain_njit


def add_into(out, values):
    for i in range(values.shape[0]):
        out[i] += values[i]


def test_plain_njit_compiles_with_arrays_marked_apart_and_computes_the_same():
    apart = plain_njit()(add_into)
    shared = njit(cache=False)(add_into)
    out_apart, out_shared, out_python = np.zeros(5), np.zeros(5), np.zeros(5)
    values = np.arange(5.0)
    apart(out_apart, values)
    shared(out_shared, values)
    add_into(out_python, values)
    assert out_apart.tolist() == out_shared.tolist() == out_python.tolist() == values.tolist()
    # The promise reaches LLVM only through this flag: if numba dropped it, the kernels would
    # lose their speed-up (docs/performance.md, POWER's step 7) without any other sign.
    assert apart.overloads[apart.signatures[0]].fndesc.noalias
    assert not shared.overloads[shared.signatures[0]].fndesc.noalias


def test_lowest_bit_compiled_equals_python():
    lowest = njit(lambda bits: lowest_bit(bits))
    for bits in (1, 2, 3, 12, 1 << 40, (1 << 62) | (1 << 5), 0b101000):
        assert lowest(np.int64(bits)) == lowest_bit(bits) == (bits & -bits).bit_length() - 1
