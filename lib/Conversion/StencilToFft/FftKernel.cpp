//===- FftKernel.cpp - The FFT stencil kernel
//------------------------------===//
//
// FlashFFTStencil as one kernel; the math is Support/FftTiling.h
// and its CPU model Support/FftTileModel.h, whose data path this kernel
// follows fragment by fragment.
//
// Geometry. Tiles of N_d points are placed every V_d = N_d - 2 T r_d points:
// tile j along dimension d reads [s_d, s_d + N_d) with s_d = j V_d (halo and
// Dirichlet) or j V_d - T r_d (periodic, loads wrapped), and yields the V_d
// points from s_d + T r_d (section 3.1, split / stitch). Block (x, y, z) takes
// tiles (2x, 2x + 1) along the innermost dimension, y and z along the next
// ones; the two tiles are the real and imaginary layer of one complex tile
// (section 3.2.3, double-layer filling). Halo and Dirichlet grids need
// J_d = ceil((n_d - 2 T r_d) / V_d) tiles (at least one), periodic ones
// ceil(n_d / V_d).
//
// Kernel outline (FFT path):
//   1. zero the tile array (2 E doubles, E = prod of the padded axis
//      extents), then store each layer's N points at their CRT positions
//      (section 3.2.2; f32 grids widened);
//   2. forward DFT stages of axes 0 .. m-2: each warp takes groups of 8
//      (m8n8k4) or 16 (m16n8k4) fibers, loads A (fibers x 4 inputs per chunk)
//      from the array, and issues four real MMAs per chunk and k-tile with
//      the stage's B fragments (held in registers for the whole stage); after
//      a __syncwarp, the accumulators go back in place (section 3.3);
//   3. the last axis: the forward stage, the product of the accumulators by
//      S (read from the coefficients at their array position), and the
//      inverse stage of the same axis fed by those accumulators as A, with
//      swizzled B (section 3.3, "Swizzling Fragments");
//   4. inverse stages of axes m-2 .. 0, as in 2;
//   5. each layer's V points are read back at their CRT positions and
//      stored (f32 grids rounded).
// A barrier separates the steps and stages.
//
// Conflict-free layout (FlashFFTStencil 3.2.2 achieves it by diagonal indexing;
// here an XOR swizzle). Complex elements are 16-byte pairs, read and written
// as v2.f64: a quarter warp (lanes (g, t), g in {g0, g0 + 1}, t < 4) must
// touch 8 distinct 16-byte slots of a 128-byte line. Element e of the
// row-major array, with axis digits n_j, lives in slot
//     e XOR (XOR_{j < m-1} F(n_j mod 8)),   F(v) = 5 v mod 8,
// a permutation of the low three bits (those of the last axis). Within a
// stage along axis a < m-1, consecutive fibers g run along the last axis and
// t along a (loads 4c + t, stores 2t + i); along the last axis, g runs along
// axis m-2. F maps each aligned quad and each parity class of 0..7 to four
// distinct pairs {2k, 2k + 1}, and F(q) XOR F(q + 1) has bits 0 and 2 set
// for even q, which makes every one of these four access patterns
// conflict-free (getFftSlotSwizzle in Support/FftTiling.h, checked by
// unittests/Support/FftTilingTest.cpp, SwizzledLayoutIsConflictFree).
//
// Edge tiles (halo and Dirichlet). A tile within reach of the grid's edge
// (the first or last one along some dimension) is not a circular problem: a
// block with such a tile computes both of its tiles by T direct steps in
// shared memory (two buffers of N points), the frozen halo band (halo) or the
// boundary value outside the grid (Dirichlet) applied at every step, and
// stores the tile's points that are exact: its V points, and for the first
// and last tile the band up to the grid's edge. These blocks are a few
// percent of a large grid.
//
//===----------------------------------------------------------------------===//

#include "FftKernelBuilder.h"

#include "stencil/Conversion/StencilGPUCommon/KernelABI.h"
#include "stencil/Conversion/StencilGPUCommon/MmaF64.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include <cstring>

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// FftCoefficientLayout
//===----------------------------------------------------------------------===//

FftCoefficientLayout::FftCoefficientLayout(const FftTilePlan &plan,
                                           bool hasTail)
    : plan(plan), elements(plan.getNumArrayElements()), hasTail(hasTail) {
  int64_t word = 4 * elements * (hasTail ? 2 : 1);
  if (plan.cooleyTukey) {
    ctFragmentWord = word;
    word += 6 * 32 * 4;
    if (plan.getRank() == 1) {
      ctTwiddleWord = word;
      word += 64 * 4 * 32 * 4;
    }
    totalWords = word;
    return;
  }
  SmallVector<int64_t> extents = plan.getAxisExtents();
  int64_t m = extents.size();
  auto tableWords = [&](int64_t p) { return (p / 8) * (p / 4) * 32 * 4; };
  // Forward 0 .. m-1, swizzled inverse m-1, inverse m-2 .. 0.
  SmallVector<int64_t> stageAxes;
  for (int64_t a = 0; a < m; ++a)
    stageAxes.push_back(a);
  for (int64_t a = m - 1; a >= 0; --a)
    stageAxes.push_back(a);
  for (int64_t a : stageAxes) {
    stageWords.push_back(word);
    word += tableWords(extents[a]);
  }
  totalWords = word;
}

