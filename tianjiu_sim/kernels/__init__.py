"""numba kernels: random streams, bit helpers, threads, shuffles, dealing and the game engine."""
