#!/usr/bin/env python3
"""Writes a stencil of a given shape and size to standard output, for the
compile-time benchmark (bench/compile-time.sh) and tests:

  gen-pattern.py star|box RANK RADIUS [--type T] [--explicit]
  gen-pattern.py random RANK POINTS [--type T]
  gen-pattern.py apply RANK ACCESSES [--type T]

(--count prints the number of points, or accesses, instead.)

star/box: the short form `<star, rank = R, radius = r>` (or every offset
written out with --explicit); random: POINTS distinct offsets drawn from the
smallest box of that rank that holds them; apply: a stencil.apply whose body
reads ACCESSES neighbours (a box, row by row) and combines them with additions
and, every seventh, a multiplication (not linear). Weights are random in
(0.05, 1), normalised to sum to 1 (random.Random(2025))."""
import argparse
import itertools
import random


def box(rank, r):
    return list(itertools.product(range(-r, r + 1), repeat=rank))


def star(rank, r):
    return [p for p in box(rank, r) if sum(1 for c in p if c) <= 1] \
        if rank > 1 else [(i,) for i in range(-r, r + 1)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["star", "box", "random", "apply"])
    ap.add_argument("rank", type=int)
    ap.add_argument("size", type=int, help="radius, or points/accesses")
    ap.add_argument("--type", default="f16")
    ap.add_argument("--explicit", action="store_true")
    ap.add_argument("--count", action="store_true",
                    help="print only the number of points (accesses)")
    a = ap.parse_args()
    rng = random.Random(2025)
    if a.count:
        if a.kind in ("random", "apply"):
            print(a.size)
        else:
            print(len(star(a.rank, a.size) if a.kind == "star" else box(a.rank, a.size)))
        return
    memref = "memref<" + "x".join(["?"] * a.rank) + "x" + a.type + ">"
    print(f"func.func @k(%in: {memref}, %out: {memref}) {{")
    if a.kind == "apply":
        r = 0
        while (2 * r + 1) ** a.rank < a.size:
            r += 1
        points = box(a.rank, r)[:a.size]
        print(f"  stencil.apply %in -> %out : {memref} {{")
        for i, p in enumerate(points):
            print(f"    %a{i} = stencil.access [{', '.join(map(str, p))}] : {a.type}")
        acc = "a0"
        for i in range(1, len(points)):
            op = "mulf" if i % 7 == 0 else "addf"
            print(f"    %s{i} = arith.{op} %{acc}, %a{i} : {a.type}")
            acc = f"s{i}"
        print(f"    %c = arith.constant 0.5 : {a.type}")
        print(f"    %r = arith.mulf %{acc}, %c : {a.type}")
        print(f"    stencil.yield %r : {a.type}")
        print("  }")
    else:
        if a.kind == "random":
            r = 0
            while (2 * r + 1) ** a.rank < a.size:
                r += 1
            points = rng.sample(box(a.rank, r), a.size)
        else:
            points = star(a.rank, a.size) if a.kind == "star" else box(a.rank, a.size)
        w = [rng.uniform(0.05, 1.0) for _ in points]
        total = sum(w)
        weights = ", ".join(f"{x / total:.6e}" for x in w)
        if a.kind == "random" or a.explicit:
            pattern = "<[" + ", ".join(
                "[" + ", ".join(map(str, p)) + "]" for p in points) + "]>"
        else:
            pattern = f"<{a.kind}, rank = {a.rank}, radius = {a.size}>"
        print(f"  stencil.linear %in -> %out pattern {pattern} weights [{weights}] : {memref}")
    print("  return\n}")


if __name__ == "__main__":
    main()
