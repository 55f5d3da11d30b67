#!/usr/bin/env python3
"""stencil-ref: independent pure-Python reference checker for stencil programs.

Computes the expected output of a stencil (pure Python 3.11, stdlib only) and
compares it, element by element, with the output printed by a compiled test
program.

Stencil semantics
-----------------
A grid of rank 1..3 (row-major, last dimension innermost) with element type
f16, bf16, f32 or f64.  One time step of a *linear* stencil computes

    out[p] = sum_i w_i * in[p + o_i]

over the offsets o_i and weights w_i (in canonical offset order), accumulated
in f64 (in the order of the offsets) and rounded to the element type
(round-to-nearest-even) when stored.  T steps ping-pong: step t reads the
result of step t-1, with rounding to the element type after every step.

Boundary kinds:
  halo          only points whose whole neighbourhood lies inside the grid are
                computed (per-dim radius r_d = max |o_d|, r_d <= i_d < N_d-r_d);
                every other output point keeps the INPUT grid's initial value
                through all steps.
  periodic      every point computed; neighbour index wraps modulo N_d.
  dirichlet(v)  every point computed; a neighbour outside the grid reads the
                constant v (this checker uses v rounded to the element type,
                i.e. the constant is treated like a grid element; for the
                usual constants such as 0.5 this is exact anyway).

Initial values (harness convention): memref argument a (0 = input grid,
1 = output grid) is filled, for linear row-major index n, with

    h = (((n * 1103515245 + 12345 + a * 7919) & 0x7fffffff) >> 16) & 255
    value = (h - 128) / 256.0

which is exact in all four element types.  For halo boundaries the output
starts as a copy of the input, so halo points hold arg-0 values.

Result format (stdout of the compiled program)
----------------------------------------------
One signed 64-bit decimal integer per line: the rank R, the R dims, then the
output grid elements in row-major order, each as the raw bit pattern of the
element zero-extended to i64 (f16/bf16: 16 bits, f32: 32, f64: 64; a negative
number is taken modulo 2**64).  Blank lines and non-integer lines are ignored.

Tolerance
---------
    u   = unit roundoff of the element type
          (f16 2^-11, bf16 2^-8, f32 2^-24, f64 2^-53)
    S   = sum |w_i|            (1 for --body / stencil.apply bodies)
    M   = max |value| over the input and the results of all steps
    tol = 2 * u * max(M, 2^-8) * sum_{k=0}^{T-1} max(1, S)^k  + 1e-300

Rationale: the compiled program and this reference both round to the
element type after every step, from f64 sums that may differ only in the last
f64 bits (different summation order / FMA).  They can therefore end up one
rounding apart (at most 2u relative, i.e. one ulp) per step, and an error
already present in a step's input is propagated by at most a factor S to the
next step.  The max(M, 2^-8) floor covers subnormal/near-zero results.

General (non-linear) bodies (--body, or a stencil.apply region read with
--from-mlir) are an APPROXIMATION: the body is evaluated here in f64 and only
the stored result is rounded to the element type, while the compiler
evaluates every operation in the element type (and its constants are rounded
to it).  The tolerance above is therefore multiplied by max(4, number of
arithmetic operations in the body), with S taken as 1.  --tol-scale can
widen it further for bodies that amplify errors.

Offset patterns
---------------
  box:R:r   all offsets with every component in [-r, r], lexicographic order
            (first component slowest, each from -r up to r)
  star:R:r  the box offsets with at most one non-zero component, same order
            (star:2:1 is (-1,0),(0,-1),(0,0),(0,1),(1,0))
  "-1,0;0,0;1,2"  explicit offsets (';' between points, ',' between components)

Exit status: 0 PASS, 1 FAIL, 2 usage / parse error.

Examples
--------
  ./build/bin/heat2d-test | python3 utils/stencil-ref.py --result - \\
      --from-mlir examples/heat-2d.mlir --grid 64,48 --steps 4
  python3 utils/stencil-ref.py --result out.txt --dtype f32 --grid 100 \\
      --pattern star:1:1 --weights 0.25,0.5,0.25 --boundary dirichlet:0.5
  python3 utils/stencil-ref.py --result out.txt --dtype f32 --grid 32,32 \\
      --pattern star:2:1 --body "0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0))"
  python3 utils/stencil-ref.py --emit-expected --from-mlir f.mlir --grid 8,8
  python3 utils/stencil-ref.py --self-test
"""

import argparse
import ast
import itertools
import math
import re
import struct
import sys

MASK64 = (1 << 64) - 1


class UsageError(Exception):
    """Bad command line, unparsable input file or stencil description (exit 2)."""


# ---------------------------------------------------------------------------
# Element types: rounding, encoding and decoding
# ---------------------------------------------------------------------------

# name -> (bit width, unit roundoff)
DTYPES = {
    'f16': (16, 2.0 ** -11),
    'bf16': (16, 2.0 ** -8),
    'f32': (32, 2.0 ** -24),
    'f64': (64, 2.0 ** -53),
}

BF16_MAX = (2.0 - 2.0 ** -7) * 2.0 ** 127