static void appendComplex(SmallVectorImpl<int32_t> &words,
                          std::complex<double> v) {
  for (double part : {v.real(), v.imag()}) {
    uint64_t bits;
    std::memcpy(&bits, &part, sizeof(bits));
    words.push_back(static_cast<int32_t>(bits & 0xffffffffu));
    words.push_back(static_cast<int32_t>(bits >> 32));
  }
}

SmallVector<int32_t>
FftCoefficientLayout::pack(ArrayRef<std::complex<double>> spectrum,
                           ArrayRef<std::complex<double>> tailSpectrum) const {
  SmallVector<int32_t> words;
  words.reserve(totalWords);
  if (plan.cooleyTukey) {
    for (std::complex<double> v : packFftCtSpectrum(spectrum))
      appendComplex(words, v);
    if (hasTail)
      for (std::complex<double> v : packFftCtSpectrum(tailSpectrum))
        appendComplex(words, v);
    for (std::complex<double> v : packFftCtFragments())
      appendComplex(words, v);
    if (plan.getRank() == 1)
      for (std::complex<double> v : packFftCtTwiddles())
        appendComplex(words, v);
    return words;
  }
  for (std::complex<double> v : spectrum)
    appendComplex(words, v);
  if (hasTail)
    for (std::complex<double> v : tailSpectrum)
      appendComplex(words, v);
  SmallVector<int64_t> factors = plan.getAxisFactors();
  int64_t m = factors.size();
  auto appendTable = [&](int64_t factor, bool inverse, bool swizzled) {
    for (std::complex<double> v : packDftFragments(factor, inverse, swizzled))
      appendComplex(words, v);
  };
  for (int64_t a = 0; a < m; ++a)
    appendTable(factors[a], /*inverse=*/false, /*swizzled=*/false);
  appendTable(factors[m - 1], /*inverse=*/true, /*swizzled=*/true);
  for (int64_t a = m - 2; a >= 0; --a)
    appendTable(factors[a], /*inverse=*/true, /*swizzled=*/false);
  return words;
}

//===----------------------------------------------------------------------===//
// Kernel builder
//===----------------------------------------------------------------------===//

using namespace mlir::stencil::fft_detail;

void FftKernelBuilder::stridedLoop(Value begin, int64_t end, int64_t step,
                                   function_ref<void(Value)> body) {
  Value stepValue = cst(step);
  Value endValue = cst(end);
  if (!begin)
    begin = cst(0);
  scf::ForOp::create(*b, begin, endValue, stepValue, ValueRange{},
                     [&](OpBuilder &nested, Location, Value i, ValueRange) {
                       OpBuilder::InsertionGuard guard(*b);
                       b->setInsertionPoint(nested.getInsertionBlock(),
                                            nested.getInsertionPoint());
                       body(i);
                       scf::YieldOp::create(*b);
                     });
}

void FftKernelBuilder::forEachThread(int64_t count,
                                     function_ref<void(Value)> body) {
  stridedLoop(tid, count, getFftThreads(cfg), body);
}

void FftKernelBuilder::syncWarp() {
  NVVM::SyncWarpOp::create(
      *b, arith::ConstantIntOp::create(*b, -1, 32).getResult());
}

SmallVector<Value> FftKernelBuilder::digits(Value linear,
                                            ArrayRef<int64_t> sizes) {
  SmallVector<Value> result(sizes.size());
  for (int64_t d = sizes.size() - 1; d >= 0; --d) {
    result[d] = d == 0 ? linear : remConst(linear, sizes[d]);
    if (d > 0)
      linear = divConst(linear, sizes[d]);
  }
  return result;
}

Value FftKernelBuilder::crtIndex(ArrayRef<Value> c) {
  Value index = cst(0);
  Value swizzle = cst(0);
  for (int64_t j = 0; j < numAxes; ++j) {
    Value digit = remConst(c[axisDims[j]], factors[j]);
    index = add(index, mulConst(digit, strides[j]));
    if (j != numAxes - 1)
      swizzle = arith::XOrIOp::create(*b, swizzle, swizzleOf(digit));
  }
  return arith::XOrIOp::create(*b, index, swizzle);
}

Value FftKernelBuilder::swizzleOf(Value digit) {
  // getFftSlotSwizzle: F(v) = 5 v mod 8 of the digit's low three bits.
  Value mask = cst(7);
  Value scaled = mulConst(remConst(digit, 8), 5);
  return arith::AndIOp::create(*b, scaled, mask);
}

