"""The machine-level helpers of simcore/kernel/intrinsics.py against plain Python."""

import threading

import numpy as np
import pytest
from numba import njit

from simcore.kernel.intrinsics import claim_next, lowest_bit, plain_njit


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
    # lose their speed-up (docs/performance.md, "POWER") without any other sign.
    assert apart.overloads[apart.signatures[0]].fndesc.noalias
    assert not shared.overloads[shared.signatures[0]].fndesc.noalias


def test_lowest_bit_compiled_equals_python():
    lowest = njit(lambda bits: lowest_bit(bits))
    for bits in (1, 2, 3, 12, 1 << 40, (1 << 62) | (1 << 5), 0b101000):
        assert lowest(np.int64(bits)) == lowest_bit(bits) == (bits & -bits).bit_length() - 1


@njit(nogil=True)
def claim_many(counter, claims, seen):
    for _ in range(claims):
        seen[claim_next(counter)] += 1


def test_claim_next_compiled_gives_each_value_to_one_thread_only():
    # Two threads claim at once from one counter: an increment that is not atomic loses claims
    # (two threads read the same value), so some values would be seen twice and the count would
    # fall short. The barrier starts both compiled loops together.
    claims = 2_000_000
    counter = np.zeros(1, dtype=np.int64)
    seen = np.zeros(2 * claims, dtype=np.int64)
    claim_many(np.zeros(1, dtype=np.int64), 1, np.zeros(1, dtype=np.int64))  # compile first
    start = threading.Barrier(2)

    def claim():
        start.wait()
        claim_many(counter, claims, seen)

    threads = [threading.Thread(target=claim) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter[0] == 2 * claims
    assert (seen == 1).all()


def test_claim_next_as_python_counts_up_and_compiled_refuses_other_counters():
    counter = np.zeros(1, dtype=np.int64)
    assert [claim_next(counter) for _ in range(3)] == [0, 1, 2] and counter[0] == 3
    read_only = np.zeros(1, dtype=np.int64)
    read_only.flags.writeable = False
    for wrong in (np.zeros(1, dtype=np.int32), np.zeros((1, 1), dtype=np.int64), read_only):
        with pytest.raises(Exception, match="claim_next"):
            njit(lambda c: claim_next(c))(wrong)