def round_f16(x):
    """Round a Python float to the nearest f16 value (ties to even)."""
    try:
        return struct.unpack('<e', struct.pack('<e', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_f32(x):
    """Round a Python float to the nearest f32 value (ties to even)."""
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_bf16(x):
    """Round a Python float directly to the nearest bf16 value (ties to even).

    bf16 has 8 significant bits and the exponent range of f32 (min normal
    2^-126, subnormal quantum 2^-133).  The rounding is done in one step from
    the f64 value (rounding via f32 first would double-round).
    """
    if x == 0.0 or not math.isfinite(x):
        return x
    if abs(x) >= 2.0 ** 128:
        return math.copysign(math.inf, x)
    _, e = math.frexp(x)                  # |x| in [2^(e-1), 2^e)
    q = max(e, -125) - 8                  # quantum (ulp) exponent
    n = round(math.ldexp(x, -q))          # exact scaling; round() is half-even
    r = math.ldexp(n, q)
    if abs(r) > BF16_MAX:
        return math.copysign(math.inf, x)
    if r == 0.0:
        return math.copysign(0.0, x)
    return r


ROUND = {'f16': round_f16, 'bf16': round_bf16, 'f32': round_f32,
         'f64': lambda x: float(x)}


def encode(dtype, x):
    """Bit pattern (non-negative int) of x, which must be representable."""
    if dtype == 'f16':
        return struct.unpack('<H', struct.pack('<e', x))[0]
    if dtype == 'f32':
        return struct.unpack('<I', struct.pack('<f', x))[0]
    if dtype == 'bf16':
        return struct.unpack('<I', struct.pack('<f', x))[0] >> 16
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def decode(dtype, bits):
    """Python float value of a bit pattern of the given element type."""
    if dtype == 'f16':
        return struct.unpack('<e', struct.pack('<H', bits))[0]
    if dtype == 'f32':
        return struct.unpack('<f', struct.pack('<I', bits))[0]
    if dtype == 'bf16':
        return struct.unpack('<f', struct.pack('<I', bits << 16))[0]
    return struct.unpack('<d', struct.pack('<Q', bits))[0]


# ---------------------------------------------------------------------------
# Patterns, boundaries, initial values
# ---------------------------------------------------------------------------

def pattern_offsets(kind, rank, radius):
    """Canonical offsets of a box or star pattern (see module docstring)."""
    if not 1 <= rank <= 3:
        raise UsageError(f'pattern rank must be 1..3, got {rank}')
    if radius < 0:
        raise UsageError(f'pattern radius must be >= 0, got {radius}')
    box = list(itertools.product(range(-radius, radius + 1), repeat=rank))
    if kind == 'box':
        return box
    if kind == 'star':
        return [o for o in box if sum(1 for c in o if c != 0) <= 1]
    raise UsageError(f'unknown pattern kind {kind!r} (expected box or star)')


def parse_pattern_spec(spec):
    """Parse 'box:R:r', 'star:R:r' or explicit '-1,0;0,0;1,2' into offsets."""
    spec = spec.strip()
    m = re.fullmatch(r'(box|star):(\d+):(\d+)', spec)
    if m:
        return pattern_offsets(m.group(1), int(m.group(2)), int(m.group(3)))
    try:
        offsets = [tuple(int(c) for c in pt.split(','))
                   for pt in spec.split(';') if pt.strip()]
    except ValueError:
        raise UsageError(f'cannot parse pattern {spec!r} (expected box:R:r, '
                         'star:R:r or offsets like "-1,0;0,0;1,2")') from None
    check_offsets(offsets)
    return offsets


def check_offsets(offsets):
    """All offsets non-empty, of one rank in 1..3, without duplicates."""
    if not offsets:
        raise UsageError('pattern has no offsets')
    rank = len(offsets[0])
    if not 1 <= rank <= 3 or any(len(o) != rank for o in offsets):
        raise UsageError(f'pattern offsets must all have the same rank 1..3: '
                         f'{offsets}')
    if len(set(offsets)) != len(offsets):
        raise UsageError(f'pattern has duplicate offsets: {offsets}')


def parse_boundary(text):
    """'halo' | 'periodic' | 'dirichlet:V' | 'dirichlet(V)' -> tuple."""
    t = text.strip()
    if t in ('halo', 'periodic'):
        return (t,)
    m = re.fullmatch(r'dirichlet\s*(?::\s*(.+)|\(\s*(.+?)\s*\))', t)
    if m:
        v = m.group(1) if m.group(1) is not None else m.group(2)
        try:
            return ('dirichlet', float(v))
        except ValueError:
            pass
    raise UsageError(f'bad boundary {text!r} (expected halo, periodic or '
                     'dirichlet:VALUE)')


def boundary_str(b):
    return b[0] if b[0] != 'dirichlet' else f'dirichlet({b[1]!r})'


def initial_value(n, arg=0):
    """Harness fill value of element n (row-major) of memref argument arg."""
    h = (((n * 1103515245 + 12345 + arg * 7919) & 0x7fffffff) >> 16) & 255
    return (h - 128) / 256.0


def initial_grid(dims, arg=0):
    return [initial_value(n, arg) for n in range(math.prod(dims))]


# ---------------------------------------------------------------------------
# Reference computation
# ---------------------------------------------------------------------------

def _strides(dims):
    strides = [1] * len(dims)
    for d in range(len(dims) - 2, -1, -1):
        strides[d] = strides[d + 1] * dims[d + 1]
    return strides


def _combine(tables):
    """Row-major sum over the cartesian product of per-dim value tables."""
    flat = [0]
    for tab in tables:
        flat = [b + t for b in flat for t in tab]
    return flat


def neighbour_tables(dims, offsets, boundary):
    """Points computed by the stencil and their neighbour indices.

    Returns (points, idx): points is the list of flat output indices that are
    computed; idx[i][k] is the flat index of neighbour offsets[i] of
    points[k].  For dirichlet boundaries an out-of-grid neighbour gets index
    prod(dims), the slot where the constant is appended to the source grid.
    """
    rank = len(dims)
    strides = _strides(dims)
    total = math.prod(dims)
    if boundary[0] == 'halo':
        rad = [max(abs(o[d]) for o in offsets) for d in range(rank)]
        points = _combine([[i * strides[d] for i in range(rad[d], dims[d] - rad[d])]
                           for d in range(rank)])
        idx = []
        for o in offsets:
            delta = sum(o[d] * strides[d] for d in range(rank))
            idx.append([p + delta for p in points])
        return points, idx
    points = list(range(total))
    idx = []
    for o in offsets:
        tables = []
        for d in range(rank):
            n = dims[d]
            if boundary[0] == 'periodic':
                tables.append([((i + o[d]) % n) * strides[d] for i in range(n)])
            else:   # dirichlet: out-of-range marked by a large negative value
                tables.append([(i + o[d]) * strides[d] if 0 <= i + o[d] < n
                               else -(total + 1) for i in range(n)])
        flat = _combine(tables)
        if boundary[0] == 'dirichlet':
            flat = [j if j >= 0 else total for j in flat]
        idx.append(flat)
    return points, idx


def _maxabs(values, start=0.0):
    m = start
    for v in values:
        a = abs(v)
        if a > m and a != math.inf:
            m = a
    return m


def run_stencil(dims, init, offsets, steps, boundary, dtype,
                weights=None, body=None):
    """Run `steps` steps of a linear (weights) or general (body) stencil.

    Returns (final grid as list of floats, max |value| over input and all
    step results).  `body` is a callable body(a) where a(*offset) returns the
    neighbour value.
    """
    rnd = ROUND[dtype]
    total = math.prod(dims)
    points, idx = neighbour_tables(dims, offsets, boundary)
    cur = list(init)
    extra = [rnd(boundary[1])] if boundary[0] == 'dirichlet' else []
    maxabs = _maxabs(cur)
    if body is not None:
        pos = {o: i for i, o in enumerate(offsets)}
        state = [None, 0]

        def a(*o):
            i = pos.get(o)
            if i is None:
                raise UsageError(f'body accesses offset {o}, which is not in '
                                 f'the declared pattern {offsets}')
            return state[0][idx[i][state[1]]]
    for _ in range(steps):
        src = cur + extra
        if body is None:
            acc = [0.0] * len(points)
            for w, il in zip(weights, idx):
                acc = [s + w * src[j] for s, j in zip(acc, il)]
        else:
            state[0] = src
            acc = []
            for k in range(len(points)):
                state[1] = k
                acc.append(float(body(a)))
        if len(points) == total:
            nxt = [rnd(s) for s in acc]
        else:
            nxt = list(cur)
            for p, s in zip(points, acc):
                nxt[p] = rnd(s)
        cur = nxt
        maxabs = _maxabs(cur, maxabs)
    return cur, maxabs


def tolerance(dtype, maxabs, s, steps, factor=1.0):
    """Tolerance formula documented in the module docstring."""
    u = DTYPES[dtype][1]
    growth = sum(max(1.0, s) ** k for k in range(steps))
    return factor * 2.0 * u * max(maxabs, 2.0 ** -8) * growth + 1e-300


# ---------------------------------------------------------------------------
# General bodies: Python expressions and stencil.apply regions
# ---------------------------------------------------------------------------

def _fdiv(x, y):
    """IEEE-style division (no ZeroDivisionError)."""
    try:
        return x / y
    except ZeroDivisionError:
        if x == 0.0 or math.isnan(x):
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)


BODY_ENV = {
    'math': math, 'max': max, 'min': min, 'abs': abs, 'sqrt': math.sqrt,
    'exp': math.exp, 'log': math.log, 'tanh': math.tanh, 'fabs': math.fabs,
    'fma': lambda x, y, z: x * y + z, 'div': _fdiv,
}


def compile_body_expr(expr):
    """Compile a --body expression into (callable body(a), op count)."""
    try:
        tree = ast.parse(expr, mode='eval')
    except SyntaxError as e:
        raise UsageError(f'cannot parse --body expression: {e}') from None
    nops = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.UnaryOp) and isinstance(node.operand,
                                                        ast.Constant):
            continue                      # a negative literal, e.g. a(-1, 0)
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Compare)):
            nops += 1
        elif isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id == 'a'):
            nops += 1
    env = dict(BODY_ENV)
    exec(compile(f'def _body(a):\n    return ({expr})\n', '<--body>', 'exec'),
         env)
    return env['_body'], max(nops, 1)


