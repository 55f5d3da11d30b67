//===- StencilToFft.cpp - Lower stencil.fft_apply to GPU kernels ----------===//
//
// Implements `--convert-stencil-to-fft` (FlashFFTStencil); see
// Conversion/Passes.td. The kernel is FftKernel.cpp, the host side the
// shared StencilGPUCommon/HostLaunch.h.
//
//===----------------------------------------------------------------------===//

#include "stencil/Conversion/StencilToFft/StencilToFft.h"

#include "FftKernel.h"

#include "stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "stencil/Support/GPULimits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cmath>

namespace mlir {
namespace stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOFFT
#include "stencil/Conversion/Passes.h.inc"
} // namespace stencil
} // namespace mlir

using namespace mlir;
using namespace mlir::stencil;

static constexpr StringLiteral kGpuModuleName = "stencil_fft";
/// The dynamic shared memory a block may opt in to (GPULimits.h).
static constexpr int64_t kMaxSharedBytes = kMaxOptInSharedBytes;

/// The elements of a complex<f64> spectrum attribute.
static SmallVector<std::complex<double>> getSpectrum(ElementsAttr attr) {
  return llvm::to_vector(attr.getValues<std::complex<double>>());
}

namespace {
struct ConvertStencilToFftPass
    : public stencil::impl::ConvertStencilToFftBase<ConvertStencilToFftPass> {
  using ConvertStencilToFftBase::ConvertStencilToFftBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (warps < 1 || warps > 32) {
      module.emitError("--convert-stencil-to-fft: warps must be in [1, 32], "
                       "got ")
          << warps.getValue();
      return signalPassFailure();
    }
    SmallVector<FftApplyOp> ops;
    module.walk([&](FftApplyOp op) { ops.push_back(op); });
    if (ops.empty())
      return;
    SymbolTable symbols(module);
    gpu::GPUModuleOp gpuModule =
        getOrCreateGpuModule(module, symbols, kGpuModuleName);
    SmallVector<Attribute> launches;
    for (FftApplyOp op : ops)
      if (failed(convert(op, gpuModule, symbols, launches)))
        return signalPassFailure();
    appendLaunchRecords(module, launches);
  }

  LogicalResult convert(FftApplyOp op, gpu::GPUModuleOp gpuModule,
                        SymbolTable &symbols,
                        SmallVectorImpl<Attribute> &launches) {
    if (!cast<MemRefType>(op.getInput().getType()).getLayout().isIdentity())
      return op.emitOpError("needs grids with the identity layout");
    if (!op.getSpectrumAttr())
      return op.emitError("has no spectrum: run --stencil-fft-spectrum "
                          "before --convert-stencil-to-fft");
    FftTilePlan plan = op.getTilePlan();
    int64_t sharedBytes = getFftSharedBytes(plan);
    if (sharedBytes > kMaxSharedBytes)
      return op.emitError("the tile array needs ")
             << sharedBytes << " bytes of shared memory, more than the "
             << kMaxSharedBytes << " a block can have";
    Type elementType =
        cast<MemRefType>(op.getInput().getType()).getElementType();
    int64_t steps = op.getSteps(), fused = op.getFusedSteps();
    // The tail kernel (one step per launch, for the steps `fused` does not
    // divide) wherever the op has its spectrum (--stencil-fft-spectrum
    // gives it one whenever fused > 1).
    bool hasTail = fused > 1 && op.getTailSpectrumAttr();
    FftCoefficientLayout layout(plan, hasTail);
    SmallVector<std::complex<double>> spectrum =
        getSpectrum(op.getSpectrumAttr());
    SmallVector<std::complex<double>> tailSpectrum;
    if (hasTail)
      tailSpectrum = getSpectrum(op.getTailSpectrumAttr());
    SmallVector<int32_t> words = layout.pack(spectrum, tailSpectrum);

    FftKernelConfig config{plan,
                           fused,
                           /*tail=*/false,
                           f64Shape == F64Shape::M16N8K4 ? FftMmaShape::M16N8K4
                                                         : FftMmaShape::M8N8K4,
                           warps,
                           op.getBoundary(),
                           op.getBoundaryValueAttr()
                               ? op.getBoundaryValueAttr().getValueAsDouble()
                               : 0.0,
                           elementType,
                           op.getPattern().getOffsets(),
                           op.getWeights()};
    std::string name = getUniqueKernelName(op, "fft", gpuModule);
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(gpuModule.getBody());
    gpu::GPUFuncOp kernel =
        buildFftKernel(moduleBuilder, op.getLoc(), name, config, layout);
    gpu::GPUFuncOp tailKernel;
    if (hasTail) {
      FftKernelConfig tailConfig = config;
      tailConfig.steps = 1;
      tailConfig.tail = true;
      tailKernel = buildFftKernel(moduleBuilder, op.getLoc(), name + "_tail",
                                  tailConfig, layout);
    }

    // The record's source: the stencil the runner checks against.
    op->setAttr(kSourceAttrName,
                getSourceAttr(op.getPatternAttr(), op.getWeightsAttr()));
    StencilKernelLaunch launch;
    launch.kernel = kernel;
    launch.tailKernel = tailKernel;
    int64_t rank = plan.getRank();
    for (int64_t d = 0; d < rank; ++d)
      launch.blockTile.push_back(plan.getValidSize(d) *
                                 (d == rank - 1 ? 2 : 1));
    launch.threads = getFftThreads(config);
    launch.sharedBytes = sharedBytes;
    launch.stepsPerLaunch = fused;
    launch.boundary = op.getBoundary();
    launch.boundaryValue = config.boundaryValue;
    launch.accumulator = "f64";
    launch.coefficients = words;
    // The transforms' bound, per launch: the larger of the T-step kernel's
    // and the one-step tail's (which depend on max |H|^T and max |H|).
    launch.fftErrorBound = getFftErrorBound(plan, spectrum);
    if (hasTail)
      launch.fftErrorBound = std::max(launch.fftErrorBound,
                                      getFftErrorBound(plan, tailSpectrum));
    if (!std::isfinite(launch.fftErrorBound))
      return op.emitError("the FFT kernel's error bound is not finite (the "
                          "weights' spectrum to the power of the ")
             << fused
             << " fused steps overflows f64): its result could not be "
                "checked; use fewer fused steps, smaller weights or "
                "another pipeline";
    launch.unit =
        config.shape == FftMmaShape::M16N8K4 ? "mma.f64.m16n8k4" : "mma.f64";
    launch.unitFlopsPerPoint =
        2.0 * double(plan.getMacsPerTile()) / double(plan.getUpdatesPerTile());
    // A block at the grid's edge computes its two N-point tiles by T direct
    // steps (FftKernel.cpp) and keeps their 2 V exact points: 2 K N / V
    // flops per output and step, on CUDA cores (only periodic grids have no
    // such blocks).
    if (op.getBoundary() != BoundaryKind::periodic) {
      int64_t points = 1, valid = 1;
      for (int64_t d = 0; d < rank; ++d) {
        points *= plan.getTileSize(d);
        valid *= plan.getValidSize(d);
      }
      launch.edgeUnit = "fma.f64";
      launch.edgeFlopsPerPoint = 2.0 * double(op.getPattern().getNumPoints()) *
                                 double(points) / double(valid);
    }
    emitHostLaunches(op, op.getInput(), op.getOutput(), steps, launch, symbols,
                     launches);
    op->erase();
    return success();
  }
};
} // namespace
