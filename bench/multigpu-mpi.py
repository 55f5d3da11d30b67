"""One process per GPU under MPI (issue 19): rank 0 makes the NCCL id,
MPI_Bcast sends it, every process drives its GPU's slab through the Python
module (stencil_runtime.Multi); the own planes gathered on rank 0 must
equal one GPU's result (a Multi of one rank: the kernel on the whole grid)
bit for bit.

    mpirun -np 2 python3 bench/multigpu-mpi.py DESC.launch NY,NX STEPS
"""
import sys

import numpy as np
from mpi4py import MPI

import stencil_runtime as sr

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
launch, grid, steps = sys.argv[1], tuple(
    int(n) for n in sys.argv[2].split(",")), int(sys.argv[3])
dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[
    [line.split("=")[1].strip() for line in open(launch)
     if line.startswith("element_type")][0]]
x = np.random.default_rng(3).uniform(-1, 1, grid).astype(dtype)
plane_bytes = x[0].nbytes

uid = sr.Multi.unique_id() if rank == 0 else None
uid = comm.bcast(uid, root=0)
m = sr.Multi(launch, grid, device=rank, id=uid, num_ranks=size, rank=rank)
m.upload(x)
m.run(steps)
begin, end, _, _ = m.slab(rank)
part = m.download(begin, end - begin, plane_bytes)
parts = comm.gather((begin, end, bytes(part)), root=0)
if rank == 0:
    multi = bytearray(x.nbytes)
    for b, e, data in parts:
        multi[b * plane_bytes:e * plane_bytes] = data
    one = sr.Multi(launch, grid, devices=[0])
    one.upload(x)
    one.run(steps)
    single = one.download(0, grid[0], plane_bytes)
    same = multi == single
    moved = bytes(single) != x.tobytes()
    print("MPI processes=%d grid=%s steps=%d halo=%d bitwise=%s changed=%s"
          % (size, "x".join(map(str, grid)), steps, m.halo,
             "yes" if same else "NO", moved))
    sys.exit(0 if same and moved else 1)