_MLIR_BINARY = {
    'arith.addf': '({0} + {1})', 'arith.subf': '({0} - {1})',
    'arith.mulf': '({0} * {1})', 'arith.divf': 'div({0}, {1})',
    'arith.maximumf': 'max({0}, {1})', 'arith.minimumf': 'min({0}, {1})',
    'arith.maxnumf': 'max({0}, {1})', 'arith.minnumf': 'min({0}, {1})',
}
_MLIR_UNARY = {
    'arith.negf': '(-{0})', 'math.absf': 'abs({0})', 'math.sqrt': 'sqrt({0})',
    'math.exp': 'exp({0})', 'math.tanh': 'tanh({0})',
}


def translate_apply_region(region):
    """Translate a stencil.apply region into Python.

    The region has one op per line: `%x = stencil.access [i, j] : T`,
    `%x = arith.constant C : T`, arith/math float ops and a final
    `stencil.yield %r : T`.  Returns (python source of `def _body(a)`,
    offsets in order of first access, number of arithmetic ops).
    """
    names = {}
    offsets = []
    lines = ['def _body(a):']
    nops = 0
    result = None

    def val(tok):
        if tok not in names:
            raise UsageError(f'stencil.apply region uses undefined value {tok}')
        return names[tok]

    for raw in region.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = re.fullmatch(r'(?:(%[\w$.\-#]+)\s*=\s*)?([\w.]+)\s*(.*?)'
                         r'(?:\s*:\s*([^:]+))?', line)
        if not m:
            raise UsageError(f'cannot parse stencil.apply op: {line!r}')
        res, op, operands = m.group(1), m.group(2), m.group(3)
        uses = re.findall(r'%[\w$.\-#]+', operands)
        if op == 'stencil.yield':
            if len(uses) != 1:
                raise UsageError(f'stencil.yield must yield one value: {line!r}')
            result = val(uses[0])
            continue
        if res is None:
            raise UsageError(f'unsupported op without result: {line!r}')
        py = 'v%d' % len(names)
        if op == 'stencil.access':
            mo = re.fullmatch(r'\[([^\]]*)\]', operands.strip())
            if not mo:
                raise UsageError(f'cannot parse stencil.access: {line!r}')
            try:
                off = tuple(int(c) for c in mo.group(1).split(','))
            except ValueError:
                raise UsageError(f'cannot parse stencil.access: {line!r}') from None
            if off not in offsets:
                offsets.append(off)
            expr = 'a(%s)' % ', '.join(str(c) for c in off)
        elif op == 'arith.constant':
            try:
                expr = repr(float(operands.strip()))
            except ValueError:
                raise UsageError(f'cannot parse constant: {line!r}') from None
        elif op in _MLIR_BINARY and len(uses) == 2:
            expr = _MLIR_BINARY[op].format(*map(val, uses))
            nops += 1
        elif op in _MLIR_UNARY and len(uses) == 1:
            expr = _MLIR_UNARY[op].format(val(uses[0]))
            nops += 1
        elif op == 'math.fma' and len(uses) == 3:
            expr = '({0} * {1} + {2})'.format(*map(val, uses))
            nops += 2
        else:
            raise UsageError(f'unsupported op in stencil.apply region: {line!r}')
        names[res] = py
        lines.append(f'    {py} = {expr}')
    if result is None:
        raise UsageError('stencil.apply region has no stencil.yield')
    if not offsets:
        raise UsageError('stencil.apply region has no stencil.access')
    check_offsets(offsets)
    lines.append(f'    return {result}')
    return '\n'.join(lines) + '\n', offsets, max(nops, 1)