Value FftKernelBuilder::loadCoord(int64_t d, int64_t layer, Value c) {
  Value j = d == rank - 1 ? addConst(tileIndex[d], layer) : tileIndex[d];
  Value x = add(mulConst(j, validSize[d]), c);
  if (cfg.boundary != BoundaryKind::periodic)
    return x;
  // s = j V - T r may be negative and the tile may pass n: wrap
  // ((x mod n) + n) mod n (the tile may wrap more than once).
  Value shifted = sub(x, cst(margin[d]));
  Value rem = arith::RemSIOp::create(*b, shifted, sizes[d]);
  return arith::RemSIOp::create(*b, add(rem, sizes[d]), sizes[d]).getResult();
}

Value FftKernelBuilder::storeCoord(int64_t d, int64_t layer, Value c) {
  Value j = d == rank - 1 ? addConst(tileIndex[d], layer) : tileIndex[d];
  // The valid point c of a periodic tile is grid point j V + c - T r.
  Value offset =
      cfg.boundary == BoundaryKind::periodic ? addConst(c, -margin[d]) : c;
  Value tileStart = mulConst(j, validSize[d]);
  return add(tileStart, offset);
}

Value FftKernelBuilder::gridIndex(ArrayRef<Value> x) {
  return getLinearIndex(*b, x, sizes);
}

CValue FftKernelBuilder::loadComplexCoefficient(Value word) {
  Value words = vector::LoadOp::create(
      *b, VectorType::get({4}, b->getI32Type()), coef, ValueRange{word},
      /*nontemporal=*/false, llvm::MaybeAlign(8));
  Value asDouble = vector::BitCastOp::create(
      *b, VectorType::get({2}, b->getF64Type()), words);
  return {vector::ExtractOp::create(*b, asDouble, ArrayRef<int64_t>{0}),
          vector::ExtractOp::create(*b, asDouble, ArrayRef<int64_t>{1})};
}

Value FftKernelBuilder::loadGrid(Value index) {
  Value v = memref::LoadOp::create(*b, in, ValueRange{index});
  if (!cfg.elementType.isF64())
    v = arith::ExtFOp::create(*b, b->getF64Type(), v);
  return v;
}

void FftKernelBuilder::storeGrid(Value index, Value value) {
  if (!cfg.elementType.isF64())
    value = arith::TruncFOp::create(*b, cfg.elementType, value);
  memref::StoreOp::create(*b, value, out, ValueRange{index});
}

gpu::GPUFuncOp FftKernelBuilder::build(OpBuilder &moduleBuilder, Location loc,
                                       StringRef name) {
  StencilKernel kernel = createStencilKernelWithDynamicShared(
      moduleBuilder, loc, name, cfg.elementType, rank,
      Float64Type::get(moduleBuilder.getContext()), 2 * elements,
      getFftThreads(cfg));
  // A tile array of 32 KiB or more limits the blocks per SM by shared
  // memory (227 KiB per SM, 1 KiB reserved per block): ask ptxas for
  // registers that let that many (at most 3) run. Measured on an H100
  // (bench/results/2026-11-23-h100-fft-v1.txt): Heat-2D and Box-2D9P with
  // 64 KiB arrays +16% at 3 blocks (80 registers, a few spills) over 2 (112
  // registers); small 1-D arrays are not limited by shared memory and lose
  // with the cap, so they keep all registers.
  int64_t sharedBytes = getFftSharedBytes(plan);
  if (sharedBytes >= 32 * 1024) {
    int64_t bySharedMemory = (227 * 1024) / (sharedBytes + 1024);
    kernel.func->setAttr(
        NVVM::NVVMDialect::getMinctasmAttrName(),
        moduleBuilder.getI32IntegerAttr(std::min<int64_t>(3, bySharedMemory)));
  }
  Block &entry = kernel.func.getBody().front();
  b.emplace(ImplicitLocOpBuilder::atBlockEnd(loc, &entry));
  in = kernel.in;
  out = kernel.out;
  coef = kernel.coeffs;
  sizes = kernel.sizes;
  smem = kernel.smem;

  tid = gpu::ThreadIdOp::create(*b, gpu::Dimension::x);
  lane = remConst(tid, 32);
  warp = divConst(tid, 32);
  groupId = divConst(lane, 4);
  threadInGroup = remConst(lane, 4);

  // Tile indices (layer 0) and counts.
  const gpu::Dimension blockDims[3] = {gpu::Dimension::x, gpu::Dimension::y,
                                       gpu::Dimension::z};
  bool periodic = cfg.boundary == BoundaryKind::periodic;
  tileIndex.resize(rank);
  tileCount.resize(rank);
  Value inRange = arith::ConstantIntOp::create(*b, 1, 1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value id = gpu::BlockIdOp::create(*b, blockDims[rank - 1 - d]);
    tileIndex[d] = d == rank - 1 ? mulConst(id, 2) : id;
    // J = ceil(n / V) (periodic) or max(1, ceil((n - 2 T r) / V)).
    Value n = sizes[d];
    Value count;
    if (periodic) {
      count = arith::CeilDivUIOp::create(*b, n, cst(validSize[d]));
    } else {
      Value span = sub(n, cst(2 * margin[d]));
      Value positive = cmp(arith::CmpIPredicate::sgt, span, cst(0));
      Value one = cst(1);
      Value tiles = arith::CeilDivSIOp::create(*b, span, cst(validSize[d]));
      count = select(positive, tiles, one);
    }
    tileCount[d] = count;
    inRange =
        andI(inRange, cmp(arith::CmpIPredicate::ult, tileIndex[d], count));
  }

  auto ifInRange = scf::IfOp::create(*b, inRange, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(ifInRange.thenBlock());
    if (periodic) {
      fftPath();
    } else {
      // A block with a tile at the grid's edge takes the direct path.
      Value edge = arith::ConstantIntOp::create(*b, 0, 1);
      for (int64_t d = 0; d < rank; ++d) {
        Value last = sub(tileCount[d], cst(1));
        Value lastTile =
            d == rank - 1 ? addConst(tileIndex[d], 1) : tileIndex[d];
        edge = orI(edge, cmp(arith::CmpIPredicate::eq, tileIndex[d], cst(0)));
        edge = orI(edge, cmp(arith::CmpIPredicate::uge, lastTile, last));
      }
      auto ifEdge = scf::IfOp::create(*b, edge, /*withElseRegion=*/true);
      b->setInsertionPointToStart(ifEdge.thenBlock());
      directPath();
      b->setInsertionPointToStart(ifEdge.elseBlock());
      fftPath();
    }
  }
  gpu::ReturnOp::create(*b);
  return kernel.func;
}

