#!/usr/bin/env python3
"""gen-examples: write the example stencils in examples/*.mlir.

Deterministic: all random coefficients come from one random.Random(2025),
drawn in the fixed order of STENCILS below (appending new stencils at the
end keeps the existing files unchanged).

Each linear stencil gets random weights drawn uniformly from (0.05, 1.0) and
normalised to sum to 1 (up to the 7 printed significant digits), so repeated
time steps stay bounded; being random they are asymmetric.  All benchmark
stencils use f16 elements.  general-2d.mlir is a hand-written non-linear
stencil.apply body in f32, with the equivalent Python expression for
utils/stencil-ref.py --body on a `// REF-BODY: ` header line.

Usage: python3 utils/gen-examples.py [--outdir DIR]   (default: examples/
next to this script's parent directory)
"""

import argparse
import itertools
import os
import random

SEED = 2025

SIZE_1D = '10,240,000 points (SPIDER, SparStencil)'
SIZE_2D = '10240 x 10240'
SIZE_3D = '1024^3 (768^3 in FlashFFTStencil)'

# (file, func, kind, rank, radius, benchmark name, the papers' problem size)
STENCILS = [
    ('heat-1d.mlir', 'heat1d', 'star', 1, 1, 'Heat-1D (1D3P)', SIZE_1D),
    ('1d5p.mlir', 'stencil1d5p', 'star', 1, 2, '1D5P', SIZE_1D),
    ('1d7p.mlir', 'stencil1d7p', 'star', 1, 3, '1D7P', SIZE_1D),
    ('heat-2d.mlir', 'heat2d', 'star', 2, 1, 'Heat-2D (2D5P star)', SIZE_2D),
    ('box-2d9p.mlir', 'box2d9p', 'box', 2, 1, 'Box-2D9P', SIZE_2D),
    ('star-2d13p.mlir', 'star2d13p', 'star', 2, 3, 'Star-2D13P', SIZE_2D),
    ('box-2d25p.mlir', 'box2d25p', 'box', 2, 2, 'Box-2D25P', SIZE_2D),
    ('box-2d49p.mlir', 'box2d49p', 'box', 2, 3, 'Box-2D49P', SIZE_2D),
    ('box-2d225p.mlir', 'box2d225p', 'box', 2, 7, 'Box-2D225P (15x15)',
     SIZE_2D),
    ('heat-3d.mlir', 'heat3d', 'star', 3, 1, 'Heat-3D (3D7P star)', SIZE_3D),
    ('box-3d27p.mlir', 'box3d27p', 'box', 3, 1, 'Box-3D27P', SIZE_3D),
    # Not a benchmark of the papers: explicit, asymmetric, neither star nor box.
    ('irregular-2d.mlir', 'irregular2d',
     [[-2, 1], [-1, -1], [0, 0], [0, 2], [1, 0], [1, 1], [2, -1]], 2, None,
     None, None),
]

SEED_SOURCES = "the benchmarks of SPIDER, SparStencil and FlashFFTStencil"


def pattern_offsets(kind, rank, radius):
    """Canonical offset order (same as utils/stencil-ref.py)."""
    box = list(itertools.product(range(-radius, radius + 1), repeat=rank))
    if kind == 'box':
        return box
    return [o for o in box if sum(1 for c in o if c != 0) <= 1]


def random_weights(rng, n):
    """n random weights in (0.05, 1.0), normalised to sum to 1."""
    raw = [rng.uniform(0.05, 1.0) for _ in range(n)]
    total = sum(raw)
    return [w / total for w in raw]


def memref_type(rank, elem):
    return 'memref<' + '?x' * rank + elem + '>'


def format_weights(weights):
    """'[w0, w1, ...]' (printed '%.6e'), wrapped 8 per line for long lists."""
    texts = ['%.6e' % w for w in weights]
    if len(texts) <= 9:
        return '[' + ', '.join(texts) + ']'
    rows = [', '.join(texts[i:i + 8]) for i in range(0, len(texts), 8)]
    return '[\n      ' + ',\n      '.join(rows) + ']'


def signature_comment(rank, elem, name):
    return [
        f'// Signature: func.func @{name}(%in, %out) with both arguments of '
        f'type {memref_type(rank, elem)}:',
        '//   arg 0 = input grid, arg 1 = output grid; the shape is dynamic,'
        ' so any grid size works.',
        '// Defaults: steps 1, boundary halo (the output keeps the input '
        'values outside the interior).',
    ]


