//===- CudaCoreTiling.cpp - Tiling of the CUDA-core kernels ---------------===//

#include "stencil/Support/CudaCoreTiling.h"

#include <algorithm>

using namespace mlir::stencil;

CudaCoreTiling::CudaCoreTiling(llvm::ArrayRef<int64_t> radii, int64_t threadsX,
                               int64_t threadsY, int64_t outputs, int64_t steps,
                               int64_t planes, bool stream, bool planeSums,
                               int64_t vectorWidth, int64_t rowPhases)
    : rank(radii.size()), threadsX(threadsX), threadsY(threadsY),
      outputs(outputs),
      planes(radii.size() == 3 || (stream && radii.size() == 2) ? planes : 1),
      stream(stream && radii.size() >= 2),
      planeSums(planeSums && stream && radii.size() == 3 && steps == 1),
      vectorWidth(this->planeSums ? std::max<int64_t>(vectorWidth, 1) : 1),
      rowPhases(this->stream && radii.size() == 2 ? rowPhases : 0),
      steps(steps), radii(radii) {
  tile.assign(rank, 1);
  if (rowStream()) {
    // One row of threads, `outputs` columns each (0: one); the tile may be
    // < 1 wide (the pass rejects that tiling).
    this->outputs = std::max<int64_t>(outputs, 1);
    tile = {this->planes, rowWidth() - 2 * steps * radii[1]};
    halo = {steps * radii[0], steps * radii[1]};
    smemShape = {sharedElements() / rowLength(), rowLength()};
    smemStrides = {rowLength(), 1};
    smemSize = sharedElements();
    return;
  }
  if (rank == 1) {
    tile[0] = threads() * outputs;
  } else {
    tile[rank - 1] = threadsX;
    tile[rank - 2] = threadsY * outputs;
  }
  if (rank == 3)
    tile[0] = this->planes;
  tile[rank - 1] *= this->vectorWidth;
  for (int64_t d = 0; d < rank; ++d) {
    halo.push_back(steps * radii[d]);
    // Vector columns: rows and the threads' columns start on multiples of
    // the width.
    if (d == rank - 1)
      halo.back() = llvm::alignTo(halo.back(), this->vectorWidth);
    smemShape.push_back(tile[d] + 2 * halo[d]);
  }
  smemStrides.assign(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    smemStrides[d] = smemStrides[d + 1] * smemShape[d + 1];
  smemSize = smemStrides[0] * smemShape[0];
}

llvm::SmallVector<int64_t> CudaCoreTiling::regionLo(int64_t step) const {
  llvm::SmallVector<int64_t> lo;
  for (int64_t r : radii)
    lo.push_back(step * r);
  return lo;
}

llvm::SmallVector<int64_t> CudaCoreTiling::regionShape(int64_t step) const {
  llvm::SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    shape.push_back(tile[d] + 2 * (steps - step) * radii[d]);
  return shape;
}

int64_t CudaCoreTiling::numRowGroups(int64_t step) const {
  int64_t extentY = regionShape(step)[rank - 2];
  return (extentY + outputs - 1) / outputs;
}

int64_t CudaCoreTiling::numUnits(int64_t step) const {
  llvm::SmallVector<int64_t> shape = regionShape(step);
  if (rank == 1)
    return shape[0];
  int64_t units = numRowGroups(step);
  for (int64_t d = 0; d < rank; ++d)
    if (d != rank - 2)
      units *= shape[d];
  return units;
}

int64_t CudaCoreTiling::planeUnits(int64_t step) const {
  return numRowGroups(step) * regionShape(step)[rank - 1];
}

llvm::SmallVector<int64_t> CudaCoreTiling::unitOrigin(int64_t step,
                                                      int64_t unit) const {
  llvm::SmallVector<int64_t> local = regionLo(step);
  llvm::SmallVector<int64_t> shape = regionShape(step);
  if (rank == 1) {
    local[0] += unit;
    return local;
  }
  int64_t groups = numRowGroups(step);
  int64_t x = unit % shape[rank - 1], rest = unit / shape[rank - 1];
  local[rank - 1] += x;
  local[rank - 2] +=
      std::min(rest % groups * outputs, shape[rank - 2] - outputs);
  if (rank == 3)
    local[0] += rest / groups;
  return local;
}

llvm::SmallVector<int64_t>
CudaCoreTiling::outputPosition(int64_t thread, int64_t k,
                               int64_t column) const {
  llvm::SmallVector<int64_t> local(halo);
  if (rank == 1) {
    local[0] += thread + k * threads();
    return local;
  }
  local[rank - 1] += thread % threadsX * vectorWidth + column;
  local[rank - 2] += thread / threadsX * outputs + k % outputs;
  if (rank == 3)
    local[0] += k / outputs;
  return local;
}

void CudaCoreTiling::limitPlaneSumUnroll(int64_t points) {
  if (!planeSums)
    return;
  int64_t terms = std::max<int64_t>(points, 1) * outputs * vectorWidth;
  if (planeSumSlots() * terms <= kMaxUnrolledPlaneSumTerms)
    planeSumGroup = 0;
  else
    planeSumGroup = std::clamp<int64_t>(kMaxUnrolledPlaneSumTerms / terms, 1,
                                        planeSumSlots());
}

double CudaCoreTiling::computedPointsPerOutput() const {
  if (rowGroups())
    return static_cast<double>(rowWidth() * rowGroupCount(planes) *
                               rowGroupRows()) /
           (planes * tile[1]);
  if (rowStream())
    return static_cast<double>(rowWidth() * rowStreamIterations(planes)) /
           (planes * tile[1]);
  // Plane sums: each iteration adds a plane's worth of FMAs; the iterations
  // past the block's planes (whole unrolled groups) are not stored.
  if (planeSums)
    return static_cast<double>(planeSumIterations(planes) - 2 * radii[0]) /
           planes;
  int64_t tilePoints = 1;
  for (int64_t t : tile)
    tilePoints *= t;
  int64_t computed = tilePoints;
  for (int64_t step = 1; step < steps; ++step)
    computed += numUnits(step) * unitPoints();
  return static_cast<double>(computed) / (steps * tilePoints);
}

int64_t CudaCoreTiling::linearize(llvm::ArrayRef<int64_t> local) const {
  int64_t index = 0;
  for (int64_t d = 0; d < rank; ++d)
    index += local[d] * smemStrides[d];
  return index;
}