# ---------------------------------------------------------------------------
# MLIR reading
# ---------------------------------------------------------------------------

def _strip_comments(text):
    return re.sub(r'//[^\n]*', '', text)


def _find_func(text, name):
    """Text of `func.func @name` (or the first func) up to the next func."""
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'func\.func\s+(?:private\s+)?@([\w$.\-]+)', text)]
    if not starts:
        raise UsageError('no func.func in MLIR file')
    for i, (pos, fname) in enumerate(starts):
        if name is None or fname == name:
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            return fname, text[pos:end]
    raise UsageError(f'no func.func @{name} in MLIR file (found: '
                     f'{", ".join("@" + n for _, n in starts)})')


def _elem_type(memref):
    t = memref.split(',')[0].split('x')[-1].strip()
    if t not in DTYPES:
        raise UsageError(f'unsupported element type {t!r} in memref<{memref}>')
    return t


def _steps_boundary(attrs):
    steps, boundary = None, None
    m = re.search(r'\bsteps\s+(\d+)', attrs)
    if m:
        steps = int(m.group(1))
    m = re.search(r'\bboundary\s+(halo|periodic|dirichlet\s*\([^)]*\))', attrs)
    if m:
        boundary = parse_boundary(m.group(1))
    return steps, boundary


def _parse_weight(tok):
    tok = tok.strip()
    if re.fullmatch(r'0[xX][0-9a-fA-F]{16}', tok):   # f64 bit pattern
        return decode('f64', int(tok, 16))
    return float(tok)


