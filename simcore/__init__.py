"""powerlab's simulation core: game registry, random streams, runner, storage, game kernels."""

import os

# numba's OpenMP threads spin while idle by default. When several powerlab processes share a
# machine (Dask workers, array jobs with --threads 1) the spinning steals their cores: 2 worker
# processes ran at 1.0x one worker. Passive waiting costs only a wake-up per chunk.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
