//===- Passes.td - Stencil conversion passes ---------------*- tablegen -*-===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertStencilToSCF : Pass<"convert-stencil-to-scf"> {
  let summary = "Lower stencil ops to scf loops over memrefs (the CPU "
                "reference)";
  let description = [{
    The reference lowering every other pipeline is checked against, kept
    simple on purpose. For a stencil of `T` steps on a grid of rank `n` with
    per-dimension radius `r_d` it emits:

    1. with the `halo` boundary, `memref.copy input -> output` (the output
       halo is the input's);
    2. an `scf.for` over the `T` steps carrying `(src, dst)` and yielding
       `(dst, src)`, so step `t` reads step `t-1` (ping-pong);
    3. inside it an `n`-deep `scf.for` nest over the computed points:
       `r_d <= i_d < N_d - r_d` for `halo`, the whole grid otherwise;
    4. at each point, for `stencil.linear`, the sum of `w_i * src[i + o_i]`
       accumulated in f64 in pattern order and rounded once to the element
       type (unrolled up to 64 points; above, an `scf.for` over the points
       reading `o_i` and `w_i` from two constant `memref.global` tables, so
       that the IR does not grow with the pattern); for `stencil.apply`, the
       body cloned with each `stencil.access` replaced by a load (computing
       in the element type, as written);
    5. when `T` is even the result is in `input`: a final
       `memref.copy input -> output`.

    Neighbour loads: `halo` loads `src[i + o]` (in bounds by construction);
    `periodic` loads `src[(i + o + N) mod N]` (needs `N > r`, which the
    verifier checks for static sizes); `dirichlet` loads at the index clamped
    into the grid and selects the boundary value when `i + o` is outside.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def ConvertStencilToSpTC : Pass<"convert-stencil-to-sptc", "::mlir::ModuleOp"> {
  let summary = "Lower stencil.sparse_row_gemm to an mma.sp GPU kernel "
                "(stencil.row_gemm to a dense mma.sync one)";
  let description = [{
    The dense form takes the same path (`--lower-to-tc`, SPIDER's "w. TC"
    configuration, section 4.4): a prepared `stencil.row_gemm` becomes a
    kernel in `@stencil_tc` whose kernel rows are two `mma.sync.m16n8k16`
    each (K = 0..15, then 16..31), fed with the very B registers of the
    sparse kernel (`Support/MmaModel.h`); the A operands are the dense
    packed words (8 per lane and row). On bf16 grids the dense form uses
    `mma.sync.m16n8k16` with bf16 operands (same fragments; NVVM takes the
    operand pairs as i32). Everything else below applies to both forms,
    except for f64 grids.

    A fused form (`fused_steps` t, from `--stencil-decompose fused-steps`;
    kernel composition, LoRAStencil section III-A) is the kernel of
    its composed weights, exact only on `[t r_d, N_d - t r_d)`: beside it, in
    the same `gpu.module`, the pass builds the band kernel (t direct steps
    of `step_pattern`/`step_weights` on CUDA cores, one block per tile that
    reaches the band, stores only there) and the tail kernel of one direct
    step, launched for the steps left over (`S mod t` of the op's steps, or
    of any run's in libStencilRuntime); the host code launches the band
    kernel after each composed launch (docs/Pipelines.md).

    On f64 grids a `stencil.row_gemm` becomes the f64 kernel
    (`TCF64Kernel.cpp`) on `mma.sync.m8n8k4` f64: A holds 8 rows (8 `y`, or
    8 segments in 1-D) by 4 consecutive inputs, B the weights of one
    K-chunk (`TCF64CoefficientLayout`, ceil((8 + 2 r) / 4) chunks per
    n-tile of 8 outputs), C 8 rows by 8 consecutive outputs. A block stages
    its tile with the halo in shared memory (pitch 4 mod 8 doubles:
    conflict-free 64-bit A loads), each warp computes `mTiles` x `nTiles`
    tiles of 8 x 8 outputs, every A fragment feeding the n-tiles that read
    it; accumulation in f64. With `f64-shape=m16n8k4` (sm_90) two m-tiles
    (rows g and g + 8) share one `mma.sync.m16n8k4` f64: its fragments are
    those of two m8n8k4 with the same B (a_1, c_2, c_3 at row g + 8).

    The gathered forms (SparStencil, sections 3.1-3.3: `layout`
    [r1, r2] and `gather_offsets`, from `--stencil-flatten` and
    `--stencil-sptc-match`) take the same kernel with another B operand and
    output mapping: kernel row q is MMA q, and register p of lane (g, t)
    holds the input pair of slot s = t + 4p, at the MMA column's origin
    plus `pad + dz Z + dy Y + dx` (Z, Y the tile's strides), one of four
    constants selected by t (SparStencil's lookup-table address mapping,
    folded into per-lane constants); slots whose A columns are all zero read
    the origin. Output m = u r1 + v of a column lies at (u, v) from its
    origin; the 8 columns of an MMA lie along y for [16, 1] (the banded
    geometry) and along x otherwise (`SpTCGeometry`). Lanes store 4
    consecutive outputs after the 4 x 4 transpose where r1 >= 4, one at a
    time for [2, 8]. f64 gathered forms are a located error.

    Turns every `stencil.sparse_row_gemm` (with `input_offsets`, `tiling`
    and `packed_coefficients`, f16 grids, halo boundary) into a `gpu.func` kernel in the `gpu.module`
    `@stencil_sptc` and, in place of the op, host code that uploads the
    packed coefficients and launches the kernel once per time step,
    ping-ponging the two buffers as the op's semantics say.

    Tiling (SPIDER 3.3.1, chosen by `--stencil-sptc-tile`). One `mma.sp.m16n8k32` computes 16 consecutive
    outputs along the innermost dimension (`x`) for 8 columns; its A operand
    stacks `16 / L` kernel matrices (`Support/SpTCPacking.h`). In 2-D and 3-D
    the 8 columns are 8 consecutive `y`; a warp computes 16 x 8 `n-tiles`
    outputs, a block of `warps` warps side by side along `x` computes
    `16 warps x 8 n-tiles` (and one `z` plane in 3-D). In 1-D the columns are
    8 consecutive segments of 16 outputs, a warp computes `128 n-tiles`
    consecutive outputs. The block stages its input tile with the halo in
    shared memory (zero outside the grid), then every warp runs, for every
    kernel row and n-tile, one `mma.sp` with f32 accumulation. The default
    tiling is the best of the H200 sweeps in bench/NOTES.md: in 2-D, 4 warps
    x 4 n-tiles x 8 cp.async-pipelined sub-tiles (64 x 256 outputs per
    block); in 3-D 4 warps x 8 n-tiles x 32 streamed planes; in 1-D 4
    warps x 8 n-tiles, synchronous staging. The B
    operand of a given column shift is loaded once and feeds every
    (kernel row, n-tile) pair with that shift (register tiling). A block
    computes `sub-tiles` such tiles one after the other along `y` (`x` in
    1-D), software-pipelined: with `asyncCopy` the next sub-tile is copied
    into a second shared-memory buffer by `cp.async` while the current one
    computes; without it each thread loads the next sub-tile into registers
    before computing the current one and stores them into shared memory
    after it. The kernel matrices stay in registers: each lane loads its A
    values and metadata once, from the packed coefficient buffer.

    3-D plane stream (the z-marching of GPU stencil codes). In 3-D the
    sub-tiles are output planes along `z`. The shared memory holds a ring
    of the 2 r_z + 1 input planes (the size of one sub-tile's tile): input
    plane p of the block (at z_0 - r_z + p) lives in slot p mod (2 r_z + 1).
    Each step stores the next input plane (loaded into registers during the
    previous step) into the slot of the plane no longer needed, and the B
    loads of a plane at dz read slot (k + r_z + dz) mod (2 r_z + 1), a
    per-step base added to the lane's offsets (per lane and register in the
    gathered form, whose slots have their own dz). Every input plane is
    loaded once per block instead of 2 r_z + 1 times. On an H100 this took
    Star-3D13P from 174 to 381 GStencil/s (bench/NOTES.md). `asyncCopy`
    is not supported with streamed planes (a located error).

    Shared memory (`Support/SpTCPacking.h`, `planSpTCBOperand`): rows of
    `pitch` elements, staged in 16-byte vectors; the pitch and a swizzle
    (the 8-byte halves of every other 16-byte chunk trade places) are chosen
    so that the 32-bit B loads of a warp hit 32 distinct banks. Where the
    swizzle is on, `cp.async` copies 8-byte halves to their swizzled places
    and the synchronous path swaps the halves of a vector before storing
    it. On the H200, removing the 2-way conflicts of the paired swap took
    Box-2D 15x15 from 265 to 309 GStencil/s (bench/NOTES.md).

    Data packing (SPIDER 3.3.2): the coefficient buffer holds the
    `packed_coefficients` of `--stencil-sptc-pack` (per-lane contiguous values, MMAs in sequence,
    metadata of two kernel rows in one register chosen by the sparsity
    selector). It is a constant global of the host module.

    Row swap (SPIDER 3.2): the B operand element `b_i` of a lane reads the
    shared-memory address `base(lane) + const(kernel row, n-tile, i)`; the
    strided swap only changes the constants (`input_offsets`), so it costs
    no instruction.

    Outputs are rounded to f16 and stored when they are interior points
    (halo boundary); a grid whose size is not a multiple of the tile is
    handled by these bounds checks, and no access leaves the grid. An
    accumulator fragment holds one output per row of 8 rows; two
    `shfl.bfly` (a 4 x 4 transpose over 4 groups of lanes) give each lane 4
    consecutive outputs of one row, stored with one 8-byte store (whole
    32-byte sectors). Rows whose length is not a multiple of 4, and the
    grid's edges, store outputs one by one.

    The A values are read with one 16-byte load per kernel row and lane.

    The kernel ABI, tile and coefficients are recorded in the module
    attribute `stencil.launches` for `stencil-translate --to-launch`
    and the runner (docs/LaunchDescription.md).
  }];
  let options = [
    Option<"orderedMetadata", "ordered-metadata", "bool", /*default=*/"true",
           "Emit mma.sp::ordered_metadata (PTX ISA 8.5; needs +ptx85)">,
    Option<"f64Shape", "f64-shape", "::mlir::stencil::F64Shape",
           /*default=*/"::mlir::stencil::F64Shape::M8N8K4",
           "MMA of the f64 kernel (m16n8k4: twice the f64 Tensor Core rate; "
           "emitted as inline PTX, which MLIR's nvvm.mma.sync does not "
           "verify for f64 yet)",
           "::mlir::stencil::getF64ShapeValues()">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def ConvertStencilToCudaCore
    : Pass<"convert-stencil-to-cuda-core", "::mlir::ModuleOp"> {
  let summary = "Lower stencil ops to plain FMA GPU kernels (CUDA cores)";
  let description = [{
    Turns every `stencil.linear` and `stencil.apply` (any element type, 1-3
    dimensions, any boundary) into a `gpu.func` kernel in the `gpu.module`
    `@stencil_cuda_core` and, in place of the op, host code that launches it
    once per time step (or per `fused-steps` steps, see "Temporal blocking"),
    ping-ponging the two grids (the host side is the one
    of every GPU pipeline, `StencilGPUCommon/HostLaunch.h`). This is the
    pipeline for what the Tensor Core pipelines cannot take: f32 and f64
    grids, non-linear bodies, any pattern ("Do We Need Tensor Cores?", section 4: sparse Tensor
    Cores pay off only in part of the space).

    Tiling. A block of `threads-x x threads-y` threads computes a tile of
    `threads-x` outputs along `x` by `threads-y x outputs-per-thread` along
    `y` (in 1-D, `threads-x x threads-y x outputs-per-thread` consecutive
    outputs, each thread's outputs `threads-x x threads-y` apart). In 3-D the
    tile has `planes` z planes, computed one after the other by the same
    threads, so that the `2 r_z` staged halo planes serve `planes` output
    planes: global loads per output along z drop from `1 + 2 r_z` to
    `(planes + 2 r_z) / planes` (for Heat-3D and 8 planes, 3 -> 1.25). By
    default the pass takes the most of 8, 4, 2 planes whose tile (with the
    halo of `fused-steps`) fits in 48 KiB of shared memory. The block first stages its input tile
    with the halo (`r_d` on each side) in shared memory, thread `tid`
    taking the row-major positions `tid, tid + threads, ...` (coalesced,
    evenly spread) in groups of 8 whose loads are all issued before their
    stores (one load latency per group, not per element), then computes
    from shared memory.
    Outside the grid it stages zero for the `halo` boundary (never read by
    an interior output), the input at the coordinates wrapped modulo `N_d`
    for `periodic`, and the boundary value for `dirichlet(v)`.

    Register tiling (`stencil.linear`). A thread's `outputs-per-thread`
    outputs are consecutive along `y`: for each distinct `(dz, dx)` column
    of the pattern it walks the input rows once, loading each shared-memory
    value once, and adds `w * v` into every output whose offset
    `(dz, dy, dx)` is in the pattern (`llvm.intr.fma`, which needs no
    libdevice). Shared-memory loads per
    output: `(columns x (outputs + 2 r_y)) / outputs` instead of the number
    of points. The weights are read from the `.const` array
    `<kernel>_weights` (in the accumulation type; the launch record's
    `weights_global`), whose loads ptxas folds into the FMAs as
    constant-bank operands, and which the runtime overwrites to replace
    them (`replaceable-weights`; off: instruction immediates); accumulation is f32
    (f64 for f64 grids), rounded to the element type when stored. After
    each column an empty volatile `llvm.inline_asm` reading the accumulators
    keeps that column's loads and FMAs together: LLVM would otherwise sink
    every FMA below all the loads and keep every loaded value live (box
    15 x 15 in f64 spilled).

    General bodies (`stencil.apply`): each output clones the body, every
    `stencil.access` a shared-memory load, computing in the element type as
    the op says.

    Outputs are stored when they are interior points (`halo`) or grid
    points (`periodic`, `dirichlet`); the bounds checks handle grids that
    are not a multiple of the tile. The launch record carries the boundary
    and, for a general body, the body as an expression the runner's
    reference evaluates (docs/LaunchDescription.md, key `body`); a body with
    an op that has no such spelling gets a warning (the kernel can be timed
    but not checked).

    Temporal blocking (`fused-steps` = t > 1). One launch computes t time
    steps, as the temporally fused CUDA-core kernels of "Do We Need Tensor Cores?" (section
    3.2.2: t times the work per output for the same global traffic) and
    EBISU do, with AN5D's overlapped (trapezoid) tiling: the block stages its
    tile with a halo of `t r_d` per side once, then steps 1 .. t - 1 compute
    shrinking regions of it in shared memory (step s: the tile grown by
    `(t - s) r_d` per side), ping-ponging between two shared buffers with a
    `gpu.barrier` after each step; the last step is the one-step computation
    above, and only it writes to global memory. Neighbouring blocks
    recompute the overlap of their halos instead of exchanging it. An
    intermediate region is split into work units that the threads take in
    turn: `outputs-per-thread` consecutive points along y (register tiling as
    above; the last group of a column moves up to stay in the region) or one
    point in 1-D. Every intermediate point is rounded to the element type
    (it is stored in shared memory of that type) and, exactly as in a
    one-step launch, keeps its previous value unless it is an interior grid
    point (any grid point under `dirichlet`, so points outside the grid keep
    the boundary value; every position under `periodic`, each being the
    value of its wrapped grid point), so the halo keeps the input's values
    and a launch gives bit for bit the result of t one-step launches. Shared memory: two buffers of
    `prod_d (T_d + 2 t r_d)` elements, at most 48 KiB (a located error
    suggests a smaller t or tile). In 3-D the halo planes cost more than in
    2-D (`P + 2 t r_z` staged planes for `P` output planes), so fewer planes
    fit with fused steps.

    Streaming (`stream`, 3-D; AN5D, Matsumura et al. CGO 2020, and the fused
    CUDA-core kernels of "Do We Need Tensor Cores?"). A block owns a (y, x) tile and `planes`
    z planes of outputs (default 32) and marches along z: iteration i stages
    input plane i of its tile (with the halo of `t r` per side) into a ring
    of planes (`2 r_z + 1` with fused steps, `2 r_z + 2` for one step, whose
    staging follows its last step without a barrier), then each fused step
    s computes its plane
    `i - s r_z` from the 2 r_z + 1 planes around it in the ring of step
    s - 1, and the last step stores output plane `i - 2 t r_z`. Each input
    plane is loaded once per block (the 2 t r_z halo planes at a block's z
    ends twice), and shared memory holds `t` rings of planes instead of the
    tile: `t (2 r_z + 1) (T_y + 2 t r_y)(T_x + 2 t r_x)` elements for t > 1,
    so the default 32 x 32 tile fits with radius 1 and 2 fused steps in f32
    (in f64, or with more steps, the tile shrinks along y). Every plane of a step is computed as the
    staged kernel computes it, so the results are the same bit for bit. The
    sweep is built twice, and a uniform branch picks one per block: blocks
    whose (y, x) tile grown by the halo lies in the grid run it without the
    bounds checks along y and x (every point they stage or compute is then
    a grid point, interior where a step writes it), the others with them.
    `stream=auto` (the default of `--lower-to-cuda-core`) streams every 3-D
    stencil whose rings fit and stages the others; `on` makes a ring that
    does not fit, or a stencil that is not 3-D, an error. With
    `prefetch-planes` (the default) a kernel of one step per launch whose
    threads stage at most 16 values of a plane (the ring, and the plane
    sums below) loads plane i + d into registers in iteration i (d =
    `prefetch-distance`, default 1) and stores it to shared memory in
    iteration i + d, so that its global loads overlap the computation of
    the d planes before it (the results do not change; an H100 runs the
    default Heat-3D f16 tiling 21% faster with d = 1, f64 Box-3D27P 15%;
    with fused steps it was slower, so they stage in the iteration as
    before; bench/NOTES.md, "Prefetched planes").

    Plane sums (`plane-sums=true`, off by default; a streamed 3-D
    `stencil.linear` with one step per launch; AN5D's register streaming
    in 3-D, kernel in CudaCorePlaneSums.cpp): the ring shrinks to two
    planes, the one being
    read and the one being staged, and each thread keeps `2 r_z + 1`
    partial sums per output in registers. Iteration i stages input plane
    i, then, column by column (dx, then the rows dy), reads each in-plane
    value of its outputs' neighbourhood from shared memory once and adds
    `w(dz, dy, dx) v` into the partial sum of output plane `i - dz` for
    every dz; plane `i - r_z` is then complete and stored. Each in-plane
    value is read once for the `2 r_z + 1` planes it feeds instead of once
    per plane (Box-3D27P, 4 outputs per thread: 18 shared loads per plane
    instead of 54). Each output sums its points in the ring's order (dz,
    dx, dy), so the results are the ring's bit for bit. The loop is unrolled
    by `2 r_z + 1` iterations (static slots) and runs whole groups: up to
    `2 r_z` planes past the block's last are staged and summed, not
    stored. With `prefetch-planes` it loads its planes ahead as the ring
    does. Measured on an H100 (bench/NOTES.md, "Plane sums", "Prefetch
    distance") it is the fastest f16 Box-3D27P kernel (27 points: 20%
    ahead of the ring's best) and ties the ring on f16 Heat-3D, but was
    slower for f32 and f64 grids (the partial sums cost registers), hence
    off by default.

    Vector columns (`vector-width=W`, 2, 4 or 8, with the plane sums; W
    elements at most 16 bytes): each thread owns W adjacent columns, so the
    block is W `threads-x` columns wide, and the halo along x is r_x
    rounded up to a multiple of W, so that every row of a staged plane and
    every thread's columns start on a multiple of W elements. Blocks whose
    (y, x) tile and halo lie in the grid, on grids whose rows are a
    multiple of W, stage each plane as whole W-element vectors (one global
    load and one shared store each), read each input row's W columns and
    their neighbours as the aligned vectors covering them, and store their
    W outputs of a row as one vector. The other blocks of such grids (at
    the grid's y and x edges) do the same with their y and x checks
    computed once, before the sweep: clamped (halo) or wrapped (periodic)
    staging indices, which output rows they store, and, under the halo
    boundary, the lanes of the kept columns x < r_x and x >= N_x - r_x,
    whose input values ride in extra ring slots of the sums to the store.
    Grids whose rows are not a multiple of W stage and store element by
    element (the same shared layout and sums). The sums run row by row
    (dy, then dx within a plane; dz-major as before), so the results
    differ from the ring's by rounding only. Measured on an H100 at 768^3
    (bench/NOTES.md, "Vector columns", "Edge blocks"), f16 Heat-3D with
    W = 8 and Box-3D27P with W = 4 run at 92% and 82% of the single-step
    bound (611 and 562 GStencil/s before the edge blocks' checks moved
    out of the sweep, 692 and 619 after).

    `min-blocks-per-sm=N` puts `.minnctapersm N` on the kernels: ptxas
    then schedules within the registers that leave room for N blocks per
    SM. It is a register budget, not an occupancy cap (more registers let
    ptxas keep more loads in flight).

    Row streaming (`stream=on` for a 2-D `stencil.linear`; AN5D's register
    streaming, sections 3.1-3.3, kernel in CudaCoreRowStream.cpp): the block
    is one row of `threads-x * threads-y` threads, each owning
    `outputs-per-thread` columns (default 1; thread c the columns c + j
    threads, whose FMAs of each point follow each other), W columns in
    all, of a tile of `planes` rows (default 128) and W - 2 t r_x columns. It
    sweeps along y; per iteration each thread stages its input row (loaded
    at least 4 rows ahead) in shared memory, and fused step s receives the
    row step s - 1 completed in the previous iteration, adds sum_dx w(dy,
    dx) v[q][x + dx] into the partial sum of output row q - dy for each dy
    (2 r_y + 1 sums in registers; the x neighbours from that step's shared
    row, the centre from a register), and completes output row q - r_y,
    stored in shared memory for step s + 1 or, for the last step, in `out`;
    one barrier per row. Shared memory is two rows per step (W + 2 r_x
    elements each). Each output sums its points in (dy, dx) order with one
    FMA each, so results differ from the staged kernel's (dx-major) order
    by rounding only. A general body, a 1-D stencil, or a row of threads
    too narrow for the halo (W <= 2 t r_x) is a located error. (With
    `stream=auto` an outputs-per-thread asks for the staged tiling.) The sweep is
    built twice, one picked per block by a uniform branch: blocks whose
    rows (with the rows loaded ahead past the last) and columns all lie r
    or more from the grid's edges skip the boundary's checks and selects.
    `stream=auto` sweeps the rows of a 2-D `stencil.linear` with t >= 2
    fused steps (where the sweep fits; the staged tiling otherwise) and
    stages it with one step, the faster kernel there.

    Row groups (`row-phases=N`, N >= 1, with the row sweep; kernel in
    CudaCoreRowGroups.cpp): the block sweeps groups of 2 r_y + 1 rows
    instead of one row per barrier, and each fused step applies the x
    offsets in N contiguous ranges (phases), each to all the group's rows
    before the next, into 2 (2 r_y + 1) partial sums per step. A phase then
    uses few enough weights for ptxas to keep them in the uniform registers
    (63 words: 31 f64 weights), where the per-row sweep reloads or moves
    one at almost every use of a 7 x 7 box's 49. Interior blocks copy the
    next group's rows with cp.async (4- and 8-byte elements) while the
    group computes. Shared memory: two input buffers and one per fused
    step but the last, each of 2 r_y + 1 rows. Each output sums its points
    by (group, phase, dy, dx): results differ from the per-row sweep's by
    rounding only. N is at most 2 r_x + 1; one column per thread
    (outputs-per-thread 0 or 1). Blocks at the grid's edges take the
    per-row sweep's general form (a grouped sweep with the boundary's
    checks needs more registers, and ptxas allocates one count per
    kernel). Measured on an H100 (bench/NOTES.md, "Row groups"): f64
    Box-2D49P with 2 fused steps, `planes=296 row-phases=3`, 214.0
    GStencil/s against 200.7 for the per-row sweep in the same run.

    The op's `steps` S stay exact: the host code launches the t-step kernel
    `floor(S / t)` times, then the one-step tail kernel (`<name>_tail`, the
    same schedule; its own tile where one step widens it, as in the row
    sweep) `S mod t` times. The launch record describes the t-step kernel
    (`steps_per_launch`), which is the one a benchmark times, even when
    S < t leaves it unused by the op's own host code, and its tail (the
    `tail_*` keys), with which a run of any number of steps is whole
    launches.
  }];
  let options = [
    Option<"threadsX", "threads-x", "int64_t", /*default=*/"32",
           "Threads of a block along x">,
    Option<"threadsY", "threads-y", "int64_t", /*default=*/"8",
           "Threads of a block along y (along x too in 1-D)">,
    Option<"outputsPerThread", "outputs-per-thread", "int64_t",
           /*default=*/"0",
           "Outputs per thread, consecutive along y (strided along x in "
           "1-D); 0: the most of 4, 2, 1 whose tile fits in 48 KiB of shared "
           "memory">,
    Option<"fusedSteps", "fused-steps", "int64_t", /*default=*/"1",
           "Time steps computed per launch (temporal blocking), 1 to 64">,
    Option<"planes", "planes", "int64_t", /*default=*/"0",
           "Output z planes per block of a 3-D stencil (0: the most of 8, 4, "
           "2, 1 whose tile fits in 48 KiB of shared memory; streamed: 32), "
           "or output rows of a streamed 2-D block (0: 128)">,
    Option<"stream", "stream", "::mlir::stencil::StreamMode",
           /*default=*/"::mlir::stencil::StreamMode::Off",
           "3-D: each block sweeps its planes along z through rings of "
           "2 r_z + 1 planes per fused step (AN5D), loading each input "
           "plane once; 2-D stencil.linear: one row of threads sweeps along "
           "y with 2 r_y + 1 partial sums per fused step in registers "
           "(AN5D's register streaming). auto: 3-D stencils whose rings fit "
           "in 48 KiB, 2-D stencil.linear with fused-steps >= 2 whose rows "
           "fit; the others staged",
           "::mlir::stencil::getStreamModeValues()">,
    Option<"planeSums", "plane-sums", "bool", /*default=*/"false",
           "A streamed 3-D stencil.linear with one step per launch keeps "
           "2 r_z + 1 partial sums per output in registers and two input "
           "planes in shared memory, reading each in-plane value once for "
           "the 2 r_z + 1 output planes it feeds (AN5D's register "
           "streaming); false (default): the ring of 2 r_z + 2 planes">,
    Option<"prefetchPlanes", "prefetch-planes", "bool", /*default=*/"true",
           "A streamed 3-D kernel of one step per launch (ring or plane "
           "sums) loads an input plane's staging values into registers "
           "prefetch-distance iterations ahead, so that the loads overlap "
           "the computation of the planes before it (fused steps never; "
           "false: loaded and stored in the same iteration)">,
    Option<"prefetchDistance", "prefetch-distance", "int64_t",
           /*default=*/"1",
           "With prefetch-planes: how many planes ahead a streamed sweep "
           "loads, 1 to 4 (each plane ahead holds its staging values in "
           "registers)">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"1",
           "With plane-sums: each thread owns this many adjacent columns "
           "(1, 2, 4 or 8, at most 16 bytes), staged, read from shared "
           "memory and stored as one vector; rows that are not a multiple "
           "of it take the element-wise staging and stores">,
    Option<"rowPhases", "row-phases", "int64_t", /*default=*/"0",
           "With the 2-D row sweep (stream=on): 0 (default) sweeps one row "
           "per barrier; N >= 1 sweeps groups of 2 r_y + 1 rows and applies "
           "the x offsets in N phases, each to the whole group, so that a "
           "phase's weights stay in uniform registers (at most 2 r_x + 1; "
           "one column per thread)">,
    Option<"minBlocksPerSM", "min-blocks-per-sm", "int64_t",
           /*default=*/"0",
           "Experimental (no effect measured on the committed kernels, "
           "bench/NOTES.md): 0 (default): ptxas chooses the registers per "
           "thread; N >= 1: "
           "the kernel asks for N resident blocks per SM (PTX "
           ".minnctapersm), so ptxas schedules within the registers that "
           "leave room for N blocks (N x threads per block at most "
           "2048)">,
    Option<"replaceableWeights", "replaceable-weights", "bool",
           /*default=*/"true",
           "Read a linear stencil's weights from a .const array "
           "(<kernel>_weights) that libStencilRuntime can overwrite "
           "(stencil_kernel_set_weights) instead of instruction immediates; "
           "as fast (constant-bank FMA operands)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertStencilToFft : Pass<"convert-stencil-to-fft", "::mlir::ModuleOp"> {
  let summary = "Lower stencil.fft_apply to an f64 Tensor Core FFT kernel "
                "(FlashFFTStencil)";
  let description = [{
    FlashFFTStencil, sections 3.1-3.3 and 4. Every
    `stencil.fft_apply` with its spectra (`--stencil-fft-spectrum`) becomes a
    `gpu.func` kernel in the `gpu.module` `@stencil_fft` (and `<name>_tail`
    for the `steps mod T` last steps) and, in place of the op, host code that
    launches it `floor(steps / T)` times, ping-ponging the grids
    (`StencilGPUCommon/HostLaunch.h`).

    One thread block takes two tiles along the innermost dimension as the
    real and imaginary layer of one complex tile (double-layer filling,
    3.2.3). It stores them at their CRT positions in the tile array in
    dynamic shared memory (16 bytes per element, 3.2.1-3.2.2), runs one DFT
    stage per axis as complex products of f64 MMAs (`mma.sync` m8n8k4, or
    m16n8k4 with `f64-shape=m16n8k4` on sm_90; data as A, the DFT matrix as
    B, 3.3), multiplies the last stage's accumulators by the spectrum and
    feeds them to the inverse stage of the same axis as A with swizzled B
    (no shared-memory round trip, 3.3), runs the other inverse stages, and
    stores each tile's valid points. The B fragments, the spectra and their
    layout are `FftCoefficientLayout` (`FftKernel.h`); the kernel follows the
    CPU model `simulateFftTile` (`Support/FftTileModel.h`) fragment by fragment.

    Boundaries keep their meaning: a block holding a tile at the grid's edge
    (first or last along a dimension) computes its two tiles by T direct
    steps in shared memory instead, with the halo band frozen (`halo`) or the
    boundary value outside the grid (`dirichlet`), and stores up to the
    grid's edge; `periodic` tiles wrap their loads and need no direct path.
    f32 grids are widened on load and rounded on store; everything in
    between is f64.

    The launch record names the unit `mma.f64` (`mma.f64.m16n8k4`) with the
    padded MMA flops per point update, `steps_per_launch` T, the dynamic
    shared memory and the coefficients.
  }];
  let options = [
    Option<"f64Shape", "f64-shape", "::mlir::stencil::F64Shape",
           /*default=*/"::mlir::stencil::F64Shape::M8N8K4",
           "MMA of the DFT stages", "::mlir::stencil::getF64ShapeValues()">,
    Option<"warps", "warps", "int64_t", /*default=*/"8",
           "Warps per thread block">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // STENCIL_CONVERSION_PASSES_TD