def read_mlir(path, func_name):
    """Read the stencil of one function from an MLIR file.

    Returns a dict with keys: func, offsets, weights (linear) or body + nops
    (stencil.apply), steps (or None), boundary (or None), dtype.
    """
    try:
        with open(path) as f:
            text = _strip_comments(f.read())
    except OSError as e:
        raise UsageError(f'cannot read {path}: {e}') from None
    fname, ftext = _find_func(text, func_name)
    flat = re.sub(r'\s+', ' ', ftext)
    m = re.search(r'stencil\.linear\s+(%\S+)\s*->\s*(%\S+)\s+pattern\s*<(.*?)>'
                  r'\s*weights\s*\[(.*?)\](.*?):\s*memref<([^>]*)>', flat)
    if m:
        pat = m.group(3).strip()
        mp = re.fullmatch(r'(box|star)\s*,\s*rank\s*=\s*(\d+)\s*,\s*'
                          r'radius\s*=\s*(\d+)', pat)
        if mp:
            offsets = pattern_offsets(mp.group(1), int(mp.group(2)),
                                      int(mp.group(3)))
        elif re.fullmatch(r'\[\s*(\[[-\d\s,]*\]\s*,?\s*)+\]', pat):
            offsets = [tuple(int(c) for c in p.split(','))
                       for p in re.findall(r'\[([-\d\s,]+)\]', pat)]
            check_offsets(offsets)
        else:
            raise UsageError(f'cannot parse pattern <{pat}> in @{fname}')
        try:
            weights = [_parse_weight(w) for w in m.group(4).split(',')
                       if w.strip()]
        except ValueError:
            raise UsageError(f'cannot parse weights [{m.group(4)}] in '
                             f'@{fname}') from None
        if len(weights) != len(offsets):
            raise UsageError(f'@{fname}: {len(weights)} weights for '
                             f'{len(offsets)} pattern offsets')
        steps, boundary = _steps_boundary(m.group(5))
        return dict(func=fname, offsets=offsets, weights=weights, steps=steps,
                    boundary=boundary, dtype=_elem_type(m.group(6)))
    m = re.search(r'stencil\.apply\s+(%\S+)\s*->\s*(%\S+)([^:{]*):\s*'
                  r'memref<([^>]*)>\s*(?:attributes\s*\{[^}]*\}\s*)?\{', ftext)
    if m:
        depth, i = 1, m.end()
        while i < len(ftext) and depth:
            depth += {'{': 1, '}': -1}.get(ftext[i], 0)
            i += 1
        if depth:
            raise UsageError(f'@{fname}: unterminated stencil.apply region')
        src, offsets, nops = translate_apply_region(ftext[m.end():i - 1])
        env = dict(BODY_ENV)
        exec(compile(src, f'<stencil.apply in @{fname}>', 'exec'), env)
        steps, boundary = _steps_boundary(m.group(3))
        return dict(func=fname, offsets=offsets, body=env['_body'], nops=nops,
                    body_src=src, steps=steps, boundary=boundary,
                    dtype=_elem_type(m.group(4)))
    raise UsageError(f'no stencil.linear (or stencil.apply) op in @{fname}')


# ---------------------------------------------------------------------------
# Result reading and comparison
# ---------------------------------------------------------------------------

def read_result(path):
    """All integer lines of the result file ('-' = stdin)."""
    try:
        if path == '-':
            lines = sys.stdin.read().splitlines()
        else:
            with open(path) as f:
                lines = f.read().splitlines()
    except OSError as e:
        raise UsageError(f'cannot read result {path}: {e}') from None
    out = []
    for line in lines:
        try:
            out.append(int(line.strip()))
        except ValueError:
            pass
    return out


def format_expected(dims, values, dtype):
    """Expected output in the harness format (list of lines)."""
    lines = [str(len(dims))] + [str(d) for d in dims]
    for v in values:
        bits = encode(dtype, v)
        if bits >> 63:
            bits -= 1 << 64
        lines.append(str(bits))
    return lines


def _unflatten(k, dims):
    idx = []
    for d in reversed(dims):
        idx.append(k % d)
        k //= d
    return list(reversed(idx))