//===----------------------------------------------------------------------===//
// FFT path
//===----------------------------------------------------------------------===//

void FftKernelBuilder::fftPath() {
  if (plan.cooleyTukey)
    return cooleyTukeyPath();
  int64_t points = 1, valid = 1;
  for (int64_t d = 0; d < rank; ++d) {
    points *= tileSize[d];
    valid *= validSize[d];
  }
  // 1. Zero the array, then load both layers at their CRT positions.
  Value zero = f64(0.0);
  forEachThread(2 * elements, [&](Value e) {
    memref::StoreOp::create(*b, zero, smem, ValueRange{e});
  });
  gpu::BarrierOp::create(*b);
  for (int64_t layer = 0; layer < 2; ++layer) {
    forEachThread(points, [&](Value q) {
      SmallVector<Value> c = digits(q, tileSize);
      SmallVector<Value> x(rank);
      for (int64_t d = 0; d < rank; ++d)
        x[d] = loadCoord(d, layer, c[d]);
      Value value = loadGrid(gridIndex(x));
      Value index = addConst(mulConst(crtIndex(c), 2), layer);
      memref::StoreOp::create(*b, value, smem, ValueRange{index});
    });
  }
  gpu::BarrierOp::create(*b);

  // 2-4. Stages: forward 0 .. m-2, the last axis with S and the swizzled
  // inverse, inverse m-2 .. 0.
  for (int64_t a = 0; a + 1 < numAxes; ++a) {
    emitStage(a, /*table=*/a, /*inverseTable=*/-1);
    gpu::BarrierOp::create(*b);
  }
  emitStage(numAxes - 1, numAxes - 1, numAxes);
  gpu::BarrierOp::create(*b);
  for (int64_t a = numAxes - 2, s = numAxes + 1; a >= 0; --a, ++s) {
    emitStage(a, s, -1);
    gpu::BarrierOp::create(*b);
  }

  // 5. Read back the valid points of both layers.
  for (int64_t layer = 0; layer < 2; ++layer) {
    forEachThread(valid, [&](Value q) {
      SmallVector<Value> v = digits(q, validSize);
      SmallVector<Value> c(rank), x(rank);
      Value inside = arith::ConstantIntOp::create(*b, 1, 1);
      for (int64_t d = 0; d < rank; ++d) {
        c[d] = addConst(v[d], margin[d]);
        x[d] = storeCoord(d, layer, c[d]);
        inside = andI(inside, cmp(arith::CmpIPredicate::ult, x[d], sizes[d]));
      }
      auto ifInside = scf::IfOp::create(*b, inside, false);
      OpBuilder::InsertionGuard guard(*b);
      b->setInsertionPointToStart(ifInside.thenBlock());
      Value index = addConst(mulConst(crtIndex(c), 2), layer);
      Value value = memref::LoadOp::create(*b, smem, index);
      storeGrid(gridIndex(x), value);
    });
  }
}

FftKernelBuilder::Fragments
FftKernelBuilder::loadStageTable(const StageShape &s, int64_t t) {
  Fragments frag(s.kTiles);
  for (int64_t kt = 0; kt < s.kTiles; ++kt)
    for (int64_t c = 0; c < s.chunks; ++c) {
      Value word = cst(layout.stageWord(t) + (kt * s.chunks + c) * 32 * 4);
      Value laneWord = mulConst(lane, 4);
      frag[kt].push_back(loadComplexCoefficient(add(laneWord, word)));
    }
  return frag;
}

