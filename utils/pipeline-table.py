#!/usr/bin/env python3
"""Prints the table of docs/UserGuide.md, "What each pipeline accepts".

Usage: pipeline-table.py [STENCIL-OPT]   (default build/bin/stencil-opt)

Compiles a 2-D radius-1 star (as stencil.linear and as a linear
stencil.apply body) and a max-of-neighbours stencil.apply body, 4 steps, for
every element type and boundary, with every pipeline down to PTX (or the
LLVM dialect for --lower-to-cpu), and prints which were accepted. Python 3
standard library only; no GPU needed. About 20 minutes, mostly
--lower-to-auto.
"""
import subprocess, sys, os, itertools, re, tempfile
OPT = sys.argv[1] if len(sys.argv) > 1 else 'build/bin/stencil-opt'
TYPES = ['f16', 'bf16', 'f32', 'f64']
BOUNDS = {'halo': '', 'periodic': ' boundary periodic', 'dirichlet': ' boundary dirichlet(0.5)'}
PIPES = {'cpu': '--lower-to-cpu', 'cuda-core': '--lower-to-cuda-core', 'tc': '--lower-to-tc',
         'sptc': '--lower-to-sptc', 'fft': '--lower-to-fft', 'auto': '--lower-to-auto=ptxas=none'}
def linear(t, b):
    return f'''func.func @k(%in: memref<?x?x{t}>, %out: memref<?x?x{t}>) {{
  stencil.linear %in -> %out pattern <star, rank = 2, radius = 1>
      weights [0.1, 0.2, 0.4, 0.2, 0.1] steps 4{BOUNDS[b]} : memref<?x?x{t}>
  return
}}
'''
def general(t, b):
    return f'''func.func @k(%in: memref<?x?x{t}>, %out: memref<?x?x{t}>) {{
  stencil.apply %in -> %out steps 4{BOUNDS[b]} : memref<?x?x{t}> {{
    %c = stencil.access [0, 0] : {t}
    %n = stencil.access [-1, 0] : {t}
    %s = stencil.access [1, 0] : {t}
    %m = arith.maximumf %n, %s : {t}
    %h = arith.constant 0.5 : {t}
    %a = arith.mulf %h, %c : {t}
    %r = arith.addf %a, %m : {t}
    stencil.yield %r : {t}
  }}
  return
}}
'''
def lingen(t, b):
    return f'''func.func @k(%in: memref<?x?x{t}>, %out: memref<?x?x{t}>) {{
  stencil.apply %in -> %out steps 4{BOUNDS[b]} : memref<?x?x{t}> {{
    %c = stencil.access [0, 0] : {t}
    %n = stencil.access [-1, 0] : {t}
    %s = stencil.access [1, 0] : {t}
    %h = arith.constant 0.5 : {t}
    %q = arith.constant 0.25 : {t}
    %a = arith.mulf %h, %c : {t}
    %ns = arith.addf %n, %s : {t}
    %b = arith.mulf %q, %ns : {t}
    %r = arith.addf %a, %b : {t}
    stencil.yield %r : {t}
  }}
  return
}}
'''
BODIES = {'linear': linear, 'general': general, 'linear-apply': lingen}
res = {}
work = tempfile.mkdtemp()
for t, b, body, p in itertools.product(TYPES, BOUNDS, BODIES, PIPES):
    f = os.path.join(work, f'{t}-{b}-{body}.mlir')
    open(f, 'w').write(BODIES[body](t, b))
    d = subprocess.run([OPT, f, PIPES[p], '-o', '/dev/null'], capture_output=True, text=True, timeout=600)
    err = ''
    if d.returncode != 0:
        m = re.search(r'error: (.*)', d.stderr)
        err = m.group(1) if m else d.stderr.strip()[-200:]
    res[f'{t}|{b}|{body}|{p}'] = err
    print(t, b, body, p, 'OK' if d.returncode == 0 else 'NO: ' + err[:150],
          file=sys.stderr, flush=True)

def cell(t, b, p):
    lin = not res[f'{t}|{b}|linear|{p}']
    gen = not res[f'{t}|{b}|general|{p}']
    return 'L G' if lin and gen else 'L' if lin else 'G' if gen else '\u2013'

for k in res:
    if '|linear|' in k and bool(res[k]) != bool(res[k.replace('|linear|', '|linear-apply|')]):
        print('note: a linear stencil.apply body differs from stencil.linear:', k)
print('| element type | boundary | ' + ' | '.join(f'`{p}`' for p in PIPES) + ' |')
print('| --- | --- | ' + ' | '.join(':---:' for p in PIPES) + ' |')
for t in TYPES:
    for b in BOUNDS:
        print(f'| {t} | {b} | ' + ' | '.join(cell(t, b, p) for p in PIPES) + ' |')
