"""Seeded random bimatrix games with integer payoffs 0..99 (or 0..HIGH-1), in Gambit's .nfg
payoff form.

    python3 bench/games.py SIZE SEED [HIGH] > game.nfg

The same file feeds nimbus and the nashpy comparison (bench/nashpy_run.py), so both solve
exactly the same games.
"""
import random
import sys


def main():
    size, seed = int(sys.argv[1]), int(sys.argv[2])
    high = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    rng = random.Random(seed * 1000 + size)
    a = [[rng.randrange(high) for _ in range(size)] for _ in range(size)]
    b = [[rng.randrange(high) for _ in range(size)] for _ in range(size)]
    print(f'NFG 1 R "random {size}x{size} seed {seed}" {{ "1" "2" }} {{ {size} {size} }}')
    # Payoff form: the first player's strategy changes fastest.
    print(" ".join(f"{a[i][j]} {b[i][j]}" for j in range(size) for i in range(size)))


main()
