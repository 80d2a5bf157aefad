"""POWER: The Game's board file (docs/games/power-the-game.md, "The board"): read, checked, and
encoded into the board table and the move tables the kernels read (layouts in ``state.py``).

The board is not in the rulebook: it is data (a TOML board file, the rule parameter ``board``;
the shipped one is ``simcore/data/power_the_game_board.toml``), checked against the rulebook's
constraints by tests/games/power_the_game/test_power_the_game_board.py. ``prepare`` (``game.py``)
loads it; no kernel
reads a file.
"""

import hashlib
import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.games.power_the_game.state import (
    AIR,
    B_ADJ,
    B_AIR_RING,
    B_COUNTRY,
    B_DEGREE,
    B_NUMBER,
    B_REACH,
    B_REACHED_BY,
    B_ROLE,
    B_TERRAIN,
    BOARD_WIDTH,
    COUNTRIES,
    FILE_WIDTH,
    GROUND,
    HEADQUARTERS,
    I_FINGERPRINT,
    I_HQ,
    I_NODES,
    I_SECTORS,
    INFO,
    ISLAND,
    LAND,
    MAX_MOVES,
    MAX_NODES,
    MISSILE,
    MOVE_CLASS,
    N_ARMIES,
    N_CLASSES,
    ROLES,
    SEA,
    SECTOR,
    TERRAINS,
    UNREACHABLE,
    WATER,
)
from simcore.registry import SpecError
from simcore.workflows import data_schemas, schemas

SHIPPED_BOARD = Path(__file__).resolve().parents[2] / "data" / "power_the_game_board.toml"


@dataclass(frozen=True)
class Board:
    """A checked board file: node names in file order, the board table and the move tables."""

    path: str
    names: tuple[str, ...]
    table: np.ndarray
    dist: np.ndarray

    @property
    def fingerprint(self) -> int:
        return int(self.table[INFO, I_FINGERPRINT])


NAMES_BY_FINGERPRINT: dict[int, tuple[str, ...]] = {}  # for describe_trace


def load_board(path_text: str, moves: np.ndarray = MAX_MOVES) -> Board:
    """Read and check a board file ("" = the shipped one); every mistake is one SpecError line
    naming the file and the node. ``moves``: each kind's most moves in a round (the rules'),
    for the reach bitmasks."""
    path = Path(path_text) if path_text else SHIPPED_BOARD
    # The file's shape (keys, roles, terrains, lists) is its model's; what follows is the rest.
    nodes = schemas.read_toml(path, "board file", data_schemas.BoardFile).nodes
    names = tuple(nodes)
    index = {name: i for i, name in enumerate(names)}
    table = np.full((MAX_NODES + 1, BOARD_WIDTH), -1, dtype=np.int64)
    sectors = {country: set() for country in COUNTRIES}
    for i, name in enumerate(names):
        _node_row(path, name, nodes[name], index, table[i], sectors)
    for i, name in enumerate(names):
        for k in range(table[i, B_DEGREE]):
            other = table[i, B_ADJ + k]
            if i not in table[other, B_ADJ : B_ADJ + table[other, B_DEGREE]]:
                raise SpecError(
                    f"{path}: node {name}: adjacent to {names[other]} but {names[other]} does not "
                    f"list {name} (adjacency must be symmetric)"
                )
    table[INFO, :] = 0
    table[INFO, I_NODES] = len(names)
    for c, country in enumerate(COUNTRIES):
        hqs = [
            i
            for i in range(len(names))
            if table[i, B_ROLE] == HEADQUARTERS and table[i, B_COUNTRY] == c
        ]
        if len(hqs) != 1:
            raise SpecError(
                f"{path}: country {country}: {len(hqs)} headquarters nodes, expected exactly 1"
            )
        missing = sorted(set(range(9)) - sectors[country])
        if missing:
            raise SpecError(f"{path}: country {country}: no sector {country}{missing[0]}")
        table[INFO, I_HQ + c] = hqs[0]
    table[:, FILE_WIDTH:] = 0
    digest = hashlib.blake2b(table[:, :FILE_WIDTH].tobytes(), digest_size=8).digest()
    table[INFO, I_FINGERPRINT] = int.from_bytes(digest, "little") >> 2
    dist = move_tables(table)
    derive_masks(table, dist, moves)
    board = Board(str(path), names, table, dist)
    NAMES_BY_FINGERPRINT[board.fingerprint] = names
    return board