FftKernelBuilder::StageFibers FftKernelBuilder::stageFibers(const StageShape &s,
                                                            Value group) {
  // The array index of element 0 of the fibers of rows g and g + 8.
  StageFibers f;
  f.base.resize(s.rows);
  f.valid.resize(s.rows);
  f.swizzle.resize(s.rows);
  for (int64_t r = 0; r < s.rows; ++r) {
    Value inGroup = addConst(groupId, 8 * r);
    Value groupStart = mulConst(group, s.perGroup);
    Value fiber = add(groupStart, inGroup);
    f.valid[r] = cmp(arith::CmpIPredicate::ult, fiber, cst(s.fibers));
    fiber = select(f.valid[r], fiber, cst(0));
    Value index = cst(0), swizzle = cst(0);
    for (int64_t j = numAxes - 1; j >= 0; --j) {
      if (j == s.axis)
        continue;
      Value digit = remConst(fiber, extents[j]);
      index = add(index, mulConst(digit, strides[j]));
      if (j != numAxes - 1)
        swizzle = arith::XOrIOp::create(*b, swizzle, swizzleOf(digit));
      fiber = divConst(fiber, extents[j]);
    }
    f.base[r] = index;
    f.swizzle[r] = swizzle;
  }
  return f;
}

Value FftKernelBuilder::stageElementIndex(const StageShape &s,
                                          const StageFibers &f, int64_t r,
                                          Value n) {
  return add(f.base[r], mulConst(n, strides[s.axis]));
}

Value FftKernelBuilder::stageElementSlot(const StageShape &s,
                                         const StageFibers &f, int64_t r,
                                         Value n) {
  // See the conflict-free layout above.
  Value swizzle = f.swizzle[r];
  if (s.axis != numAxes - 1)
    swizzle = arith::XOrIOp::create(*b, swizzle, swizzleOf(n));
  return arith::XOrIOp::create(*b, stageElementIndex(s, f, r, n), swizzle)
      .getResult();
}

FftKernelBuilder::Fragments
FftKernelBuilder::loadStageOperands(const StageShape &s, const StageFibers &f,
                                    Value zero) {
  VectorType pairType = VectorType::get({2}, b->getF64Type());
  Fragments a(s.chunks);
  for (int64_t c = 0; c < s.chunks; ++c)
    for (int64_t r = 0; r < s.rows; ++r) {
      Value index = mulConst(
          stageElementSlot(s, f, r, addConst(threadInGroup, 4 * c)), 2);
      Value pair =
          vector::LoadOp::create(*b, pairType, smem, ValueRange{index},
                                 /*nontemporal=*/false, llvm::MaybeAlign(16));
      Value re = vector::ExtractOp::create(*b, pair, ArrayRef<int64_t>{0});
      Value im = vector::ExtractOp::create(*b, pair, ArrayRef<int64_t>{1});
      if (s.fibers % s.perGroup != 0) {
        re = select(f.valid[r], re, zero);
        im = select(f.valid[r], im, zero);
      }
      a[c].push_back({re, im});
    }
  return a;
}

void FftKernelBuilder::complexMma(ArrayRef<CValue> aFrag, CValue bFrag,
                                  SmallVector<Value> &accRe,
                                  SmallVector<Value> &accIm) {
  SmallVector<Value, 2> aRe, aIm;
  for (const CValue &v : aFrag) {
    aRe.push_back(v.re);
    aIm.push_back(v.im);
  }
  Value negIm = arith::NegFOp::create(*b, bFrag.im);
  auto re = createMmaF64(*b, aRe, bFrag.re, accRe);
  re = createMmaF64(*b, aIm, negIm, re);
  auto im = createMmaF64(*b, aRe, bFrag.im, accIm);
  im = createMmaF64(*b, aIm, bFrag.re, im);
  accRe.assign(re.begin(), re.end());
  accIm.assign(im.begin(), im.end());
}

Value FftKernelBuilder::stageAccColumn(int64_t kt, int64_t i) {
  return addConst(mulConst(threadInGroup, 2), 8 * kt + i % 2);
}

void FftKernelBuilder::multiplyBySpectrum(
    const StageShape &s, const StageFibers &f,
    SmallVector<SmallVector<Value>> &accRe,
    SmallVector<SmallVector<Value>> &accIm) {
  int64_t specWord = layout.spectrumWord(cfg.tail);
  for (int64_t kt = 0; kt < s.kTiles; ++kt)
    for (int64_t i = 0; i < s.accs; ++i) {
      Value index = stageElementIndex(s, f, i / 2, stageAccColumn(kt, i));
      CValue spec =
          loadComplexCoefficient(addConst(mulConst(index, 4), specWord));
      Value re = accRe[kt][i], im = accIm[kt][i];
      Value imIm = fmul(im, spec.im);
      Value reRe = fmul(re, spec.re);
      accRe[kt][i] = fsub(reRe, imIm);
      Value imRe = fmul(im, spec.re);
      Value reIm = fmul(re, spec.im);
      accIm[kt][i] = fadd(reIm, imRe);
    }
}

