"""Every test of the contract suite runs with the toy game of tests/games/liars_dice/ registered
(tests/contract/common.py, ``toy_registered``): its games are parametrized over it too."""

import pytest

from tests.contract.common import toy_registered


@pytest.fixture(autouse=True, scope="module")
def _toy_game_registered():
    with toy_registered():
        yield
