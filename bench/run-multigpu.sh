#!/usr/bin/env bash
# On the 2-GPU machine (device kind nvidia-h200-x2, NVLink multicast off):
# one grid over several GPUs (issue 19, docs/MultiGPU.md).
#   bench/run-multigpu.sh ART_DIR [PARTS]
# ART_DIR is made here by bench/compile-multigpu.sh. PARTS (default all),
# any of:
#   bitwise  every case at the odd 2-D (4099x2053) or 3-D (257x251x263)
#            size, 8 steps on 2 GPUs: stencil-run --gpus 2 checks the
#            1-GPU result against the f64 reference and the 2-GPU result
#            against the 1-GPU one bit for bit (MULTI lines: bitwise=yes)
#   strong   Heat-2D f16 40960^2 (100 steps) and Heat-3D f64 1024^3 (20
#            steps) on 1 and 2 GPUs in one stencil-run (speedup=) with the
#            time split (ms_no_overlap, ms_compute, ms_exchange)
#   weak     the same kernels on 1 GPU at half the outermost size; the
#            efficiency is that time over the 2-GPU time of strong
#   large    Heat-3D f64 Nx2048x2048 on 2 GPUs, checked on windows of
#            planes: N (a multiple of 128) makes the two buffers about 12%
#            more than one GPU's memory (nvidia-smi), 2560 on an H200
#            (172 GB against 141 GB), 1536 on an H100 (103 GB against 80 GB)
#   mpi      the Python module, one process per GPU under MPI (mpi4py), the
#            NCCL id sent by MPI_Bcast: equal to one process bit for bit
# GPUS (default 2) ranks in bitwise; SAME_DEVICE=1 puts them all on GPU 0
# (the decomposition tested on a machine of one GPU, halos by device
# copies). Log: $OUT/multigpu.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=$(cd "${1:?usage: run-multigpu.sh ART_DIR [PARTS]}" && pwd)
parts=${2:-bitwise strong weak large mpi}
out=${OUT:-/tmp/multigpu-out}
mkdir -p "$out"
log=$out/multigpu.txt
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
source "$root/bench/common.sh"
build_runner "$out"
grep -m1 "NCCL" "$out/build.txt" | tee "$out/nccl.txt"
grep -q "building libStencilMultiGpu" "$out/nccl.txt" || { echo "no NCCL found"; exit 2; }
begin_log
nvidia-smi topo -m 2>&1 | head -4 | tee -a "$log"
status=0
has() { [[ " $parts " == *" $1 "* ]]; }
runlog() { # NAME ARGS...: stencil-run ARGS, its output kept, summary logged
  local name=$1
  shift
  "$run" "$@" > "$out/$name.txt" 2>&1
  local rc=$?
  grep -E "^(RESULT|MULTI|multi-gpu|check: planes|  rank|  worst)|error" \
    "$out/$name.txt" | sed "s/^/$name: /" | tee -a "$log"
  [ $rc = 0 ] || { echo "$name: exit $rc" | tee -a "$log"; status=1; }
}

if has bitwise; then
  for desc in "$art"/*.launch; do
    name=$(basename "$desc" .launch)
    [[ $name == bench-* ]] && continue
    [[ $name =~ ${CASES:-.} ]] || continue
    rank=$(sed -n 's/^rank = //p' "$desc")
    runlog "$name" "$desc" --grid "$(grid_for "$rank" odd)" --steps 8 \
      --warmup 0 --seed 7 --gpus "${GPUS:-2}" ${SAME_DEVICE:+--same-device}
  done
  elapsed bitwise
fi
if has strong; then
  runlog strong-heat2d "$art/bench-heat2d-f16.launch" --grid 40960,40960 \
    --steps 100 --gpus 2
  runlog strong-heat3d "$art/bench-heat3d-f64.launch" --grid 1024,1024,1024 \
    --steps 20 --gpus 2
  elapsed strong
fi
if has weak; then
  runlog weak-heat2d "$art/bench-heat2d-f16.launch" --grid 20480,40960 \
    --steps 100 --no-check
  runlog weak-heat3d "$art/bench-heat3d-f64.launch" --grid 512,1024,1024 \
    --steps 20 --no-check
  elapsed weak
fi
if has large; then
  # Two f64 buffers of 2048^2 planes: 64 MiB a plane.
  mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0)
  large=$(( (mib * 112 / 100 / 64 + 127) / 128 * 128 ))
  echo "large: one GPU has $mib MiB; $large planes of 2048^2 f64 make" \
    "$(( large * 64 / 1024 )) GiB in two buffers" | tee -a "$log"
  runlog large-heat3d "$art/bench-heat3d-f64.launch" --grid "$large,2048,2048" \
    --steps 4 --check-steps 2 --gpus 2 --no-single
  elapsed large
fi
if has mpi; then
  if python3 -c "from mpi4py import MPI" 2>/dev/null && command -v mpirun > /dev/null; then
    export STENCIL_RUNTIME_LIBRARY=/tmp/build-run/runtime/libStencilRuntime.so
    export PYTHONPATH=$root/python
    # Open MPI passes the environment by -x; MPICH's hydra passes all of it.
    flags=()
    if mpirun --version 2>&1 | grep -q "Open MPI"; then
      flags=(--allow-run-as-root -x NCCL_NVLS_ENABLE -x
             TORCH_SYMM_MEM_DISABLE_MULTICAST -x NVSHMEM_DISABLE_NVLS
             -x PYTHONPATH -x STENCIL_RUNTIME_LIBRARY)
    fi
    mpirun --version 2>&1 | head -2 | sed 's/^/mpi: /' | tee -a "$log"
    mpirun "${flags[@]}" -np 2 python3 "$root/bench/multigpu-mpi.py" \
      "$art/bench-heat2d-f16.launch" 4099,2053 8 2>&1 | tee -a "$log"
    [ "${PIPESTATUS[0]}" = 0 ] || status=1
  else
    echo "mpi: no mpi4py or mpirun: $(python3 -c 'from mpi4py import MPI' 2>&1 | tail -1); $(command -v mpirun mpiexec)" | tee -a "$log"
    status=1
  fi
  elapsed mpi
fi
exit $status
