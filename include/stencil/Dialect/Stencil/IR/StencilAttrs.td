//===- StencilAttrs.td - Stencil dialect attributes --------*- tablegen -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILATTRS_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILATTRS_TD

include "stencil/Dialect/Stencil/IR/StencilBase.td"

//===----------------------------------------------------------------------===//
// BoundaryKind
//===----------------------------------------------------------------------===//

def Stencil_BoundaryHalo : I32EnumAttrCase<"halo", 0>;
def Stencil_BoundaryPeriodic : I32EnumAttrCase<"periodic", 1>;
def Stencil_BoundaryDirichlet : I32EnumAttrCase<"dirichlet", 2>;

def Stencil_BoundaryKindAttr : I32EnumAttr<"BoundaryKind",
    "what a stencil does at the edge of the grid",
    [Stencil_BoundaryHalo, Stencil_BoundaryPeriodic,
     Stencil_BoundaryDirichlet]> {
  let cppNamespace = "::mlir::stencil";
  let description = [{
    * `halo` (the papers' convention, and the default): only interior points,
      whose whole neighbourhood lies inside the grid, are computed; the halo
      of width `r` along each dimension keeps the input grid's values.
    * `periodic`: every point is computed; neighbour indices wrap around.
    * `dirichlet`: every point is computed; a neighbour outside the grid reads
      the constant `boundary_value` (a fixed-value boundary condition).
  }];
}

//===----------------------------------------------------------------------===//
// PatternAttr
//===----------------------------------------------------------------------===//

def Stencil_PatternAttr : Stencil_Attr<"Pattern", "pattern"> {
  let summary = "the set of neighbour offsets of a stencil";
  let description = [{
    An ordered set of distinct, constant offsets of rank 1, 2 or 3. Two
    conveniences name the papers' shapes; any other set is written out:

    ```mlir
    #stencil.pattern<star, rank = 2, radius = 1>   // Heat-2D, 5 points
    #stencil.pattern<box, rank = 3, radius = 1>    // Box-3D27P
    #stencil.pattern<[[-2, 1], [0, 0], [1, -1]]>   // irregular
    ```

    The order of the offsets is the order of the weights of a
    `stencil.linear`. `box` lists every offset with components in
    `[-radius, radius]` in lexicographic order (first dimension slowest);
    `star` is the subset of those with at most one non-zero component, in the
    same order. The printer uses the short form whenever the offsets are
    exactly a star or a box.

    Limits: every offset component lies in `[-(2^31 - 1), 2^31 - 1]` (so a
    radius, `2r + 1` and a tile with its halo never overflow 64-bit index
    arithmetic) and a pattern has at most 2^14 points (a short form is
    counted before it is built). Each pipeline checks the radius against
    what its target can do before any work proportional to it.
  }];
  let parameters = (ins
    "unsigned":$rank,
    ArrayRefParameter<"int64_t", "offsets, flattened point by point">:$offsets
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of points in the pattern.
    unsigned getNumPoints() const {
      return getRank() == 0 ? 0 : getOffsets().size() / getRank();
    }
    /// The `i`-th offset, of size `getRank()`.
    ::llvm::ArrayRef<int64_t> getPoint(unsigned i) const {
      return getOffsets().slice(i * getRank(), getRank());
    }
    /// The radius along each dimension: max |offset| over the points.
    ::llvm::SmallVector<int64_t> getRadii() const;
    /// The largest radius over all dimensions.
    int64_t getRadius() const;
  }];
}

//===----------------------------------------------------------------------===//
// TilingAttr
//===----------------------------------------------------------------------===//

def Stencil_TilingAttr : Stencil_Attr<"Tiling", "tiling"> {
  let summary = "the thread-block tiling of a row-form kernel";
  let description = [{
    What `--stencil-sptc-tile` chooses for a row form (`stencil.row_gemm`,
    `stencil.sparse_row_gemm`) and the Tensor Core conversions build: warps
    per block, MMA column tiles (of 8 outputs) per warp, pipelined sub-tiles
    per block (in 3-D, output planes streamed along z), and whether the
    input is staged by double-buffered `cp.async`. The f64 kernel adds its
    m-tiles (of 8 rows) per warp; the sm_90a warpgroup kernel its wgmma N,
    the stages of its shared-memory ring and its strips (0: absent).

    ```mlir
    #stencil.tiling<warps = 4, nTiles = 4, subTiles = 8, asyncCopy = true>
    #stencil.tiling<warps = 4, nTiles = 4, subTiles = 1, asyncCopy = false,
                    mTiles = 2>
    #stencil.tiling<warps = 4, nTiles = 3, subTiles = 8, asyncCopy = false,
                    wgmmaN = 24, wgmmaStages = 3, wgmmaStrips = 1>
    ```
  }];
  let parameters = (ins
    "int64_t":$warps,
    "int64_t":$nTiles,
    "int64_t":$subTiles,
    "bool":$asyncCopy,
    OptionalParameter<"int64_t">:$mTiles,
    OptionalParameter<"int64_t">:$wgmmaN,
    OptionalParameter<"int64_t">:$wgmmaStages,
    OptionalParameter<"int64_t">:$wgmmaStrips
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether it is the tiling of the sm_90a warpgroup kernel.
    bool isWarpgroup() const { return getWgmmaN() > 0; }
  }];
}

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILATTRS_TD