def _node_row(path, name, entry, index, row, sectors) -> None:
    """Fill one node's board-table row from its entry (shaped by ``data_schemas.BoardNode``)."""
    where = f"{path}: node {name}"
    role, terrain, country = entry.role, entry.terrain, entry.country
    if (role == "sea_lane") != (terrain == "water"):
        raise SpecError(f"{where}: field terrain: a sea lane is water, and only a sea lane is")
    row[B_ROLE] = ROLES.index(role)
    row[B_TERRAIN] = TERRAINS.index(terrain)
    if role in ("sector", "headquarters"):
        if country is None:
            raise SpecError(f"{where}: field country: a {role} has one ({', '.join(COUNTRIES)})")
        row[B_COUNTRY] = COUNTRIES.index(country)
    elif country is not None:
        raise SpecError(f"{where}: field country: only sectors and headquarters have one")
    if role == "sector":
        number = name[len(country) :]
        if not name.startswith(country) or number not in tuple("012345678"):
            raise SpecError(
                f"{where}: a sector of country {country} is named {country}0-{country}8"
            )
        if int(number) in sectors[country]:
            raise SpecError(f"{where}: sector {name} appears twice")
        sectors[country].add(int(number))
        row[B_NUMBER] = int(number)
    elif role == "sea_lane" and re.fullmatch(r"[0-9]{1,6}", name[1:]):  # S3 -> 3; ASCII only
        row[B_NUMBER] = int(name[1:])
    adjacent = entry.adjacent
    seen = set()
    for k, other in enumerate(adjacent):
        if other not in index or other == name or other in seen:
            problem = "itself" if other == name else "twice" if other in seen else "unknown"
            raise SpecError(f"{where}: field adjacent: {other!r} is {problem}")
        seen.add(other)
        row[B_ADJ + k] = index[other]
    row[B_DEGREE] = len(adjacent)


def move_tables(table: np.ndarray) -> np.ndarray:
    """``dist[class, a, b]``: fewest moves from node a to node b for each movement class.

    Ground pieces cross land and coastline and stop on entering an island or a Headquarters;
    planes cross land and coastline (islands included); ships cross water and coastline.
    """
    n = int(table[INFO, I_NODES])
    dist = np.full((N_CLASSES, MAX_NODES, MAX_NODES), UNREACHABLE, dtype=np.int64)
    for cls in (GROUND, AIR, SEA):
        barred = LAND if cls == SEA else WATER
        for start in range(n):
            dist[cls, start, start] = 0
            queue = deque([start])
            while queue:
                node = queue.popleft()
                stops = table[node, B_ROLE] in (ISLAND, HEADQUARTERS)
                if cls == GROUND and node != start and stops:
                    continue
                for k in range(table[node, B_DEGREE]):
                    other = table[node, B_ADJ + k]
                    if table[other, B_TERRAIN] != barred and dist[cls, start, other] == UNREACHABLE:
                        dist[cls, start, other] = dist[cls, start, node] + 1
                        queue.append(other)
    return dist


def derive_masks(table: np.ndarray, dist: np.ndarray, moves: np.ndarray) -> None:
    """Fill the board table's derived columns: each node's reach per moving kind both ways and
    its rings of nodes by planes' moves to it (from the move tables), and each country's
    sectors, as bitmasks over the nodes."""
    n = int(table[INFO, I_NODES])
    for node in range(n):
        for kind in range(MISSILE):
            reached = dist[MOVE_CLASS[kind], node, :n] <= moves[kind]
            table[node, B_REACH + kind] = bit_mask(np.flatnonzero(reached))
            reached_by = dist[MOVE_CLASS[kind], :n, node] <= moves[kind]
            table[node, B_REACHED_BY + kind] = bit_mask(np.flatnonzero(reached_by))
        for d in range(MAX_NODES):
            table[node, B_AIR_RING + d] = bit_mask(np.flatnonzero(dist[AIR, :n, node] == d))
    for c in range(N_ARMIES):
        sectors = (table[:n, B_ROLE] == SECTOR) & (table[:n, B_COUNTRY] == c)
        table[INFO, I_SECTORS + c] = bit_mask(np.flatnonzero(sectors))


def bit_mask(nodes) -> int:
    """The int64 bitmask of ``nodes`` (bit 63 is the sign bit)."""
    bits = sum(1 << int(node) for node in nodes)
    return bits - (1 << 64) if bits >= 1 << 63 else bits