void FftKernelBuilder::swizzledInverseStage(
    const StageShape &s, const Fragments &inverse, Value zero,
    SmallVector<SmallVector<Value>> &accRe,
    SmallVector<SmallVector<Value>> &accIm) {
  // Chunk c = 2 kt' + i takes accumulators i (row g) and 2 + i (row g + 8)
  // of k-tile kt'.
  SmallVector<SmallVector<Value>> outRe(s.kTiles,
                                        SmallVector<Value>(s.accs, zero));
  SmallVector<SmallVector<Value>> outIm = outRe;
  for (int64_t c = 0; c < s.chunks; ++c) {
    SmallVector<CValue> aFrag;
    for (int64_t r = 0; r < s.rows; ++r)
      aFrag.push_back(
          {accRe[c / 2][2 * r + c % 2], accIm[c / 2][2 * r + c % 2]});
    for (int64_t kt = 0; kt < s.kTiles; ++kt)
      complexMma(aFrag, inverse[kt][c], outRe[kt], outIm[kt]);
  }
  accRe = outRe;
  accIm = outIm;
}

void FftKernelBuilder::storeStageResults(const StageShape &s,
                                         const StageFibers &f,
                                         ArrayRef<SmallVector<Value>> accRe,
                                         ArrayRef<SmallVector<Value>> accIm) {
  VectorType pairType = VectorType::get({2}, b->getF64Type());
  for (int64_t kt = 0; kt < s.kTiles; ++kt)
    for (int64_t i = 0; i < s.accs; ++i) {
      auto store = [&]() {
        Value index =
            mulConst(stageElementSlot(s, f, i / 2, stageAccColumn(kt, i)), 2);
        Value pair = vector::FromElementsOp::create(
            *b, pairType, ValueRange{accRe[kt][i], accIm[kt][i]});
        vector::StoreOp::create(*b, pair, smem, ValueRange{index},
                                /*nontemporal=*/false, llvm::MaybeAlign(16));
      };
      if (s.fibers % s.perGroup == 0) {
        store();
        continue;
      }
      auto ifValid = scf::IfOp::create(*b, f.valid[i / 2], false);
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToStart(ifValid.thenBlock());
      store();
    }
}

void FftKernelBuilder::emitStageGroup(const StageShape &s,
                                      const Fragments &forward,
                                      const Fragments *inverse, Value group) {
  StageFibers f = stageFibers(s, group);
  Value zero = f64(0.0);
  Fragments a = loadStageOperands(s, f, zero);
  SmallVector<SmallVector<Value>> accRe(s.kTiles,
                                        SmallVector<Value>(s.accs, zero));
  SmallVector<SmallVector<Value>> accIm = accRe;
  for (int64_t c = 0; c < s.chunks; ++c)
    for (int64_t kt = 0; kt < s.kTiles; ++kt)
      complexMma(a[c], forward[kt][c], accRe[kt], accIm[kt]);
  if (inverse) {
    multiplyBySpectrum(s, f, accRe, accIm);
    swizzledInverseStage(s, *inverse, zero, accRe, accIm);
  }
  // Every lane has read its A before any lane overwrites the fibers.
  syncWarp();
  storeStageResults(s, f, accRe, accIm);
}

void FftKernelBuilder::emitStage(int64_t axis, int64_t table,
                                 int64_t inverseTable) {
  StageShape s;
  s.axis = axis;
  int64_t p = extents[axis];
  s.fibers = elements / p;
  bool m16 = cfg.shape == FftMmaShape::M16N8K4 && s.fibers % 16 == 0;
  s.rows = m16 ? 2 : 1; // a_0 (fiber g) and a_1 (fiber g + 8)
  s.perGroup = 8 * s.rows;
  s.groups = (s.fibers + s.perGroup - 1) / s.perGroup;
  s.kTiles = p / 8;
  s.chunks = p / 4;
  s.accs = 2 * s.rows;

  // The stage's B fragments, in registers for the whole stage.
  Fragments forward = loadStageTable(s, table);
  Fragments inverse;
  if (inverseTable >= 0)
    inverse = loadStageTable(s, inverseTable);
  stridedLoop(warp, s.groups, cfg.warps, [&](Value group) {
    emitStageGroup(s, forward, inverseTable >= 0 ? &inverse : nullptr, group);
  });
}

//===----------------------------------------------------------------------===//
// Direct path (edge tiles)
//===----------------------------------------------------------------------===//

