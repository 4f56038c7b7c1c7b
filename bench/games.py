"""Seeded random bimatrix games with integer payoffs 0..99, in Gambit's .nfg payoff form.

    python3 bench/games.py SIZE SEED > game.nfg

The same file feeds nimbus and the nashpy comparison (bench/nashpy_run.py), so both solve
exactly the same games.
"""
import random
import sys


def main():
    size, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed * 1000 + size)
    a = [[rng.randrange(100) for _ in range(size)] for _ in range(size)]
    b = [[rng.randrange(100) for _ in range(size)] for _ in range(size)]
    print(f'NFG 1 R "random {size}x{size} seed {seed}" {{ "1" "2" }} {{ {size} {size} }}')
    # Payoff form: the first player's strategy changes fastest.
    print(" ".join(f"{a[i][j]} {b[i][j]}" for j in range(size) for i in range(size)))


main()