def compare(dims, expected, ints, dtype, tol, maxabs, max_report=5):
    """Compare expected floats with parsed result ints.

    Returns (passed, list of output lines; the first is the summary).
    """
    verdict = lambda ok: 'PASS' if ok else 'FAIL'
    if not ints:
        return False, ['stencil-ref: result contains no integers: FAIL']
    rank = ints[0]
    got_dims = ints[1:1 + rank] if 0 <= rank <= 8 else []
    if rank != len(dims) or got_dims != list(dims):
        return False, [f'stencil-ref: result shape rank {rank} dims {got_dims} '
                       f'does not match expected rank {len(dims)} dims '
                       f'{list(dims)}: FAIL']
    data = ints[1 + rank:]
    n = len(expected)
    if len(data) != n:
        return False, [f'stencil-ref: result has {len(data)} elements, '
                       f'expected {n}: FAIL']
    width = DTYPES[dtype][0]
    maxerr = 0.0
    bad = []
    for k, (e, raw) in enumerate(zip(expected, data)):
        bits = raw & MASK64
        if bits >> width:
            err = math.inf
            g = math.nan
        else:
            g = decode(dtype, bits)
            if g == e or (math.isnan(g) and math.isnan(e)):
                continue
            err = abs(g - e)
            if math.isnan(err):
                err = math.inf
        if err > maxerr:
            maxerr = err
        if not err <= tol:
            bad.append((k, e, g, bits, err))
    ok = not bad
    lines = [f'stencil-ref: {n} points, max abs error {maxerr:.3e}, tolerance '
             f'{tol:.3e}, max |ref| {maxabs:.3e}: {verdict(ok)}']
    if bad:
        lines.append(f'  {len(bad)} mismatching element(s); first '
                     f'{min(len(bad), max_report)}:')
        digits = (width * 2 + 7) // 8
        for k, e, g, bits, err in bad[:max_report]:
            lines.append(f'  at {_unflatten(k, dims)}: expected {e!r} '
                         f'(0x{encode(dtype, e):0{digits}x}), got {g!r} '
                         f'(0x{bits:0{digits}x}), error {err:.3e}')
    return ok, lines


# ---------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------