def linear_example(rng, fname, func, kind, rank, radius, bench, size):
    """Text of one stencil.linear example file."""
    elem = 'f16'
    if isinstance(kind, list):
        offsets = [tuple(o) for o in kind]
        pattern = '<[' + ', '.join('[' + ', '.join(map(str, o)) + ']'
                                   for o in offsets) + ']>'
        order = 'as listed in the pattern'
        what = (f'irregular {rank}D stencil with {len(offsets)} explicit '
                f'offsets (asymmetric; neither star nor box, radius <= '
                f'{max(abs(c) for o in offsets for c in o)})')
        origin = ['// Not a benchmark of the papers: exercises explicit-offset '
                  'patterns; element type f16.']
    else:
        offsets = pattern_offsets(kind, rank, radius)
        pattern = f'<{kind}, rank = {rank}, radius = {radius}>'
        order = (f'canonical {kind}:{rank}:{radius} order (lexicographic, '
                 'first index slowest)')
        what = (f'{bench}: {rank}D {kind} stencil, radius {radius}, '
                f'{len(offsets)} points')
        origin = [f'// From {SEED_SOURCES}; their problem size {size}.',
                  '// Element type f16 (as for all benchmark stencils).']
    weights = random_weights(rng, len(offsets))
    grid = {1: '1000', 2: '64,48', 3: '12,10,9'}[rank]
    lines = [f'// {fname}: {what}.'] + origin + [
        f'// Coefficients: random in (0.05, 1.0) from random.Random({SEED}) '
        '(utils/gen-examples.py), normalised',
        '// to sum to 1 so many time steps stay bounded; asymmetric by '
        'construction.',
        f'// Offset order (weights follow it): {order}.',
    ] + signature_comment(rank, elem, func) + [
        f'// Check: <program> | python3 utils/stencil-ref.py --result - '
        f'--from-mlir examples/{fname} --grid {grid} [--steps T]',
        '',
        f'func.func @{func}(%in: {memref_type(rank, elem)}, '
        f'%out: {memref_type(rank, elem)}) {{',
    ]
    lines.append(f'  stencil.linear %in -> %out pattern {pattern} weights '
                 + format_weights(weights) + f' : {memref_type(rank, elem)}')
    lines += ['  return', '}']
    return '\n'.join(lines) + '\n'


GENERAL_BODY = '0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0)) + 0.3*(a(0,-1)*a(0,1))'


def general_example():
    """Text of general-2d.mlir (non-linear stencil.apply body, f32)."""
    t = memref_type(2, 'f32')
    lines = [
        '// general-2d.mlir: general (region) form of a 2D stencil with a '
        'NON-LINEAR body on a 5-point star:',
        '//   out = 0.5*c + 0.2*max(n, s) + 0.3*(w*e)',
        '// Not a benchmark of the papers: exercises stencil.apply / stencil.access '
        '/ stencil.yield; element type f32.',
        '// Coefficients are fixed (hand-written), not random.',
    ] + signature_comment(2, 'f32', 'general2d') + [
        '// Equivalent expression for utils/stencil-ref.py --body (with '
        '--pattern star:2:1):',
        f'// REF-BODY: {GENERAL_BODY}',
        '// REF-PATTERN: star:2:1',
        '// Check: <program> | python3 utils/stencil-ref.py --result - '
        '--from-mlir examples/general-2d.mlir --grid 64,48',
        '',
        f'func.func @general2d(%in: {t}, %out: {t}) {{',
        f'  stencil.apply %in -> %out : {t} {{',
        '    %c = stencil.access [0, 0] : f32',
        '    %n = stencil.access [-1, 0] : f32',
        '    %s = stencil.access [1, 0] : f32',
        '    %w = stencil.access [0, -1] : f32',
        '    %e = stencil.access [0, 1] : f32',
        '    %k0 = arith.constant 0.5 : f32',
        '    %k1 = arith.constant 0.2 : f32',
        '    %k2 = arith.constant 0.3 : f32',
        '    %t0 = arith.mulf %k0, %c : f32',
        '    %mx = arith.maximumf %n, %s : f32',
        '    %t1 = arith.mulf %k1, %mx : f32',
        '    %we = arith.mulf %w, %e : f32',
        '    %t2 = arith.mulf %k2, %we : f32',
        '    %s0 = arith.addf %t0, %t1 : f32',
        '    %r = arith.addf %s0, %t2 : f32',
        '    stencil.yield %r : f32',
        '  }',
        '  return',
        '}',
    ]
    return '\n'.join(lines) + '\n'


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--outdir', default=os.path.join(here, '..', 'examples'))
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(SEED)
    files = [(s[0], linear_example(rng, *s)) for s in STENCILS]
    files.append(('general-2d.mlir', general_example()))
    for name, text in files:
        with open(os.path.join(args.outdir, name), 'w') as f:
            f.write(text)
    print(f'gen-examples: wrote {len(files)} files to '
          f'{os.path.normpath(args.outdir)}')


if __name__ == '__main__':
    main()