FftKernelBuilder::DirectTile FftKernelBuilder::directTileConstants() {
  DirectTile t;
  t.points = 1;
  for (int64_t d = 0; d < rank; ++d)
    t.points *= tileSize[d];
  t.strides.assign(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    t.strides[d] = t.strides[d + 1] * tileSize[d + 1];
  t.ghost =
      f64(cfg.boundary == BoundaryKind::dirichlet ? cfg.boundaryValue : 0.0);
  // Above kMaxUnrolledPoints the steps loop over the points, whose offsets
  // and weights they read from two constant tables.
  if (int64_t(cfg.weights.size()) > kMaxUnrolledPoints)
    t.pointTables = directPointTables();
  return t;
}

std::pair<std::string, std::string> FftKernelBuilder::directPointTables() {
  int64_t numPoints = cfg.weights.size();
  auto gpuModule =
      b->getBlock()->getParentOp()->getParentOfType<gpu::GPUModuleOp>();
  SmallVector<int32_t> offsets(cfg.offsets.begin(), cfg.offsets.end());
  std::string name = b->getBlock()
                         ->getParentOp()
                         ->getParentOfType<gpu::GPUFuncOp>()
                         .getName()
                         .str();
  std::string weightTable = createConstantTable(
      gpuModule, b->getLoc(), name + "_point_weights",
      DenseElementsAttr::get(
          RankedTensorType::get({numPoints}, b->getF64Type()), cfg.weights));
  std::string offsetTable = createConstantTable(
      gpuModule, b->getLoc(), name + "_points",
      DenseElementsAttr::get(
          RankedTensorType::get({int64_t(offsets.size())}, b->getI32Type()),
          ArrayRef<int32_t>(offsets)));
  return {std::move(offsetTable), std::move(weightTable)};
}

Value FftKernelBuilder::directLocate(const DirectTile &t, Value q,
                                     SmallVector<Value> &c,
                                     SmallVector<Value> &x) {
  c = digits(q, tileSize);
  x.resize(rank);
  Value inGrid = arith::ConstantIntOp::create(*b, 1, 1);
  for (int64_t d = 0; d < rank; ++d) {
    x[d] = add(t.start[d], c[d]);
    inGrid = andI(inGrid, cmp(arith::CmpIPredicate::ult, x[d], sizes[d]));
  }
  return inGrid;
}

void FftKernelBuilder::directLoad(const DirectTile &t) {
  forEachThread(t.points, [&](Value q) {
    SmallVector<Value> c, x;
    Value inGrid = directLocate(t, q, c, x);
    auto ifIn = scf::IfOp::create(*b, b->getF64Type(), inGrid, true);
    {
      OpBuilder::InsertionGuard g(*b);
      b->setInsertionPointToStart(ifIn.thenBlock());
      scf::YieldOp::create(*b, loadGrid(gridIndex(x)));
      b->setInsertionPointToStart(ifIn.elseBlock());
      scf::YieldOp::create(*b, t.ghost);
    }
    memref::StoreOp::create(*b, ifIn.getResult(0), smem, ValueRange{q});
  });
  gpu::BarrierOp::create(*b);
}

void FftKernelBuilder::directSteps(const DirectTile &t) {
  stridedLoop(/*begin=*/Value(), cfg.steps, 1, [&](Value step) {
    Value src = mulConst(remConst(step, 2), t.points);
    Value dst = sub(cst(t.points), src);
    forEachThread(t.points, [&](Value q) { directStep(t, src, dst, q); });
    gpu::BarrierOp::create(*b);
  });
}

void FftKernelBuilder::directStep(const DirectTile &t, Value src, Value dst,
                                  Value q) {
  DirectPoint p;
  p.q = q;
  p.src = src;
  Value inGrid = directLocate(t, q, p.c, p.x);
  Value compute = inGrid;
  if (cfg.boundary == BoundaryKind::halo) {
    // The halo band keeps its values at every step.
    for (int64_t d = 0; d < rank; ++d) {
      int64_t r = plan.radii[d];
      compute = andI(compute, cmp(arith::CmpIPredicate::uge, p.x[d], cst(r)));
      compute = andI(compute, cmp(arith::CmpIPredicate::slt, p.x[d],
                                  sub(sizes[d], cst(r))));
    }
  }
  Value old = memref::LoadOp::create(*b, smem, ValueRange{add(src, q)});
  Value sum = directPointSum(t, p);
  Value result = select(compute, sum, old);
  memref::StoreOp::create(*b, result, smem, ValueRange{add(dst, q)});
}

Value FftKernelBuilder::directAddPoint(const DirectTile &t,
                                       const DirectPoint &p, Value sum,
                                       function_ref<Value(Value, int64_t)> plus,
                                       function_ref<Value(Value)> shift,
                                       Value w) {
  Value inTile = arith::ConstantIntOp::create(*b, 1, 1);
  Value inGridNb = inTile;
  for (int64_t d = 0; d < rank; ++d) {
    Value cn = plus(p.c[d], d);
    Value xn = plus(p.x[d], d);
    inTile = andI(inTile, cmp(arith::CmpIPredicate::sge, cn, cst(0)));
    inTile = andI(inTile, cmp(arith::CmpIPredicate::slt, cn, cst(tileSize[d])));
    inGridNb = andI(inGridNb, cmp(arith::CmpIPredicate::sge, xn, cst(0)));
    inGridNb = andI(inGridNb, cmp(arith::CmpIPredicate::slt, xn, sizes[d]));
  }
  // Outside the tile (but in the grid) only cone-invalid points read: any
  // value will do; stay in bounds.
  Value nb = select(inTile, shift(p.q), p.q);
  Value v = memref::LoadOp::create(*b, smem, ValueRange{add(p.src, nb)});
  v = select(inGridNb, v, t.ghost);
  return arith::AddFOp::create(*b, sum, fmul(w, v)).getResult();
}

Value FftKernelBuilder::directPointSum(const DirectTile &t,
                                       const DirectPoint &p) {
  int64_t numPoints = cfg.weights.size();
  Value sum = f64(0.0);
  if (!t.pointTables) {
    for (int64_t i = 0; i < numPoints; ++i) {
      ArrayRef<int64_t> o = cfg.offsets.slice(i * rank, rank);
      int64_t delta = 0;
      for (int64_t d = 0; d < rank; ++d)
        delta += o[d] * t.strides[d];
      sum = directAddPoint(
          t, p, sum, [&](Value v, int64_t d) { return addConst(v, o[d]); },
          [&](Value v) { return addConst(v, delta); }, f64(cfg.weights[i]));
    }
    return sum;
  }
  // The same sum over the points in their order, from 0.
  Value iStep = cst(1);
  Value iEnd = cst(numPoints);
  Value iBegin = cst(0);
  auto loop = scf::ForOp::create(*b, iBegin, iEnd, iStep, ValueRange{sum});
  OpBuilder::InsertionGuard inLoop(*b);
  b->setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value row = mulConst(i, rank);
  SmallVector<Value> o;
  Value delta;
  for (int64_t d = 0; d < rank; ++d) {
    o.push_back(arith::IndexCastOp::create(
        *b, b->getIndexType(),
        loadTableEntry(*b, t.pointTables->first, b->getI32Type(),
                       addConst(row, d))));
    Value term = mulConst(o[d], t.strides[d]);
    delta = delta ? add(delta, term) : term;
  }
  Value w = loadTableEntry(*b, t.pointTables->second, b->getF64Type(), i);
  scf::YieldOp::create(*b, directAddPoint(
                               t, p, loop.getRegionIterArg(0),
                               [&](Value v, int64_t d) { return add(v, o[d]); },
                               [&](Value v) { return add(v, delta); }, w));
  return loop.getResult(0);
}

void FftKernelBuilder::directStoreExact(const DirectTile &t) {
  // The exact points: [s + T r, s + T r + V), from the grid's edge for the
  // first tile and up to it for the last one.
  int64_t finalBase = (cfg.steps % 2) * t.points;
  forEachThread(t.points, [&](Value q) {
    SmallVector<Value> c, x;
    Value keep = directLocate(t, q, c, x);
    for (int64_t d = 0; d < rank; ++d) {
      Value lo = addConst(t.start[d], margin[d]);
      Value hi = addConst(lo, validSize[d]);
      Value zero = cst(0);
      Value first = cmp(arith::CmpIPredicate::eq, t.j[d], cst(0));
      lo = select(first, zero, lo);
      hi = select(
          cmp(arith::CmpIPredicate::uge, t.j[d], sub(tileCount[d], cst(1))),
          sizes[d], hi);
      keep = andI(keep, cmp(arith::CmpIPredicate::uge, x[d], lo));
      keep = andI(keep, cmp(arith::CmpIPredicate::ult, x[d], hi));
    }
    auto ifKeep = scf::IfOp::create(*b, keep, false);
    OpBuilder::InsertionGuard g(*b);
    b->setInsertionPointToStart(ifKeep.thenBlock());
    Value index = addConst(q, finalBase);
    Value value = memref::LoadOp::create(*b, smem, ValueRange{index});
    storeGrid(gridIndex(x), value);
  });
  gpu::BarrierOp::create(*b);
}

void FftKernelBuilder::directPath() {
  DirectTile t = directTileConstants();
  for (int64_t layer = 0; layer < 2; ++layer) {
    t.start.assign(rank, Value());
    t.j.assign(rank, Value());
    for (int64_t d = 0; d < rank; ++d) {
      t.j[d] = d == rank - 1 ? addConst(tileIndex[d], layer) : tileIndex[d];
      t.start[d] = mulConst(t.j[d], validSize[d]);
    }
    Value present =
        cmp(arith::CmpIPredicate::ult, t.j[rank - 1], tileCount[rank - 1]);
    auto ifPresent = scf::IfOp::create(*b, present, false);
    OpBuilder::InsertionGuard guard(*b);
    b->setInsertionPointToStart(ifPresent.thenBlock());
    directLoad(t);
    directSteps(t);
    directStoreExact(t);
  }
}

gpu::GPUFuncOp
mlir::stencil::buildFftKernel(OpBuilder &moduleBuilder, Location loc,
                              StringRef name, const FftKernelConfig &config,
                              const FftCoefficientLayout &layout) {
  return FftKernelBuilder(config, layout).build(moduleBuilder, loc, name);
}