def self_test():
    """Hand-checked tiny cases; returns 0 if all pass, 1 otherwise."""
    failures = []
    count = [0]

    def check(cond, what):
        count[0] += 1
        if not cond:
            failures.append(what)

    # 1D 3-point stencil, weights 1,2,3, input 1..5, f64.
    init = [1.0, 2.0, 3.0, 4.0, 5.0]
    offs = parse_pattern_spec('star:1:1')
    check(offs == [(-1,), (0,), (1,)], f'star:1:1 order {offs}')

    def run1(steps, b):
        return run_stencil([5], init, offs, steps, parse_boundary(b), 'f64',
                           weights=[1.0, 2.0, 3.0])[0]
    check(run1(1, 'halo') == [1, 14, 20, 26, 5], 'halo 1 step')
    check(run1(2, 'halo') == [1, 89, 132, 87, 5], 'halo 2 steps')
    check(run1(1, 'periodic') == [13, 14, 20, 26, 17], 'periodic')
    check(run1(1, 'dirichlet:0.5') == [8.5, 14, 20, 26, 15.5], 'dirichlet')
    check(run1(1, 'dirichlet(0.5)') == [8.5, 14, 20, 26, 15.5], 'dirichlet()')
    # f16 rounding of each step: 1/3 weights on 1,1,1 -> rounded sums.
    r = run_stencil([3], [1.0, 1.0, 1.0], offs, 1, ('periodic',), 'f16',
                    weights=[0.1, 0.1, 0.1])[0]
    check(r == [round_f16(0.1 + 0.1 + 0.1)] * 3 and encode('f16', r[0]) == 0x34cd,
          f'f16 step rounding {r}')

    # Pattern orders.
    check(pattern_offsets('star', 2, 1) ==
          [(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)], 'star:2:1 order')
    check(parse_pattern_spec('box:2:1') ==
          [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1),
           (1, -1), (1, 0), (1, 1)], 'box:2:1 order')
    check(len(parse_pattern_spec('box:3:1')) == 27, 'box:3:1 size')
    check(len(parse_pattern_spec('star:2:3')) == 13, 'star:2:3 size')
    check(len(parse_pattern_spec('box:2:7')) == 225, 'box:2:7 size')
    check(parse_pattern_spec('-1,0;0,0;1,2') == [(-1, 0), (0, 0), (1, 2)],
          'explicit pattern')

    # f16 rounding.
    check(encode('f16', round_f16(0.1)) == 0x2e66, 'f16 0.1')
    check(round_f16(1 + 2 ** -11) == 1.0, 'f16 tie to even (down)')
    check(round_f16(1 + 3 * 2 ** -11) == 1 + 2 ** -9, 'f16 tie to even (up)')
    check(round_f16(65519.0) == 65504.0, 'f16 below overflow threshold')
    check(round_f16(65520.0) == math.inf, 'f16 overflow to inf')
    check(round_f16(-1e6) == -math.inf, 'f16 overflow to -inf')
    check(round_f16(2 ** -24) == 2 ** -24 and round_f16(2 ** -25) == 0.0,
          'f16 subnormals')
    check(decode('f16', 0x3c00) == 1.0 and decode('f16', 0xc000) == -2.0,
          'f16 decode')

    # bf16 rounding.
    check(encode('bf16', round_bf16(0.1)) == 0x3dcd, 'bf16 0.1')
    check(round_bf16(1 + 2 ** -8) == 1.0, 'bf16 tie to even (down)')
    check(round_bf16(1 + 3 * 2 ** -8) == 1 + 2 ** -6, 'bf16 tie to even (up)')
    check(round_bf16(1 + 2 ** -8 + 2 ** -30) == 1 + 2 ** -7,
          'bf16 no double rounding')
    check(round_bf16(-3.0) == -3.0 and round_bf16(0.0) == 0.0, 'bf16 exact')
    check(round_bf16(3.39e38) == BF16_MAX, 'bf16 rounds down to max')
    check(round_bf16(3.4e38) == math.inf and round_bf16(1e300) == math.inf,
          'bf16 overflow')
    check(round_bf16(2.0 ** -133) == 2.0 ** -133 and
          encode('bf16', round_bf16(2.0 ** -133)) == 0x0001, 'bf16 min subnormal')
    check(round_bf16(2.0 ** -134) == 0.0, 'bf16 subnormal tie to zero')
    check(round_bf16(1.5 * 2.0 ** -134) == 2.0 ** -133, 'bf16 subnormal round up')
    check(round_bf16(3 * 2.0 ** -134) == 2.0 ** -132, 'bf16 subnormal tie to even')
    check(decode('bf16', 0x3f80) == 1.0 and decode('bf16', 0xbfc0) == -1.5,
          'bf16 decode')
    check(math.isnan(round_bf16(math.nan)), 'bf16 nan')

    # f32 / f64.
    check(encode('f32', round_f32(0.1)) == 0x3dcccccd, 'f32 0.1')
    check(round_f32(1e39) == math.inf, 'f32 overflow')
    check(decode('f64', 0xc000000000000000) == -2.0, 'f64 decode')

    # Harness fill values.
    check(initial_value(0) == -0.5, 'initial value n=0')
    check(initial_value(1) == (198 - 128) / 256.0, 'initial value n=1')
    check(all(ROUND[t](initial_value(n, a)) == initial_value(n, a)
              for t in DTYPES for n in range(300) for a in (0, 1)),
          'initial values exact in all types')

    # Tolerance formula.
    check(tolerance('f16', 0.5, 1.0, 3) == 2 * 2 ** -11 * 0.5 * 3 + 1e-300,
          'tolerance S=1')
    check(tolerance('f32', 0.0, 2.0, 2) == 2 * 2 ** -24 * 2 ** -8 * 3 + 1e-300,
          'tolerance floor and S=2')

    # Comparison, including negative f64 patterns and a changed value.
    dims = [2, 3]
    vals = [-0.5, 0.25, 1.0, -2.0, 0.0, 3.0]
    for t in DTYPES:
        ints = [int(x) for x in format_expected(dims, vals, t)]
        ok, _ = compare(dims, vals, ints, t, tolerance(t, 3.0, 1.0, 1), 3.0)
        check(ok, f'compare identical {t}')
        ints[3] = encode(t, -1.0)
        ok, lines = compare(dims, vals, ints, t, tolerance(t, 3.0, 1.0, 1), 3.0)
        check(not ok and 'at [0, 0]' in lines[2], f'compare changed {t}')
        ok, _ = compare([3, 2], vals, ints, t, 1.0, 3.0)
        check(not ok, f'compare shape mismatch {t}')

    # Body expression and stencil.apply translation agree with linear form.
    body, nops = compile_body_expr('0.5*a(0) + 0.25*a(-1) + 0.25*a(1)')
    check(nops == 5, f'body op count {nops}')
    g = initial_grid([20])
    lin = run_stencil([20], g, offs, 3, ('periodic',), 'f32',
                      weights=[0.25, 0.5, 0.25])[0]
    bod = run_stencil([20], g, offs, 3, ('periodic',), 'f32', body=body)[0]
    check(lin == bod, 'body vs linear')
    src, aoffs, nops = translate_apply_region(
        '%c = stencil.access [0] : f32\n%l = stencil.access [-1] : f32\n'
        '%r = stencil.access [1] : f32\n%h = arith.constant 5.0e-01 : f32\n'
        '%q = arith.constant 0.25 : f32\n%s = arith.addf %l, %r : f32\n'
        '%t = arith.mulf %q, %s : f32\n%u = arith.mulf %h, %c : f32\n'
        '%v = arith.addf %u, %t : f32\nstencil.yield %v : f32\n')
    env = dict(BODY_ENV)
    exec(src, env)
    app = run_stencil([20], g, aoffs, 3, ('periodic',), 'f32',
                      body=env['_body'])[0]
    check(aoffs == [(0,), (-1,), (1,)] and nops == 4, 'apply translation')
    check(max(abs(x - y) for x, y in zip(app, lin)) <= 2 ** -20, 'apply vs linear')

    if failures:
        print(f'stencil-ref self-test: {len(failures)} of {count[0]} checks '
              'FAILED:')
        for f in failures:
            print('  ' + f)
        return 1
    print(f'stencil-ref self-test: {count[0]} checks passed')
    return 0


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _parse_grid(text):
    try:
        dims = [int(x) for x in text.split(',')]
    except ValueError:
        raise UsageError(f'bad --grid {text!r} (expected e.g. 64,48)') from None
    if not 1 <= len(dims) <= 3 or any(d <= 0 for d in dims):
        raise UsageError(f'--grid must have 1..3 positive dims, got {text!r}')
    return dims


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--result', metavar='FILE',
                   help="program output in harness format ('-' = stdin)")
    p.add_argument('--dtype', choices=sorted(DTYPES),
                   help='element type (required unless --from-mlir gives it)')
    p.add_argument('--grid', metavar='N0[,N1[,N2]]', help='grid dims')
    p.add_argument('--steps', type=int, metavar='T',
                   help='time steps (default: from the MLIR op, else 1)')
    p.add_argument('--boundary', metavar='KIND',
                   help='halo | periodic | dirichlet:V (default: from the MLIR '
                        'op, else halo)')
    p.add_argument('--pattern', metavar='SPEC',
                   help='box:R:r | star:R:r | "-1,0;0,0;1,2"')
    p.add_argument('--weights', metavar='W0,W1,...',
                   help='weights in canonical pattern order')
    p.add_argument('--body', metavar='PYEXPR',
                   help='general body over a(*offset), evaluated in f64 '
                        '(APPROXIMATION for bodies computed in the element '
                        'type; tolerance scaled by max(4, #ops)); needs '
                        '--pattern to declare the offsets')
    p.add_argument('--from-mlir', metavar='FILE',
                   help='read the first stencil.linear (or stencil.apply) op '
                        'of a function from an MLIR file')
    p.add_argument('--func', metavar='NAME',
                   help='function in --from-mlir (default: the first)')
    p.add_argument('--tol-scale', type=float, default=1.0, metavar='X',
                   help='multiply the tolerance by X (default 1)')
    p.add_argument('--emit-expected', action='store_true',
                   help='print the expected output in harness format instead '
                        'of checking a result')
    p.add_argument('--show', type=int, default=0, metavar='K',
                   help='also print K output values from the middle of the '
                        'grid, next to the reference values')
    p.add_argument('--self-test', action='store_true',
                   help='run built-in checks and exit')
    args = p.parse_args(argv)

    if args.self_test:
        return self_test()
    try:
        if args.grid is None:
            raise UsageError('--grid is required')
        dims = _parse_grid(args.grid)
        if args.result is None and not args.emit_expected:
            raise UsageError('--result FILE (or --emit-expected) is required')
        sources = [x for x in ('from_mlir', 'weights', 'body')
                   if getattr(args, x) is not None]
        if len(sources) != 1:
            raise UsageError('give exactly one of --pattern/--weights, '
                             '--from-mlir or --body/--pattern')
        steps, boundary, dtype = None, None, None
        weights = body = None
        nops = 0
        if args.from_mlir is not None:
            if args.pattern is not None:
                raise UsageError('--pattern cannot be combined with --from-mlir')
            st = read_mlir(args.from_mlir, args.func)
            offsets, steps, boundary, dtype = (st['offsets'], st['steps'],
                                               st['boundary'], st['dtype'])
            weights = st.get('weights')
            body, nops = st.get('body'), st.get('nops', 0)
        else:
            if args.pattern is None:
                raise UsageError('--pattern is required with --weights/--body')
            offsets = parse_pattern_spec(args.pattern)
            if args.weights is not None:
                try:
                    weights = [float(w) for w in args.weights.split(',')]
                except ValueError:
                    raise UsageError(f'bad --weights {args.weights!r}') from None
                if len(weights) != len(offsets):
                    raise UsageError(f'{len(weights)} weights for '
                                     f'{len(offsets)} pattern offsets')
            else:
                body, nops = compile_body_expr(args.body)
        if args.steps is not None:
            steps = args.steps
        if args.boundary is not None:
            boundary = parse_boundary(args.boundary)
        if args.dtype is not None:
            dtype = args.dtype
        steps = 1 if steps is None else steps
        boundary = ('halo',) if boundary is None else boundary
        if dtype is None:
            raise UsageError('--dtype is required')
        if steps < 0:
            raise UsageError('--steps must be >= 0')
        if len(offsets[0]) != len(dims):
            raise UsageError(f'pattern rank {len(offsets[0])} does not match '
                             f'grid rank {len(dims)}')

        init = initial_grid(dims, 0)
        expected, maxabs = run_stencil(dims, init, offsets, steps, boundary,
                                       dtype, weights=weights, body=body)
        if args.emit_expected:
            print('\n'.join(format_expected(dims, expected, dtype)))
            return 0
        if body is None:
            s, factor = sum(abs(w) for w in weights), 1.0
        else:
            s, factor = 1.0, float(max(4, nops))
        tol = tolerance(dtype, maxabs, s, steps, factor * args.tol_scale)
        ints = read_result(args.result)
    except UsageError as e:
        print(f'stencil-ref: error: {e}', file=sys.stderr)
        return 2
    ok, lines = compare(dims, expected, ints, dtype, tol, maxabs)
    if args.show > 0:
        show_sample(dims, expected, ints, dtype, args.show)
    print('\n'.join(lines))
    return 0 if ok else 1


def show_sample(dims, expected, ints, dtype, k):
    """Prints k result values from the middle of the grid with the reference."""
    data = ints[1 + len(dims):]
    center = 0
    for d in dims:
        center = center * d + d // 2
    start = max(0, min(center, len(data) - k))
    print(f'output values from row-major index {start} (result / reference):')
    for n in range(start, min(start + k, len(data), len(expected))):
        idx, rem = [], n
        for d in reversed(dims):
            idx.append(rem % d)
            rem //= d
        got = decode(dtype, data[n] & MASK64)
        print(f'  {list(reversed(idx))}: {got:+.6e} / {expected[n]:+.6e}')


if __name__ == '__main__':
    sys.exit(main())
