//===- LoopEmitters.cpp - Loop nests for the layout ops -------------------===//
//
// Index math is built as AffineExprs whose dims are "slots": SSA values, or
// placeholders for the loop IVs of the destination's physical dims that are
// bound while the loops are created (sibling loops of one depth rebind the
// same placeholder). That keeps one description of the nest for both loop
// dialects: affine loops take the expressions as bound/access maps,
// scf loops get affine.apply/min/max values (lowered by -lower-affine).
//
// The walk (see LoopEmitters.h): every bound check of the destination's
// inverse index map that is linear in the physical IVs,
//   c_j = k_j + sum_m a_jm * p_m < D_j,
// splits the loop of each dim p_k it involves into the ranges where it holds
// for all inner values (full), for some (partial: keep checking inside) or
// for none (padding). With alpha = the outer part and M = the largest inner
// part, full is p_k < floor((D - alpha - M - 1) / a_jk) + 1 and some-valid
// is p_k < floor((D - alpha - 1) / a_jk) + 1. Checks that are not linear
// (a `*` split by a later tile level) are tested per element.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/LayoutToLoops/LoopEmitters.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Xla/TiledLayoutWalk.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExprVisitor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Index expressions over SSA slots
//===----------------------------------------------------------------------===//

namespace {

/// TiledLayoutMap::apply / applyInverse over AffineExprs.
struct AffineExprOps {
  MLIRContext *context;
  AffineExpr constant(int64_t v) { return getAffineConstantExpr(v, context); }
  AffineExpr add(AffineExpr a, AffineExpr b) { return a + b; }
  AffineExpr mul(AffineExpr a, int64_t b) { return a * b; }
  AffineExpr floorDiv(AffineExpr a, int64_t b) { return a.floorDiv(b); }
  AffineExpr mod(AffineExpr a, int64_t b) { return a % b; }
};

class IndexExprs {
public:
  IndexExprs(OpBuilder &builder, Location loc, LoopKind kind)
      : b(builder), loc(loc), kind(kind), context(builder.getContext()) {}

  OpBuilder &b;
  Location loc;
  LoopKind kind;
  MLIRContext *context;

  AffineExpr cst(int64_t v) { return getAffineConstantExpr(v, context); }

  AffineExpr value(Value v) {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return cst(*c);
    auto [it, inserted] = slotOf.try_emplace(v, slots.size());
    if (inserted)
      slots.push_back(v);
    return getAffineDimExpr(it->second, context);
  }

  AffineExpr ofr(OpFoldResult f) {
    if (std::optional<int64_t> c = getConstantIntValue(f))
      return cst(*c);
    return value(cast<Value>(f));
  }

  AffineExpr placeholder() {
    slots.push_back(Value());
    return getAffineDimExpr(slots.size() - 1, context);
  }

  void bind(AffineExpr slot, Value v) {
    slots[cast<AffineDimExpr>(slot).getPosition()] = v;
  }

  /// A map over the slots `exprs` use (in slot order) and those slots.
  AffineMap getMap(ArrayRef<AffineExpr> exprs,
                   SmallVectorImpl<Value> &operands) {
    llvm::SmallBitVector used(slots.size());
    for (AffineExpr e : exprs)
      e.walk([&](AffineExpr s) {
        if (auto d = dyn_cast<AffineDimExpr>(s))
          used.set(d.getPosition());
      });
    SmallVector<AffineExpr> replacements(slots.size(), cst(0));
    unsigned numDims = 0;
    for (int i : used.set_bits()) {
      assert(slots[i] && "unbound placeholder");
      if (std::optional<int64_t> c = getConstantIntValue(slots[i])) {
        replacements[i] = cst(*c);
        continue;
      }
      replacements[i] = getAffineDimExpr(numDims++, context);
      operands.push_back(slots[i]);
    }
    SmallVector<AffineExpr> results;
    for (AffineExpr e : exprs)
      results.push_back(
          simplifyAffineExpr(e.replaceDims(replacements), numDims, 0));
    return AffineMap::get(numDims, 0, results, context);
  }

  static std::optional<int64_t> getConstant(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return c.getValue();
    return std::nullopt;
  }

  Value materialize(AffineExpr e) {
    SmallVector<Value> operands;
    AffineMap map = getMap({e}, operands);
    AffineExpr result = map.getResult(0);
    if (std::optional<int64_t> c = getConstant(result))
      return arith::ConstantIndexOp::create(b, loc, *c);
    if (auto d = dyn_cast<AffineDimExpr>(result))
      return operands[d.getPosition()];
    // Reuse an equal value computed earlier in this block.
    std::string key;
    llvm::raw_string_ostream os(key);
    os << b.getInsertionBlock() << map;
    for (Value v : operands)
      os << ',' << v.getAsOpaquePointer();
    Value &cached = cache[key];
    if (!cached)
      cached = affine::AffineApplyOp::create(b, loc, map, operands);
    return cached;
  }

  /// max (or min) of `exprs` computed here.
  Value materializeMinMax(ArrayRef<AffineExpr> exprs, bool isMax) {
    if (exprs.size() == 1)
      return materialize(exprs[0]);
    SmallVector<Value> operands;
    AffineMap map = dedup(getMap(exprs, operands));
    if (map.getNumResults() == 1)
      return materializeMap(map, operands);
    if (isMax)
      return affine::AffineMaxOp::create(b, loc, map, operands);
    return affine::AffineMinOp::create(b, loc, map, operands);
  }

  /// A slot holding the value of `e` computed here (hoisting).
  AffineExpr hoist(AffineExpr e) { return value(materialize(e)); }

  AffineExpr simplify(AffineExpr e) {
    return simplifyAffineExpr(e, slots.size(), 0);
  }

  Value load(Value memref, ArrayRef<AffineExpr> index) {
    if (kind == LoopKind::Affine) {
      SmallVector<Value> operands;
      AffineMap map = getMap(index, operands);
      return affine::AffineLoadOp::create(b, loc, memref, map, operands);
    }
    SmallVector<Value> indices;
    for (AffineExpr e : index)
      indices.push_back(materialize(e));
    return memref::LoadOp::create(b, loc, memref, indices);
  }

  void store(Value value, Value memref, ArrayRef<AffineExpr> index) {
    if (kind == LoopKind::Affine) {
      SmallVector<Value> operands;
      AffineMap map = getMap(index, operands);
      affine::AffineStoreOp::create(b, loc, value, memref, map, operands);
      return;
    }
    SmallVector<Value> indices;
    for (AffineExpr e : index)
      indices.push_back(materialize(e));
    memref::StoreOp::create(b, loc, value, memref, indices);
  }

  /// A loop over [max(lbs), min(ubs)) (lbs may be empty: 0). Statically
  /// empty loops are not built; single-iteration loops are inlined.
  void forLoop(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
               function_ref<void(Value)> body, int64_t step = 1) {
    SmallVector<AffineExpr> lbList(lbs.begin(), lbs.end());
    if (lbList.empty())
      lbList.push_back(cst(0));
    SmallVector<Value> lbOperands, ubOperands;
    AffineMap lbMap = getMap(lbList, lbOperands);
    AffineMap ubMap = getMap(ubs, ubOperands);
    lbMap = dedup(lbMap);
    ubMap = dedup(ubMap);
    std::optional<int64_t> lbConst = constantBound(lbMap, /*isMax=*/true);
    std::optional<int64_t> ubConst = constantBound(ubMap, /*isMax=*/false);
    if (lbConst && ubConst) {
      if (*lbConst >= *ubConst)
        return;
      if (*ubConst <= *lbConst + step) {
        body(arith::ConstantIndexOp::create(b, loc, *lbConst));
        return;
      }
    }
    if (lbConst)
      lbMap = AffineMap::getConstantMap(*lbConst, context);
    if (ubConst)
      ubMap = AffineMap::getConstantMap(*ubConst, context);
    OpBuilder::InsertionGuard guard(b);
    if (kind == LoopKind::Affine) {
      auto loop = affine::AffineForOp::create(b, loc, lbOperands, lbMap,
                                              ubOperands, ubMap, step);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      body(loop.getInductionVar());
      return;
    }
    Value lb = lbMap.getNumResults() == 1
                   ? materializeMap(lbMap, lbOperands)
                   : affine::AffineMaxOp::create(b, loc, lbMap, lbOperands)
                         .getResult();
    Value ub = ubMap.getNumResults() == 1
                   ? materializeMap(ubMap, ubOperands)
                   : affine::AffineMinOp::create(b, loc, ubMap, ubOperands)
                         .getResult();
    Value stepValue = arith::ConstantIndexOp::create(b, loc, step);
    auto loop = scf::ForOp::create(b, loc, lb, ub, stepValue);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar());
  }

private:
  SmallVector<Value> slots;
  llvm::DenseMap<Value, unsigned> slotOf;
  llvm::StringMap<Value> cache;

  Value materializeMap(AffineMap map, ValueRange operands) {
    if (std::optional<int64_t> c = getConstant(map.getResult(0)))
      return arith::ConstantIndexOp::create(b, loc, *c);
    if (auto d = dyn_cast<AffineDimExpr>(map.getResult(0)))
      return operands[d.getPosition()];
    return affine::AffineApplyOp::create(b, loc, map, operands);
  }

  /// Removes duplicate results; keeps the tightest constant.
  static AffineMap dedup(AffineMap map) {
    SmallVector<AffineExpr> results;
    for (AffineExpr e : map.getResults())
      if (!llvm::is_contained(results, e))
        results.push_back(e);
    return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                          map.getContext());
  }

  static std::optional<int64_t> constantBound(AffineMap map, bool isMax) {
    std::optional<int64_t> result;
    for (AffineExpr e : map.getResults()) {
      std::optional<int64_t> c = getConstant(e);
      if (!c)
        return std::nullopt;
      result = !result
                   ? *c
                   : (isMax ? std::max(*result, *c) : std::min(*result, *c));
    }
    return result;
  }
};

/// `e` as k + sum_m coeffs[m] * placeholders[m] with constant k and
/// coefficients, or nullopt (division, modulo, other slots).
struct LinearForm {
  SmallVector<int64_t> coeffs;
  int64_t constant = 0;
};

std::optional<LinearForm> getLinearForm(AffineExpr e,
                                        ArrayRef<AffineExpr> placeholders) {
  LinearForm form;
  form.coeffs.assign(placeholders.size(), 0);
  std::function<bool(AffineExpr, int64_t)> visit = [&](AffineExpr x,
                                                       int64_t scale) {
    if (auto c = dyn_cast<AffineConstantExpr>(x)) {
      form.constant += scale * c.getValue();
      return true;
    }
    if (auto d = dyn_cast<AffineDimExpr>(x)) {
      for (auto [k, p] : llvm::enumerate(placeholders))
        if (p == x) {
          form.coeffs[k] += scale;
          return true;
        }
      return false;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(x);
    if (!bin)
      return false;
    if (x.getKind() == AffineExprKind::Add)
      return visit(bin.getLHS(), scale) && visit(bin.getRHS(), scale);
    if (x.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        return visit(bin.getLHS(), scale * c.getValue());
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getLHS()))
        return visit(bin.getRHS(), scale * c.getValue());
    }
    return false;
  };
  if (!visit(e, 1))
    return std::nullopt;
  return form;
}

//===----------------------------------------------------------------------===//
// The destination-driven nest
//===----------------------------------------------------------------------===//

class NestEmitter {
public:
  NestEmitter(IndexExprs &x, ElementFn fn, const LoopEmitOptions &options)
      : x(x), fn(fn), options(options) {}

  LogicalResult prepare(Value dest, ArrayRef<OpFoldResult> destSizes,
                        ArrayRef<LoopSource> loopSources,
                        function_ref<InFlightDiagnostic()> emitError);
  void emit() { emitLevel(0, llvm::SmallBitVector(checks.size(), true)); }
  /// Whether a non-temporal store was emitted (the nest needs a fence).
  bool usedNontemporal = false;
  /// The level whose scalar nest is being built as the fallback of
  /// emitInterleavedRow (no second attempt there).
  unsigned interleaveFallbackLevel = ~0u;

private:
  struct Check {
    AffineExpr value;
    AffineExpr bound;
    LinearForm form;
  };
  struct Source {
    Value view;
    std::optional<TiledLayoutMap> map;
    SmallVector<int64_t> dimMap;
    SmallVector<AffineExpr> index; // physical, over the placeholders
  };

  IndexExprs &x;
  ElementFn fn;
  LoopEmitOptions options;
  Value destView, destMemRef;
  /// Vectorization of the rows (see LoopEmitOptions): lanes per vector (0:
  /// scalar rows), the destination's aligned pointer, its row strides
  /// (elements) and element size (bytes), non-temporal stores.
  int64_t lanes = 0, elementBytes = 0;
  AffineExpr destPointer;
  SmallVector<int64_t> destStrides;
  bool nontemporal = false;
  SmallVector<AffineExpr> placeholders, physSizes, logical;
  SmallVector<Check> checks;
  SmallVector<AffineExpr> nonLinearChecks; // value - bound, valid if < 0
  SmallVector<Source, 2> sources;
  Value padValue;

  Value getPadValue() {
    if (!padValue) {
      OpBuilder::InsertionGuard guard(x.b);
      x.b.setInsertionPointAfterValue(destView);
      padValue = createPaddingValue(x.b, x.loc, destMemRef.getType());
    }
    return padValue;
  }

  void emitLevel(unsigned k, const llvm::SmallBitVector &active);
  void emitPadding(unsigned k);
  void emitRow(ArrayRef<AffineExpr> ubs);
  bool emitInterleavedRow(unsigned k, const llvm::SmallBitVector &active);
  /// Copies the staging row to the destination row over [max(lbs),
  /// min(ubs)).
  void emitStagedCopy(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                      AffineExpr shift) {
    AffineExpr p = placeholders.back();
    IndexFns stageIndex{[=] { return shift + p; }};
    std::optional<RowTarget> saved = stagingTarget;
    stagingTarget.reset();
    bool ok = emitVectorRow(
        lbs, ubs, {stagingRow}, {stageIndex},
        [](OpBuilder &, Location, ValueRange loaded) { return loaded[0]; },
        getDestTarget());
    (void)ok;
    assert(ok && "the staging row is contiguous");
    stagingTarget = saved;
  }
  void prepareVectorization();
  using IndexFns = SmallVector<std::function<AffineExpr()>>;
  /// Where a vectorized row goes: the destination, or a staging row.
  struct RowTarget {
    Value memref;
    /// Byte address of the target element at p = 0.
    AffineExpr rowAddress;
    /// The target index with p bound.
    std::function<SmallVector<AffineExpr>()> index;
    bool nontemporal;
    /// No alignment peeling (a cache-resident target): vectors from the
    /// start of the range, a masked tail.
    bool unpeeled = false;
  };
  std::optional<RowTarget> stagingTarget;
  Value stagingRow;
  /// A cache-resident row of `size` elements (alloca, 64-byte aligned).
  Value getStagingRow(int64_t size) {
    if (!stagingRow) {
      OpBuilder::InsertionGuard guard(x.b);
      x.b.setInsertionPointAfterValue(destView);
      auto type = MemRefType::get(
          {size}, cast<MemRefType>(destView.getType()).getElementType());
      stagingRow =
          memref::AllocaOp::create(x.b, x.loc, type, x.b.getI64IntegerAttr(64));
    }
    return stagingRow;
  }
  RowTarget getDestTarget();
  std::optional<SmallVector<bool>>
  classifyRowSources(ArrayRef<Value> views, ArrayRef<IndexFns> sourceIndex);
  bool emitVectorRow(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                     ArrayRef<Value> views, ArrayRef<IndexFns> sourceIndex,
                     ElementFn f, const RowTarget &target);
  void emitElement(ArrayRef<AffineExpr> destIndex,
                   ArrayRef<SmallVector<AffineExpr>> sourceIndices);
};

} // namespace

/// A view of `memref` whose dims listed in `mayBroadcast` have stride 0 when
/// their run-time size is 1 (non-tiled memrefs only).
static FailureOr<Value>
getPhysicalView(OpBuilder &b, Location loc, Value memref,
                std::optional<TiledLayoutMap> &map,
                function_ref<InFlightDiagnostic()> emitError) {
  auto type = cast<MemRefType>(memref.getType());
  auto attr = dyn_cast<TiledLayoutAttr>(type.getLayout());
  if (!attr)
    return memref;
  FailureOr<TiledLayoutMap> m =
      attr.getTiledLayoutMap(type.getShape(), type.getElementType(), emitError);
  if (failed(m))
    return failure();
  FailureOr<MemRefType> physType = attr.getPhysicalMemRefType(type, emitError);
  if (failed(physType))
    return failure();
  map = std::move(*m);
  return ToPhysicalOp::create(b, loc, *physType, memref).getResult();
}

LogicalResult
NestEmitter::prepare(Value dest, ArrayRef<OpFoldResult> destSizes,
                     ArrayRef<LoopSource> loopSources,
                     function_ref<InFlightDiagnostic()> emitError) {
  OpBuilder &b = x.b;
  AffineExprOps ops{x.context};
  destMemRef = dest;
  auto destType = cast<MemRefType>(dest.getType());
  std::optional<TiledLayoutMap> destMap;
  FailureOr<Value> view = getPhysicalView(b, x.loc, dest, destMap, emitError);
  if (failed(view))
    return failure();
  destView = *view;
  auto viewType = cast<MemRefType>(destView.getType());
  for (int64_t k = 0; k < viewType.getRank(); ++k) {
    placeholders.push_back(x.placeholder());
    if (!viewType.isDynamicDim(k))
      physSizes.push_back(x.cst(viewType.getDimSize(k)));
    else if (!destMap)
      physSizes.push_back(x.ofr(destSizes[k]));
    else
      physSizes.push_back(
          x.value(memref::DimOp::create(b, x.loc, destView, k)));
  }
  if (!destMap) {
    logical = placeholders;
  } else {
    InverseIndex<AffineExpr> inverse =
        applyInverse<AffineExpr>(*destMap, placeholders, ops);
    logical.assign(inverse.logical.begin(), inverse.logical.end());
    for (BoundCheck<AffineExpr> &check : inverse.checks) {
      AffineExpr bound;
      if (check.bound != kUnboundedSize) {
        bound = x.cst(check.bound);
      } else {
        // Dynamic: the combined index of the largest element, plus one.
        SmallVector<AffineExpr> last;
        for (OpFoldResult s : destSizes)
          last.push_back(x.ofr(s) - 1);
        bound = getLevelCombinedIndex<AffineExpr>(*destMap, last, check.level,
                                                  ops)[check.dim] +
                1;
      }
      AffineExpr value = x.simplify(check.value);
      if (std::optional<LinearForm> form = getLinearForm(value, placeholders))
        checks.push_back({value, bound, *form});
      else
        nonLinearChecks.push_back(value - bound);
    }
  }
  (void)destType;
  for (const LoopSource &s : loopSources) {
    Source source;
    FailureOr<Value> srcView =
        getPhysicalView(b, x.loc, s.memref, source.map, emitError);
    if (failed(srcView))
      return failure();
    source.view = *srcView;
    source.dimMap = s.dimMap;
    SmallVector<AffineExpr> srcLogical;
    for (int64_t d : s.dimMap)
      srcLogical.push_back(d < 0 ? x.cst(0) : logical[d]);
    if (source.map) {
      SmallVector<AffineExpr, 6> index =
          source.map->apply<AffineExpr>(srcLogical, ops);
      source.index.assign(index.begin(), index.end());
    } else {
      source.index = srcLogical;
    }
    for (AffineExpr &e : source.index)
      e = x.simplify(e);
    sources.push_back(std::move(source));
  }
  prepareVectorization();
  return success();
}

void NestEmitter::prepareVectorization() {
  if (options.vectorBytes <= 0 || !options.vectorizableFn ||
      !nonLinearChecks.empty() || !llvm::isPowerOf2_64(options.vectorBytes))
    return;
  auto type = cast<MemRefType>(destView.getType());
  Type elementType = type.getElementType();
  if (!type.getLayout().isIdentity() || !type.hasStaticShape() ||
      type.getRank() == 0 || !elementType.isIntOrFloat() ||
      elementType.isInteger(1) || elementType.getIntOrFloatBitWidth() % 8)
    return;
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  if (options.vectorBytes % bytes || options.vectorBytes / bytes < 2)
    return;
  for (const Source &s : sources)
    if (cast<MemRefType>(s.view.getType()).getElementType() != elementType)
      return;
  elementBytes = bytes;
  lanes = options.vectorBytes / bytes;
  destStrides.assign(type.getRank(), 1);
  for (int64_t k = type.getRank() - 2; k >= 0; --k)
    destStrides[k] = destStrides[k + 1] * type.getDimSize(k + 1);
  nontemporal =
      options.nontemporalThresholdBytes >= 0 &&
      type.getNumElements() * bytes >= options.nontemporalThresholdBytes;
  OpBuilder::InsertionGuard guard(x.b);
  x.b.setInsertionPointAfterValue(destView);
  destPointer = x.value(
      memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, destView));
}

void NestEmitter::emitPadding(unsigned k) {
  if (k == placeholders.size()) {
    x.store(getPadValue(), destView, placeholders);
    return;
  }
  x.forLoop({}, {physSizes[k]}, [&](Value iv) {
    x.bind(placeholders[k], iv);
    emitPadding(k + 1);
  });
}

void NestEmitter::emitLevel(unsigned k, const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  if (n == 0) {
    emitElement({}, llvm::to_vector(llvm::map_range(
                        sources, [](const Source &s) { return s.index; })));
    return;
  }
  if (lanes && k + 1 < n && k != interleaveFallbackLevel &&
      emitInterleavedRow(k, active))
    return;
  // The checks this dim takes part in, with their full/valid limits.
  struct Split {
    unsigned check;
    AffineExpr full, valid;
    bool hasInner;
  };
  SmallVector<Split> splits;
  for (int j : active.set_bits()) {
    const Check &c = checks[j];
    int64_t a = c.form.coeffs[k];
    if (a == 0)
      continue;
    AffineExpr alpha = x.cst(c.form.constant);
    for (unsigned m = 0; m < k; ++m)
      alpha = alpha + placeholders[m] * c.form.coeffs[m];
    AffineExpr inner = x.cst(0);
    bool hasInner = false;
    for (unsigned m = k + 1; m < n; ++m)
      if (c.form.coeffs[m]) {
        inner = inner + (physSizes[m] - 1) * c.form.coeffs[m];
        hasInner = true;
      }
    AffineExpr full = (c.bound - alpha - inner - 1).floorDiv(a) + 1;
    AffineExpr valid = (c.bound - alpha - 1).floorDiv(a) + 1;
    splits.push_back({static_cast<unsigned>(j), x.simplify(full),
                      x.simplify(valid), hasInner});
  }
  AffineExpr size = physSizes[k];
  auto body = [&](const llvm::SmallBitVector &nextActive) {
    return [&, nextActive](Value iv) {
      x.bind(placeholders[k], iv);
      emitLevel(k + 1, nextActive);
    };
  };
  if (k + 1 == n) {
    // Innermost: the valid prefix, then padding.
    SmallVector<AffineExpr> ubs{size};
    for (const Split &s : splits)
      ubs.push_back(s.valid);
    emitRow(ubs);
    return;
  }
  if (splits.empty()) {
    x.forLoop({}, {size}, body(active));
  } else {
    // Each check is full or partial (partial only if inner dims can still
    // fail it): the ranges intersect.
    unsigned r = splits.size();
    for (unsigned mask = 0; mask < (1u << r); ++mask) {
      SmallVector<AffineExpr> lbs{x.cst(0)}, ubs{size};
      llvm::SmallBitVector nextActive = active;
      bool skip = false;
      for (unsigned i = 0; i < r; ++i) {
        bool partial = mask & (1u << i);
        if (partial && !splits[i].hasInner)
          skip = true;
        if (partial) {
          lbs.push_back(splits[i].full);
          ubs.push_back(splits[i].valid);
        } else {
          ubs.push_back(splits[i].full);
          nextActive.reset(splits[i].check);
        }
      }
      if (!skip)
        x.forLoop(lbs, ubs, body(nextActive));
    }
  }
  // Padding: the first check (in order) that fails for every inner value.
  for (unsigned i = 0; i < splits.size(); ++i) {
    SmallVector<AffineExpr> lbs{splits[i].valid}, ubs{size};
    for (unsigned j = 0; j < i; ++j)
      ubs.push_back(splits[j].valid);
    x.forLoop(lbs, ubs, [&](Value iv) {
      x.bind(placeholders[k], iv);
      emitPadding(k + 1);
    });
  }
}

void NestEmitter::emitRow(ArrayRef<AffineExpr> ubs) {
  unsigned n = placeholders.size();
  AffineExpr p = placeholders[n - 1];
  // How an expression moves with p: {value at p = 0, step} when affine.
  auto step = [&](AffineExpr e) -> std::optional<int64_t> {
    AffineExpr d = x.simplify(e.replace(p, p + 1) - e);
    return IndexExprs::getConstant(d);
  };
  // Sources whose index is not affine in p are read in runs.
  SmallVector<bool> needsRuns;
  for (const Source &s : sources)
    needsRuns.push_back(llvm::any_of(
        s.index, [&](AffineExpr e) { return !step(e).has_value(); }));
  // The destination's logical dim that p moves (by one).
  int64_t movingDim = -1;
  for (auto [d, e] : llvm::enumerate(logical)) {
    std::optional<int64_t> s = step(e);
    if (!s) {
      movingDim = -2;
      break;
    }
    if (*s == 1 && movingDim == -1)
      movingDim = d;
    else if (*s != 0)
      movingDim = -2;
  }
  int64_t runLength = 0;
  SmallVector<std::optional<AffineRun>> runs(sources.size());
  if (movingDim >= 0) {
    for (auto [i, s] : llvm::enumerate(sources)) {
      if (!needsRuns[i] || !s.map)
        continue;
      auto it = llvm::find(s.dimMap, movingDim);
      if (it == s.dimMap.end())
        continue;
      std::optional<AffineRun> run =
          getAffineRun(*s.map, it - s.dimMap.begin());
      if (!run || run->length <= 1)
        continue;
      runs[i] = run;
      runLength = std::gcd(runLength, run->length);
    }
  }

  // Hoists the p = 0 value of every affine index expression; the others
  // stay inline (per-element division: the fallback).
  auto hoistAffine = [&](AffineExpr e) -> std::function<AffineExpr()> {
    if (std::optional<int64_t> s = step(e)) {
      AffineExpr base = x.hoist(e.replace(p, x.cst(0)));
      int64_t st = *s;
      return [=] { return base + p * st; };
    }
    return [=] { return e; };
  };
  SmallVector<std::function<AffineExpr()>> destIndex;
  for (AffineExpr e : placeholders)
    destIndex.push_back([=] { return e; });

  auto emitInner =
      [&](ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> innerUbs,
          ArrayRef<SmallVector<std::function<AffineExpr()>>> sourceIndex) {
        if (lanes) {
          SmallVector<Value> views;
          for (const Source &s : sources)
            views.push_back(s.view);
          if (emitVectorRow(lbs, innerUbs, views, sourceIndex, fn,
                            stagingTarget ? *stagingTarget : getDestTarget()))
            return;
          assert(!stagingTarget && "staged rows are vectorizable");
        }
        x.forLoop(lbs, innerUbs, [&](Value iv) {
          x.bind(p, iv);
          SmallVector<AffineExpr> dst(placeholders.begin(), placeholders.end());
          SmallVector<SmallVector<AffineExpr>> srcs;
          for (const auto &index : sourceIndex) {
            srcs.emplace_back();
            for (const auto &f : index)
              srcs.back().push_back(f());
          }
          emitElement(dst, srcs);
        });
      };

  if (runLength <= 1) {
    SmallVector<SmallVector<std::function<AffineExpr()>>> sourceIndex;
    for (const Source &s : sources) {
      sourceIndex.emplace_back();
      for (AffineExpr e : s.index)
        sourceIndex.back().push_back(hoistAffine(e));
    }
    emitInner({}, ubs, sourceIndex);
  } else {
    // Runs of `runLength` along the moving logical dim e = base + p:
    // segment sigma covers e in [sigma * P, (sigma + 1) * P).
    AffineExpr base = x.hoist(logical[movingDim].replace(p, x.cst(0)));
    SmallVector<SmallVector<std::function<AffineExpr()>>> hoisted;
    for (auto [i, s] : llvm::enumerate(sources)) {
      hoisted.emplace_back();
      if (!runs[i])
        for (AffineExpr e : s.index)
          hoisted.back().push_back(hoistAffine(e));
    }
    SmallVector<AffineExpr> segUbs;
    for (AffineExpr ub : ubs)
      segUbs.push_back((base + ub - 1).floorDiv(runLength) + 1);
    // Segments of a destination row that is not vector-aligned (its row
    // stride is not a multiple of the vector) would each need a masked
    // head and tail: they go to an aligned staging row in the cache
    // instead (aligned segments), which is then copied with aligned
    // (non-temporal) vector stores: one masked head and tail per row.
    // A row that provably lies inside one run (its length divides the run
    // length and its start is a multiple of it, e.g. T(8,128) -> T(16,64))
    // needs no segment loop: one segment, computed once per row.
    bool singleRun = false;
    if (std::optional<int64_t> rowLength =
            IndexExprs::getConstant(physSizes[n - 1]);
        rowLength && runLength % *rowLength == 0)
      if (std::optional<LinearForm> form =
              getLinearForm(x.simplify(logical[movingDim].replace(p, x.cst(0))),
                            placeholders))
        singleRun = form->constant % *rowLength == 0 &&
                    llvm::all_of(form->coeffs, [&](int64_t c) {
                      return c % *rowLength == 0;
                    });
    std::optional<AffineExpr> stageShift;
    std::optional<int64_t> destRowLength =
        IndexExprs::getConstant(physSizes[n - 1]);
    if (lanes && n >= 2 && !singleRun && destRowLength &&
        *destRowLength >= lanes &&
        (destStrides[n - 2] * elementBytes) % options.vectorBytes != 0 &&
        (destStrides[n - 2] + lanes) * elementBytes <= (64 << 10)) {
      bool vectorizable = true;
      for (auto [i, s] : llvm::enumerate(sources)) {
        bool identity =
            cast<MemRefType>(s.view.getType()).getLayout().isIdentity();
        if (runs[i]) {
          vectorizable &=
              identity && runs[i]->stride == 1 &&
              runs[i]->physicalDim == static_cast<int64_t>(s.index.size()) - 1;
          continue;
        }
        SmallVector<int64_t> steps;
        for (AffineExpr e : s.index)
          if (std::optional<int64_t> st = step(e))
            steps.push_back(*st);
          else
            vectorizable = false;
        if (!vectorizable)
          break;
        bool constant = llvm::all_of(steps, [](int64_t v) { return v == 0; });
        bool unit = !steps.empty() && steps.back() == 1 &&
                    llvm::all_of(ArrayRef(steps).drop_back(),
                                 [](int64_t v) { return v == 0; });
        vectorizable &= constant || (unit && identity);
      }
      if (vectorizable) {
        Value stage = getStagingRow(destStrides[n - 2] + lanes);
        AffineExpr stagePointer = x.value(
            memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, stage));
        // Segments start at multiples of the run length in the staging row
        // (aligned stores); the copy reads it unaligned.
        AffineExpr shift = x.cst(0);
        stageShift = shift;
        stagingTarget =
            RowTarget{stage, stagePointer + shift * elementBytes,
                      [=] { return SmallVector<AffineExpr>{shift + p}; },
                      /*nontemporal=*/false, /*unpeeled=*/true};
      }
    }
    AffineExpr sigma = x.placeholder();
    auto segment = [&](Value iv) {
      x.bind(sigma, iv);
      // p where the segment starts (may be before this row's range).
      AffineExpr start = x.hoist(sigma * runLength - base);
      SmallVector<SmallVector<std::function<AffineExpr()>>> sourceIndex;
      for (auto [i, s] : llvm::enumerate(sources)) {
        if (!runs[i]) {
          sourceIndex.push_back(hoisted[i]);
          continue;
        }
        sourceIndex.emplace_back();
        for (auto [k, e] : llvm::enumerate(s.index)) {
          AffineExpr at = x.hoist(e.replace(p, start));
          int64_t st = static_cast<int64_t>(k) == runs[i]->physicalDim
                           ? runs[i]->stride
                           : 0;
          sourceIndex.back().push_back([=] { return at + (p - start) * st; });
        }
      }
      SmallVector<AffineExpr> innerUbs(ubs.begin(), ubs.end());
      if (singleRun) {
        emitInner({x.cst(0)}, innerUbs, sourceIndex);
        return;
      }
      innerUbs.push_back(start + runLength);
      emitInner({x.cst(0), start}, innerUbs, sourceIndex);
      if (stageShift) {
        // Copy the aligned destination vectors this segment completed
        // (reads and streaming writes interleave): [A(s0), A(s1)) with A
        // the aligned-down position, s0/s1 the segment's bounds.
        auto alignDown = [&](AffineExpr q) {
          return q - ((getDestTarget().rowAddress + q * elementBytes) %
                      options.vectorBytes)
                         .floorDiv(elementBytes);
        };
        SmallVector<AffineExpr> copyUbs;
        for (AffineExpr u : innerUbs)
          copyUbs.push_back(alignDown(u));
        emitStagedCopy({alignDown(x.cst(0)), alignDown(start), x.cst(0)},
                       copyUbs, *stageShift);
      }
    };
    if (singleRun)
      segment(x.materialize(base.floorDiv(runLength)));
    else
      x.forLoop({base.floorDiv(runLength)}, segUbs, segment);
    if (stageShift) {
      // The rest of the row after the last aligned position.
      stagingTarget.reset();
      AffineExpr end = x.value(x.materializeMinMax(ubs, /*isMax=*/false));
      AffineExpr aligned =
          end - ((getDestTarget().rowAddress + end * elementBytes) %
                 options.vectorBytes)
                    .floorDiv(elementBytes);
      emitStagedCopy({aligned, x.cst(0)}, {end}, *stageShift);
    }
  }
  // Padding after the valid prefix of the row.
  for (unsigned i = 1; i < ubs.size(); ++i) {
    SmallVector<AffineExpr> lbs{ubs[i]}, padUbs{ubs[0]};
    for (unsigned j = 1; j < i; ++j)
      padUbs.push_back(ubs[j]);
    x.forLoop(lbs, padUbs, [&](Value iv) {
      x.bind(p, iv);
      x.store(getPadValue(), destView, placeholders);
    });
  }
}

/// The innermost loop over [max(lbs), min(ubs)) in three parts: a masked
/// vector for the elements before the first destination address aligned to
/// vectorBytes, a loop of aligned vectors (vector.load of contiguous
/// sources, a broadcast of sources constant along the row, one aligned -
/// and for large destinations non-temporal - vector.store), a masked
/// vector for the rest. The loop is scf.for (its bounds are runtime
/// values: the alignment depends on the buffer's address). Returns false,
/// building nothing, when a source is neither contiguous nor constant along
/// the row.
NestEmitter::RowTarget NestEmitter::getDestTarget() {
  unsigned n = placeholders.size();
  AffineExpr row = destPointer;
  for (unsigned k = 0; k + 1 < n; ++k)
    row = row + placeholders[k] * (destStrides[k] * elementBytes);
  return {destView, row,
          [this] {
            return SmallVector<AffineExpr>(placeholders.begin(),
                                           placeholders.end());
          },
          nontemporal};
}

/// Rows whose innermost physical dims are short (repeated tiles such as
/// bf16 T(8,128)(2,1): physical [..., 128, 2, 1]): the dims after k have a
/// static product m (a power of two) and the block of dims k.. is
/// contiguous in the destination. Each source is read as m vectors of
/// lanes/m elements (one per inner index, contiguous along dim k) which
/// are interleaved into one destination vector. Rows whose address is not
/// vector-aligned at run time take the scalar nest.
bool NestEmitter::emitInterleavedRow(unsigned k,
                                     const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  int64_t m = 1;
  for (unsigned i = k + 1; i < n; ++i) {
    std::optional<int64_t> c = IndexExprs::getConstant(physSizes[i]);
    if (!c)
      return false;
    m *= *c;
  }
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes[k]);
  if (m < 2 || !llvm::isPowerOf2_64(m) || lanes % m || lanes / m < 2 ||
      !rowLength || *rowLength % (lanes / m))
    return false;
  for (int j : active.set_bits())
    for (unsigned i = k; i < n; ++i)
      if (checks[j].form.coeffs[i])
        return false;
  // Per source: the index with the inner dims fixed, for every inner
  // combination, contiguous (or constant) along dim k.
  AffineExpr pk = placeholders[k];
  SmallVector<SmallVector<SmallVector<AffineExpr>>> reads; // [source][j]
  SmallVector<bool> contiguous;
  for (const Source &s : sources) {
    bool isContiguous = false, isConstant = true;
    reads.emplace_back();
    for (int64_t j = 0; j < m; ++j) {
      SmallVector<AffineExpr> index;
      int64_t rest = j;
      SmallVector<int64_t> inner(n, 0);
      for (unsigned i = n - 1; i > k; --i) {
        int64_t size = *IndexExprs::getConstant(physSizes[i]);
        inner[i] = rest % size;
        rest /= size;
      }
      SmallVector<int64_t> steps;
      for (AffineExpr e : s.index) {
        for (unsigned i = k + 1; i < n; ++i)
          e = e.replace(placeholders[i], x.cst(inner[i]));
        e = x.simplify(e);
        std::optional<int64_t> st =
            IndexExprs::getConstant(x.simplify(e.replace(pk, pk + 1) - e));
        if (!st)
          return false;
        steps.push_back(*st);
        index.push_back(e);
      }
      bool constant = llvm::all_of(steps, [](int64_t v) { return v == 0; });
      bool unit = !steps.empty() && steps.back() == 1 &&
                  llvm::all_of(ArrayRef(steps).drop_back(),
                               [](int64_t v) { return v == 0; }) &&
                  cast<MemRefType>(s.view.getType()).getLayout().isIdentity();
      if (!constant && !unit)
        return false;
      isContiguous |= unit;
      isConstant &= constant;
      reads.back().push_back(index);
    }
    if (isContiguous && isConstant)
      return false;
    contiguous.push_back(isContiguous);
  }
  OpBuilder &b = x.b;
  Location loc = x.loc;
  LoopKind savedKind = x.kind;
  x.kind = LoopKind::SCF;
  AffineExpr row = destPointer;
  for (unsigned i = 0; i < k; ++i)
    row = row + placeholders[i] * (destStrides[i] * elementBytes);
  Value misaligned = x.materialize(row % options.vectorBytes);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value aligned =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, misaligned, zero);
  auto ifOp = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    int64_t part = lanes / m;
    x.forLoop(
        {}, {physSizes[k]},
        [&](Value iv) {
          x.bind(pk, iv);
          SmallVector<Value> loaded;
          for (auto [s, sourceReads, isVector] :
               llvm::zip(sources, reads, contiguous)) {
            Type elementType =
                cast<MemRefType>(s.view.getType()).getElementType();
            if (!isVector) {
              Value scalar = x.load(s.view, sourceReads[0]);
              loaded.push_back(vector::BroadcastOp::create(
                  b, loc, VectorType::get({lanes}, elementType), scalar));
              continue;
            }
            SmallVector<Value> parts;
            for (const SmallVector<AffineExpr> &index : sourceReads) {
              SmallVector<Value> indices;
              for (AffineExpr e : index)
                indices.push_back(x.materialize(e));
              parts.push_back(vector::LoadOp::create(
                  b, loc, VectorType::get({part}, elementType), s.view,
                  indices));
            }
            // interleave(even, odd) recursively: lane j of part i lands at
            // j * m + i.
            std::function<Value(ArrayRef<Value>)> weave =
                [&](ArrayRef<Value> vs) -> Value {
              if (vs.size() == 1)
                return vs[0];
              SmallVector<Value> even, odd;
              for (auto [i, v] : llvm::enumerate(vs))
                (i % 2 ? odd : even).push_back(v);
              return vector::InterleaveOp::create(b, loc, weave(even),
                                                  weave(odd));
            };
            loaded.push_back(weave(parts));
          }
          Value result = fn(b, loc, loaded);
          SmallVector<Value> indices;
          for (unsigned i = 0; i < n; ++i)
            indices.push_back(
                i <= k ? x.materialize(placeholders[i])
                       : arith::ConstantIndexOp::create(b, loc, 0).getResult());
          auto store =
              vector::StoreOp::create(b, loc, result, destView, indices);
          store.setAlignment(static_cast<uint64_t>(options.vectorBytes));
          if (nontemporal) {
            store.setNontemporal(true);
            usedNontemporal = true;
          }
        },
        part);
  }
  x.kind = savedKind;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  unsigned saved = interleaveFallbackLevel;
  interleaveFallbackLevel = k;
  emitLevel(k, active);
  interleaveFallbackLevel = saved;
  return true;
}

/// Per source of a row: true if it is read contiguously along the row
/// (vector loads), false if constant along it (a broadcast); nullopt if
/// neither.
std::optional<SmallVector<bool>>
NestEmitter::classifyRowSources(ArrayRef<Value> views,
                                ArrayRef<IndexFns> sourceIndex) {
  AffineExpr p = placeholders.back();
  SmallVector<bool> contiguous;
  for (auto [view, index] : llvm::zip(views, sourceIndex)) {
    auto viewType = cast<MemRefType>(view.getType());
    SmallVector<int64_t> steps;
    for (const auto &f : index) {
      AffineExpr e = f();
      std::optional<int64_t> st =
          IndexExprs::getConstant(x.simplify(e.replace(p, p + 1) - e));
      if (!st)
        return std::nullopt;
      steps.push_back(*st);
    }
    bool constant = llvm::all_of(steps, [](int64_t v) { return v == 0; });
    bool unit = !steps.empty() && steps.back() == 1 &&
                llvm::all_of(ArrayRef(steps).drop_back(),
                             [](int64_t v) { return v == 0; }) &&
                viewType.getLayout().isIdentity();
    if (!constant && !unit)
      return std::nullopt;
    contiguous.push_back(!constant);
  }
  return contiguous;
}

bool NestEmitter::emitVectorRow(ArrayRef<AffineExpr> lbs,
                                ArrayRef<AffineExpr> ubs, ArrayRef<Value> views,
                                ArrayRef<IndexFns> sourceIndex, ElementFn f,
                                const RowTarget &target) {
  unsigned n = placeholders.size();
  AffineExpr p = placeholders[n - 1];
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes[n - 1]);
  if (!rowLength || *rowLength < lanes)
    return false;
  std::optional<SmallVector<bool>> classified =
      classifyRowSources(views, sourceIndex);
  if (!classified)
    return false;
  SmallVector<bool> contiguous = std::move(*classified);
  // Scalar index math and loops from here (runtime bounds).
  LoopKind savedKind = x.kind;
  x.kind = LoopKind::SCF;
  llvm::scope_exit restore([&] { x.kind = savedKind; });
  OpBuilder &b = x.b;
  Location loc = x.loc;
  SmallVector<AffineExpr> lbList(lbs.begin(), lbs.end());
  if (lbList.empty())
    lbList.push_back(x.cst(0));
  AffineExpr lo = x.value(x.materializeMinMax(lbList, /*isMax=*/true));
  AffineExpr hi = x.value(x.materializeMinMax(ubs, /*isMax=*/false));
  // Byte address of the target element at p = 0 of this row.
  AffineExpr row = target.rowAddress;
  int64_t vb = options.vectorBytes;
  AffineExpr a, e;
  if (target.unpeeled) {
    a = lo;
    e = x.hoist(lo + (hi - lo).floorDiv(lanes) * lanes);
  } else {
    AffineExpr firstAligned =
        lo + ((-(row + lo * elementBytes)) % vb).floorDiv(elementBytes);
    a = x.value(x.materializeMinMax({firstAligned, hi}, /*isMax=*/false));
    AffineExpr lastAligned =
        hi - ((row + hi * elementBytes) % vb).floorDiv(elementBytes);
    e = x.value(x.materializeMinMax({lastAligned, a}, /*isMax=*/true));
  }
  // One vector of `lanes` at p = iv: loads (masked: only the first
  // `count` lanes when `count` is set) and the store.
  auto vectorAt = [&](Value iv, Value count) {
    x.bind(p, iv);
    Value mask;
    if (count) {
      // lane < count (built from arith and vector.broadcast only, which
      // every LLVM lowering converts).
      auto laneType = VectorType::get({lanes}, b.getI32Type());
      SmallVector<int32_t> laneIds(lanes);
      std::iota(laneIds.begin(), laneIds.end(), 0);
      Value ids = arith::ConstantOp::create(
          b, loc, laneType,
          DenseElementsAttr::get(laneType, ArrayRef(laneIds)));
      Value n = arith::IndexCastOp::create(b, loc, b.getI32Type(), count);
      mask = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, ids,
          vector::BroadcastOp::create(b, loc, laneType, n));
    }
    SmallVector<Value> loaded;
    for (auto [view, index, isVector] :
         llvm::zip(views, sourceIndex, contiguous)) {
      SmallVector<AffineExpr> exprs;
      for (const auto &g : index)
        exprs.push_back(g());
      Type elementType = cast<MemRefType>(view.getType()).getElementType();
      auto vectorType = VectorType::get({lanes}, elementType);
      if (!isVector) {
        Value scalar = x.load(view, exprs);
        loaded.push_back(
            vector::BroadcastOp::create(b, loc, vectorType, scalar));
        continue;
      }
      SmallVector<Value> indices;
      for (AffineExpr ex : exprs)
        indices.push_back(x.materialize(ex));
      if (!mask) {
        loaded.push_back(
            vector::LoadOp::create(b, loc, vectorType, view, indices));
        continue;
      }
      Value zero = arith::ConstantOp::create(
          b, loc, vectorType, cast<TypedAttr>(b.getZeroAttr(vectorType)));
      loaded.push_back(vector::MaskedLoadOp::create(b, loc, vectorType, view,
                                                    indices, mask, zero));
    }
    Value result = f(b, loc, loaded);
    SmallVector<Value> indices;
    for (AffineExpr ex : target.index())
      indices.push_back(x.materialize(ex));
    if (mask) {
      vector::MaskedStoreOp::create(b, loc, target.memref, indices, mask,
                                    result);
      return;
    }
    auto store =
        vector::StoreOp::create(b, loc, result, target.memref, indices);
    if (!target.unpeeled)
      store.setAlignment(static_cast<uint64_t>(vb));
    if (target.nontemporal) {
      store.setNontemporal(true);
      usedNontemporal = true;
    }
  };
  // Head [lo, a) and tail [e, hi) have fewer than `lanes` elements: one
  // masked (unaligned, cached) vector each, based in bounds at lo and e.
  // Head and tail under a branch: empty for aligned rows.
  auto masked = [&](AffineExpr at, AffineExpr count) {
    Value n = x.materialize(count);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n, zero);
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    vectorAt(x.materialize(at), n);
  };
  if (!target.unpeeled)
    masked(lo, a - lo);
  x.forLoop(
      {a}, {e}, [&](Value iv) { vectorAt(iv, Value()); }, lanes);
  masked(e, hi - e);
  return true;
}

void NestEmitter::emitElement(ArrayRef<AffineExpr> destIndex,
                              ArrayRef<SmallVector<AffineExpr>> sourceIndices) {
  OpBuilder &b = x.b;
  auto compute = [&] {
    SmallVector<Value> loaded;
    for (auto [s, index] : llvm::zip(sources, sourceIndices))
      loaded.push_back(x.load(s.view, index));
    x.store(fn(b, x.loc, loaded), destView, destIndex);
  };
  if (nonLinearChecks.empty()) {
    compute();
    return;
  }
  // Fallback for checks through a `*` split by a later tile level.
  Value cond;
  Value zero = arith::ConstantIndexOp::create(b, x.loc, 0);
  for (AffineExpr c : nonLinearChecks) {
    Value v = x.materialize(c);
    Value lt =
        arith::CmpIOp::create(b, x.loc, arith::CmpIPredicate::slt, v, zero);
    cond = cond ? arith::AndIOp::create(b, x.loc, cond, lt).getResult() : lt;
  }
  auto ifOp = scf::IfOp::create(b, x.loc, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  compute();
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  x.store(getPadValue(), destView, destIndex);
}

//===----------------------------------------------------------------------===//
// Public emitters
//===----------------------------------------------------------------------===//

Value mlir::layout::createPaddingValue(OpBuilder &b, Location loc,
                                       Type shapedType) {
  Type elementType = cast<ShapedType>(shapedType).getElementType();
  TypedAttr attr =
      getPaddingValueAttr(elementType, getPaddingValue(shapedType));
  if (attr)
    return arith::ConstantOp::create(b, loc, attr);
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    auto floatType = cast<FloatType>(complex.getElementType());
    Attribute zero = b.getFloatAttr(floatType, 0.0);
    return complex::ConstantOp::create(b, loc, complex,
                                       b.getArrayAttr({zero, zero}));
  }
  return ub::PoisonOp::create(b, loc, elementType);
}

FailureOr<SmallVector<OpFoldResult>>
mlir::layout::getLogicalSizes(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    if (!isa<TiledLayoutAttr>(type.getLayout())) {
      sizes.push_back(memref::DimOp::create(b, loc, memref, d).getResult());
      continue;
    }
    if (auto alloc = memref.getDefiningOp<memref::AllocOp>()) {
      sizes.push_back(alloc.getMixedSizes()[d]);
      continue;
    }
    if (auto alloca = memref.getDefiningOp<memref::AllocaOp>()) {
      sizes.push_back(alloca.getMixedSizes()[d]);
      continue;
    }
    return failure();
  }
  return sizes;
}

LogicalResult
mlir::layout::emitElementwiseLoops(OpBuilder &b, Location loc, LoopKind kind,
                                   Value dest, ArrayRef<OpFoldResult> destSizes,
                                   ArrayRef<LoopSource> sources, ElementFn fn,
                                   function_ref<InFlightDiagnostic()> emitError,
                                   const LoopEmitOptions &options) {
  IndexExprs x(b, loc, kind);
  NestEmitter emitter(x, fn, options);
  if (failed(emitter.prepare(dest, destSizes, sources, emitError)))
    return failure();
  emitter.emit();
  // Non-temporal stores are weakly ordered: fence them before the buffer
  // is handed on (to another thread, say).
  if (emitter.usedNontemporal)
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
  return success();
}

LogicalResult mlir::layout::emitRelayoutLoops(
    OpBuilder &b, Location loc, LoopKind kind, Value src, Value dst,
    ArrayRef<OpFoldResult> sizes, function_ref<InFlightDiagnostic()> emitError,
    const LoopEmitOptions &options) {
  int64_t rank = cast<MemRefType>(dst.getType()).getRank();
  LoopSource source{src, llvm::to_vector(llvm::seq<int64_t>(0, rank))};
  LoopEmitOptions copyOptions = options;
  copyOptions.vectorizableFn = true;
  return emitElementwiseLoops(
      b, loc, kind, dst, sizes, source,
      [](OpBuilder &, Location, ValueRange loaded) { return loaded[0]; },
      emitError, copyOptions);
}

//===----------------------------------------------------------------------===//
// Scalar semantics of the binary ops
//===----------------------------------------------------------------------===//

static bool isSignlessOrFloatOrComplex(Type t) {
  return t.isSignlessInteger() || isa<FloatType, ComplexType>(t);
}

std::string mlir::layout::whyBinaryUnsupported(Operation *op) {
  Type t = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  std::string why;
  llvm::raw_string_ostream os(why);
  if (!isSignlessOrFloatOrComplex(t))
    os << "element type " << t
       << " (signed/unsigned integers need a signless view first)";
  else if (isa<ComplexType>(t) && isa<Atan2Op>(op))
    os << "atan2 on complex numbers";
  else if (t.isInteger(1) && isa<PowerOp>(op))
    os << "power on i1";
  return why;
}

LogicalResult mlir::layout::checkBinaryElementSupported(Operation *op) {
  std::string why = whyBinaryUnsupported(op);
  if (why.empty())
    return success();
  return op->emitOpError() << "cannot be lowered to loops: " << why;
}

static Value emitIntegerDivRem(OpBuilder &b, Location loc, Value lhs, Value rhs,
                               bool remainder) {
  // XLA: x / 0 = -1, x % 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
  Type t = lhs.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  auto constant = [&](const APInt &v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v))
        .getResult();
  };
  Value zero = constant(APInt::getZero(width));
  Value one = constant(APInt(width, 1));
  Value minusOne = constant(APInt::getAllOnes(width));
  Value intMin = constant(APInt::getSignedMinValue(width));
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value lhsMin =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, intMin);
  Value rhsMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value overflow = arith::AndIOp::create(b, loc, lhsMin, rhsMinusOne);
  Value unsafe = arith::OrIOp::create(b, loc, isZero, overflow);
  Value safe = arith::SelectOp::create(b, loc, unsafe, one, rhs);
  if (remainder) {
    Value rem = arith::RemSIOp::create(b, loc, lhs, safe);
    return arith::SelectOp::create(b, loc, isZero, lhs, rem);
  }
  Value quot = arith::DivSIOp::create(b, loc, lhs, safe);
  return arith::SelectOp::create(b, loc, isZero, minusOne, quot);
}

static Value emitIntegerPower(OpBuilder &b, Location loc, Value lhs,
                              Value rhs) {
  // XLA: a negative exponent gives 0, except for base 1 (1) and base -1
  // (+-1 by the exponent's parity). math.ipowi must not see a negative
  // exponent: upstream lowers it to a division 1 / base, which is UB for
  // base 0 (and not XLA's result for the others).
  Type t = lhs.getType();
  auto constant = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v))
        .getResult();
  };
  Value zero = constant(0), one = constant(1), minusOne = constant(-1);
  Value exponent = arith::MaxSIOp::create(b, loc, rhs, zero);
  Value power = math::IPowIOp::create(b, loc, lhs, exponent);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rhs, zero);
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, rhs, one), zero);
  Value baseOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, one);
  Value baseMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, minusOne);
  Value minusOnePower = arith::SelectOp::create(b, loc, odd, minusOne, one);
  Value reciprocal = arith::SelectOp::create(
      b, loc, baseOne, one,
      arith::SelectOp::create(b, loc, baseMinusOne, minusOnePower, zero));
  return arith::SelectOp::create(b, loc, negative, reciprocal, power);
}

static Value emitShift(OpBuilder &b, Location loc, Operation *op, Value lhs,
                       Value rhs) {
  // XLA (elemental_ir_emitter): an amount outside [0, bits) -- compared
  // unsigned, so negative amounts too -- gives 0, or the sign for
  // arithmetic right shifts (a shift by bits - 1).
  Type t = lhs.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value bits = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, width));
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rhs, bits);
  if (isa<ShiftRightArithmeticOp>(op)) {
    Value max =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, width - 1));
    Value amount = arith::SelectOp::create(b, loc, inRange, rhs, max);
    return arith::ShRSIOp::create(b, loc, lhs, amount);
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
  // Keep the shift amount in range: an oversized LLVM shift is poison.
  Value amount = arith::SelectOp::create(b, loc, inRange, rhs, zero);
  Value shifted = isa<ShiftLeftOp>(op)
                      ? arith::ShLIOp::create(b, loc, lhs, amount).getResult()
                      : arith::ShRUIOp::create(b, loc, lhs, amount).getResult();
  return arith::SelectOp::create(b, loc, inRange, shifted, zero);
}

static Value emitCompare(OpBuilder &b, Location loc, CompareOp op, Value lhs,
                         Value rhs) {
  Type t = lhs.getType();
  ComparisonDirection dir = op.getComparisonDirection();
  if (isa<ComplexType>(t))
    return dir == ComparisonDirection::EQ
               ? complex::EqualOp::create(b, loc, lhs, rhs).getResult()
               : complex::NotEqualOp::create(b, loc, lhs, rhs).getResult();
  if (isa<FloatType>(t)) {
    arith::CmpFPredicate pred;
    switch (dir) {
    case ComparisonDirection::EQ:
      pred = arith::CmpFPredicate::OEQ;
      break;
    case ComparisonDirection::NE:
      pred = arith::CmpFPredicate::UNE;
      break;
    case ComparisonDirection::LT:
      pred = arith::CmpFPredicate::OLT;
      break;
    case ComparisonDirection::LE:
      pred = arith::CmpFPredicate::OLE;
      break;
    case ComparisonDirection::GT:
      pred = arith::CmpFPredicate::OGT;
      break;
    case ComparisonDirection::GE:
      pred = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, pred, lhs, rhs);
  }
  // pred (i1) compares unsigned: false < true.
  bool isUnsigned = t.isInteger(1);
  arith::CmpIPredicate pred;
  switch (dir) {
  case ComparisonDirection::EQ:
    pred = arith::CmpIPredicate::eq;
    break;
  case ComparisonDirection::NE:
    pred = arith::CmpIPredicate::ne;
    break;
  case ComparisonDirection::LT:
    pred = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ComparisonDirection::LE:
    pred = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ComparisonDirection::GT:
    pred = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ComparisonDirection::GE:
    pred = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, pred, lhs, rhs);
}

Value mlir::layout::emitBinaryElement(OpBuilder &b, Location loc, Operation *op,
                                      Value lhs, Value rhs) {
  Type t = lhs.getType();
  bool isInt = t.isSignlessInteger(), isFloat = isa<FloatType>(t);
  bool isPred = t.isInteger(1);
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isPred)
          return arith::OrIOp::create(b, loc, lhs, rhs);
        if (isInt)
          return arith::AddIOp::create(b, loc, lhs, rhs);
        if (isFloat)
          return arith::AddFOp::create(b, loc, lhs, rhs);
        return complex::AddOp::create(b, loc, lhs, rhs);
      })
      .Case([&](SubtractOp) -> Value {
        if (isInt)
          return arith::SubIOp::create(b, loc, lhs, rhs);
        if (isFloat)
          return arith::SubFOp::create(b, loc, lhs, rhs);
        return complex::SubOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MultiplyOp) -> Value {
        if (isInt) // i1: and
          return arith::MulIOp::create(b, loc, lhs, rhs);
        if (isFloat)
          return arith::MulFOp::create(b, loc, lhs, rhs);
        return complex::MulOp::create(b, loc, lhs, rhs);
      })
      .Case([&](DivideOp) -> Value {
        if (isInt)
          return emitIntegerDivRem(b, loc, lhs, rhs, /*remainder=*/false);
        if (isFloat)
          return arith::DivFOp::create(b, loc, lhs, rhs);
        return complex::DivOp::create(b, loc, lhs, rhs);
      })
      .Case([&](RemainderOp) -> Value {
        if (isInt)
          return emitIntegerDivRem(b, loc, lhs, rhs, /*remainder=*/true);
        return arith::RemFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MaximumOp) -> Value {
        if (isPred)
          return arith::MaxUIOp::create(b, loc, lhs, rhs);
        if (isInt)
          return arith::MaxSIOp::create(b, loc, lhs, rhs);
        return arith::MaximumFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MinimumOp) -> Value {
        if (isPred)
          return arith::MinUIOp::create(b, loc, lhs, rhs);
        if (isInt)
          return arith::MinSIOp::create(b, loc, lhs, rhs);
        return arith::MinimumFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](PowerOp) -> Value {
        if (isInt)
          return emitIntegerPower(b, loc, lhs, rhs);
        if (isFloat)
          return math::PowFOp::create(b, loc, lhs, rhs);
        return complex::PowOp::create(b, loc, lhs, rhs);
      })
      .Case([&](Atan2Op) -> Value {
        return math::Atan2Op::create(b, loc, lhs, rhs);
      })
      .Case([&](AndOp) -> Value {
        return arith::AndIOp::create(b, loc, lhs, rhs);
      })
      .Case(
          [&](OrOp) -> Value { return arith::OrIOp::create(b, loc, lhs, rhs); })
      .Case([&](XorOp) -> Value {
        return arith::XOrIOp::create(b, loc, lhs, rhs);
      })
      .Case<ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp>(
          [&](Operation *shift) -> Value {
            return emitShift(b, loc, shift, lhs, rhs);
          })
      .Case([&](CompareOp compare) -> Value {
        return emitCompare(b, loc, compare, lhs, rhs);
      })
      .Default([](Operation *) -> Value { return {}; });
}

//===----------------------------------------------------------------------===//
// Whole ops
//===----------------------------------------------------------------------===//

MemRefType mlir::layout::getBufferType(RankedTensorType type) {
  Attribute encoding = type.getEncoding();
  if (!encoding)
    return MemRefType::get(type.getShape(), type.getElementType());
  if (auto tiled = dyn_cast<TiledLayoutAttr>(encoding))
    return getMemRefType(type.getShape(), type.getElementType(), tiled);
  return {};
}

Operation *mlir::layout::getFusableBroadcast(Value operand, Operation *user) {
  auto broadcast = operand.getDefiningOp<BroadcastInDimOp>();
  if (!broadcast || !broadcast->hasOneUse() ||
      *broadcast->getUsers().begin() != user)
    return nullptr;
  return broadcast;
}

/// The run-time size of dim `dim` of a tensor, looking through
/// broadcast_in_dim (so that a fused broadcast needs no `tensor.dim`).
static OpFoldResult getTensorSize(OpBuilder &b, Location loc, Value tensor,
                                  int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  if (auto broadcast = tensor.getDefiningOp<BroadcastInDimOp>()) {
    if (!broadcast.getSizes().empty()) {
      int64_t index =
          llvm::count_if(llvm::seq<int64_t>(0, dim),
                         [&](int64_t d) { return type.isDynamicDim(d); });
      return broadcast.getSizes()[index];
    }
    for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (d == dim)
        return getTensorSize(b, loc, broadcast.getOperand(), i);
  }
  return tensor::DimOp::create(b, loc, tensor, dim).getResult();
}

/// For each operand dim of a binary op: the result dim it maps to.
static SmallVector<int64_t> getOperandToResult(Operation *op,
                                               unsigned operand) {
  auto type = cast<RankedTensorType>(op->getOperand(operand).getType());
  int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  if (type.getRank() == rank)
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (type.getRank() == 0)
    return {};
  auto dims = op->getAttrOfType<DenseI64ArrayAttr>("broadcast_dimensions");
  return llvm::to_vector(dims.asArrayRef());
}

SmallVector<OpFoldResult>
mlir::layout::getBroadcastingOpResultSizes(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    if (isa<BroadcastInDimOp>(op)) {
      sizes.push_back(getTensorSize(b, loc, op->getResult(0), d));
      continue;
    }
    // Binary op: the degenerate rule over the operands that map to d.
    SmallVector<OpFoldResult> candidates;
    for (unsigned k = 0; k < 2; ++k) {
      Value operand = op->getOperand(k);
      auto type = cast<RankedTensorType>(operand.getType());
      for (auto [i, r] : llvm::enumerate(getOperandToResult(op, k)))
        if (r == d && type.getDimSize(i) != 1)
          candidates.push_back(getTensorSize(b, loc, operand, i));
    }
    if (candidates.size() == 1 ||
        (candidates.size() == 2 && candidates[0] == candidates[1])) {
      sizes.push_back(candidates[0]);
      continue;
    }
    if (candidates.empty()) {
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    // lhs == 1 ? rhs : lhs, computed at run time.
    Value lhs = getValueOrCreateConstantIndexOp(b, loc, candidates[0]);
    Value rhs = getValueOrCreateConstantIndexOp(b, loc, candidates[1]);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value isOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, one);
    sizes.push_back(
        arith::SelectOp::create(b, loc, isOne, rhs, lhs).getResult());
  }
  return sizes;
}

/// A stride-0 view of an untiled `memref` along `dims` whose run-time size
/// is 1 (replicated dims of unknown size).
static Value getBroadcastView(OpBuilder &b, Location loc, Value memref,
                              ArrayRef<int64_t> dims) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  SmallVector<OpFoldResult> sizes, strides;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = metadata.getSizes()[d];
    Value stride = metadata.getStrides()[d];
    sizes.push_back(size);
    if (llvm::is_contained(dims, d)) {
      Value isOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
      stride = arith::SelectOp::create(b, loc, isOne, zero, stride);
    }
    strides.push_back(stride);
  }
  SmallVector<int64_t> dynamic(type.getRank(), ShapedType::kDynamic);
  auto viewType = MemRefType::get(
      dynamic, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, dynamic),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(), metadata.getOffset(), sizes,
      strides);
}

namespace {
/// How one source of a broadcasting op is read.
struct SourcePlan {
  Value tensor; // the tensor read (the fused broadcast's operand, or the op's)
  SmallVector<int64_t> dimMap;
  SmallVector<int64_t> mayBroadcast; // dynamic dims that may be 1 at run time
};
} // namespace

/// The sources of a broadcasting op: dims mapped to the result, size-1 dims
/// replicated, fused broadcasts composed in.
static SmallVector<SourcePlan> planSources(Operation *op, bool fuse) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<SourcePlan> plans;
  // Without `sizes`, a dynamic broadcast_in_dim result dim is the operand's
  // own size: it is not replicated.
  auto broadcastOp = dyn_cast<BroadcastInDimOp>(op);
  bool sizesFromOperand = broadcastOp && broadcastOp.getSizes().empty();
  auto addSource = [&](Value tensor, ArrayRef<int64_t> toResult) {
    auto type = cast<RankedTensorType>(tensor.getType());
    SourcePlan plan;
    plan.tensor = tensor;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t r = toResult[i];
      bool replicated =
          r < 0 || (type.getDimSize(i) == 1 && resultType.getDimSize(r) != 1);
      plan.dimMap.push_back(replicated ? -1 : r);
      if (!replicated && type.isDynamicDim(i) &&
          resultType.getDimSize(r) != 1 &&
          !(sizesFromOperand && resultType.isDynamicDim(r)))
        plan.mayBroadcast.push_back(i);
    }
    plans.push_back(std::move(plan));
  };
  if (auto broadcast = dyn_cast<BroadcastInDimOp>(op)) {
    addSource(broadcast.getOperand(), broadcast.getBroadcastDimensions());
    return plans;
  }
  for (unsigned k = 0; k < 2; ++k) {
    Value operand = op->getOperand(k);
    SmallVector<int64_t> toResult = getOperandToResult(op, k);
    auto operandType = cast<RankedTensorType>(operand.getType());
    // An operand dim of static size 1 is replicated along the result dim.
    for (auto [i, r] : llvm::enumerate(toResult))
      if (operandType.getDimSize(i) == 1 && resultType.getDimSize(r) != 1)
        r = -1;
    auto broadcast = fuse ? dyn_cast_or_null<BroadcastInDimOp>(
                                getFusableBroadcast(operand, op))
                          : BroadcastInDimOp();
    if (!broadcast) {
      addSource(operand, toResult);
      continue;
    }
    SmallVector<int64_t> composed;
    for (int64_t d : broadcast.getBroadcastDimensions())
      composed.push_back(toResult[d]);
    addSource(broadcast.getOperand(), composed);
  }
  return plans;
}

static bool isStatic(Type t) { return cast<ShapedType>(t).hasStaticShape(); }

/// Whether `op` can be lowered; with `report`, emits why not.
static LogicalResult canLower(Operation *op, LoopKind kind, bool report) {
  auto fail = [&](const Twine &why) {
    if (report)
      op->emitOpError() << "cannot be lowered to loops: " << why;
    return failure();
  };
  if (auto relayout = dyn_cast<RelayoutOp>(op)) {
    if (!isa<MemRefType>(relayout.getSource().getType()))
      return fail("tensor relayouts are bufferized first (--layout-bufferize)");
    if (kind == LoopKind::Affine &&
        (!isStatic(relayout.getSource().getType()) ||
         !isStatic(relayout.getDestination().getType())))
      return fail("dynamic shapes need --convert-layout-to-scf");
    return success();
  }
  if (!isa<BroadcastInDimOp>(op) &&
      !op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
    return fail("not a layout op with a loop lowering");
  if (!isa<BroadcastInDimOp>(op)) {
    std::string why = whyBinaryUnsupported(op);
    if (!why.empty())
      return fail(why);
  }
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      continue;
    if (!getBufferType(type))
      return fail("unsupported tensor encoding");
    if (kind == LoopKind::Affine && !type.hasStaticShape())
      return fail("dynamic shapes need --convert-layout-to-scf");
  }
  for (const SourcePlan &plan : planSources(op, /*fuse=*/true)) {
    auto type = cast<RankedTensorType>(plan.tensor.getType());
    if (!getBufferType(type))
      return fail("unsupported tensor encoding");
    if (kind == LoopKind::Affine && !type.hasStaticShape())
      return fail("dynamic shapes need --convert-layout-to-scf");
    if (!plan.mayBroadcast.empty() && type.getEncoding())
      return fail("a tiled operand with a dynamic size that may broadcast");
  }
  return success();
}

LogicalResult mlir::layout::checkLowerable(Operation *op, LoopKind kind) {
  return canLower(op, kind, /*report=*/true);
}

/// Whether the element computation of `op` may run on vectors: a copy, or
/// add/subtract/multiply/maximum/minimum (and divide on floats), whose
/// emitBinaryElement is one elementwise arith op without constants.
static bool isVectorizableElement(Operation *op) {
  if (isa<BroadcastInDimOp>(op))
    return true;
  Type t = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  Type r = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  if (t != r || !t.isIntOrFloat() || t.isInteger(1))
    return false;
  if (isa<FloatType>(t))
    return isa<AddOp, SubtractOp, MultiplyOp, DivideOp, MaximumOp, MinimumOp>(
        op);
  return isa<AddOp, SubtractOp, MultiplyOp, MaximumOp, MinimumOp>(op);
}

/// emitBinaryElement on vectors, for the ops isVectorizableElement accepts
/// (the same arith op per lane).
static Value emitVectorBinaryElement(OpBuilder &b, Location loc, Operation *op,
                                     Value lhs, Value rhs) {
  bool isFloat =
      isa<FloatType>(cast<VectorType>(lhs.getType()).getElementType());
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](SubtractOp) -> Value {
        return isFloat ? arith::SubFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::SubIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](MultiplyOp) -> Value {
        return isFloat ? arith::MulFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::MulIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](DivideOp) -> Value {
        return arith::DivFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MaximumOp) -> Value {
        return isFloat ? arith::MaximumFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](MinimumOp) -> Value {
        return isFloat ? arith::MinimumFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Default([](Operation *) -> Value {
        llvm_unreachable("not a vectorizable element op");
      });
}

/// The memref that `op`'s result is materialized into when that is its
/// only use (`bufferization.materialize_in_destination %r in restrict
/// writable %m`, %m of type `bufferType` and defined before `op`): the
/// loops can write it directly. Null otherwise.
static bufferization::MaterializeInDestinationOp
getDestinationOfResult(Operation *op, MemRefType bufferType) {
  if (!op->getResult(0).hasOneUse())
    return nullptr;
  auto materialize = dyn_cast<bufferization::MaterializeInDestinationOp>(
      *op->getResult(0).getUsers().begin());
  if (!materialize || !materialize.getRestrict() ||
      !materialize.getWritable() ||
      materialize.getDest().getType() != bufferType)
    return nullptr;
  Value dest = materialize.getDest();
  if (auto arg = dyn_cast<BlockArgument>(dest)) {
    if (!arg.getOwner()->getParentOp()->isProperAncestor(op))
      return nullptr;
  } else {
    Operation *def = dest.getDefiningOp();
    if (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op))
      return nullptr;
  }
  return materialize;
}

LogicalResult mlir::layout::emitBroadcastingOpLoops(
    OpBuilder &b, Operation *op, LoopKind kind,
    ArrayRef<BroadcastingOpOperand> operands, Value dest,
    ArrayRef<OpFoldResult> destSizes, const LoopEmitOptions &options) {
  Location loc = op->getLoc();
  SmallVector<LoopSource> sources;
  SmallVector<SourcePlan> plans = planSources(op, /*fuse=*/false);
  for (auto [i, operand] : llvm::enumerate(operands)) {
    SourcePlan plan;
    if (operand.fusedBroadcast) {
      // Recompute the plan with this operand fused.
      SmallVector<SourcePlan> fused = planSources(op, /*fuse=*/true);
      plan = fused[i];
    } else {
      plan = plans[i];
    }
    Value buffer = operand.buffer;
    if (!plan.mayBroadcast.empty())
      buffer = getBroadcastView(b, loc, buffer, plan.mayBroadcast);
    sources.push_back({buffer, plan.dimMap});
  }
  auto emitError = [op] { return op->emitOpError(); };
  LoopEmitOptions opOptions = options;
  opOptions.vectorizableFn = isVectorizableElement(op);
  if (isa<BroadcastInDimOp>(op))
    return emitElementwiseLoops(
        b, loc, kind, dest, destSizes, sources,
        [](OpBuilder &, Location, ValueRange loaded) { return loaded[0]; },
        emitError, opOptions);
  return emitElementwiseLoops(
      b, loc, kind, dest, destSizes, sources,
      [op](OpBuilder &builder, Location l, ValueRange loaded) {
        if (isa<VectorType>(loaded[0].getType()))
          return emitVectorBinaryElement(builder, l, op, loaded[0], loaded[1]);
        return emitBinaryElement(builder, l, op, loaded[0], loaded[1]);
      },
      emitError, opOptions);
}

LogicalResult
mlir::layout::lowerBroadcastingOp(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options) {
  if (failed(canLower(op, kind, /*report=*/false)))
    return failure();
  // A broadcast that its only user will fuse is left to that user.
  if (isa<BroadcastInDimOp>(op) && op->hasOneUse()) {
    Operation *user = *op->getUsers().begin();
    if (user->hasTrait<layout::OpTrait::BroadcastingBinaryOp>() &&
        succeeded(canLower(user, kind, /*report=*/false)))
      return failure();
  }
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<BroadcastingOpOperand> operands;
  SmallVector<Operation *> fused;
  unsigned numSources = isa<BroadcastInDimOp>(op) ? 1 : 2;
  for (unsigned k = 0; k < numSources; ++k) {
    Value tensor = op->getOperand(k);
    BroadcastingOpOperand operand;
    operand.tensor = tensor;
    Value read = tensor;
    if (numSources == 2)
      if (Operation *broadcast = getFusableBroadcast(tensor, op)) {
        operand.fusedBroadcast = broadcast;
        read = broadcast->getOperand(0);
        fused.push_back(broadcast);
      }
    auto type = cast<RankedTensorType>(read.getType());
    operand.buffer = bufferization::ToBufferOp::create(
        rewriter, loc, getBufferType(type), read, rewriter.getUnitAttr());
    operands.push_back(operand);
  }
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  MemRefType bufferType = getBufferType(resultType);
  SmallVector<OpFoldResult> sizes = getBroadcastingOpResultSizes(rewriter, op);
  SmallVector<Value> dynamicSizes;
  for (auto [d, s] : llvm::enumerate(sizes))
    if (resultType.isDynamicDim(d))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, s));
  if (auto materialize = getDestinationOfResult(op, bufferType)) {
    // Destination passing: write the materialization's memref.
    if (failed(emitBroadcastingOpLoops(rewriter, op, kind, operands,
                                       materialize.getDest(), sizes, options)))
      return failure();
    rewriter.eraseOp(materialize);
    rewriter.eraseOp(op);
    for (Operation *broadcast : fused)
      if (broadcast->use_empty())
        rewriter.eraseOp(broadcast);
    return success();
  }
  Value alloc =
      memref::AllocOp::create(rewriter, loc, bufferType, dynamicSizes);
  if (failed(emitBroadcastingOpLoops(rewriter, op, kind, operands, alloc, sizes,
                                     options)))
    return failure();
  Value result = bufferization::ToTensorOp::create(
      rewriter, loc, resultType, alloc, /*restrict=*/true, /*writable=*/true);
  rewriter.replaceOp(op, result);
  for (Operation *broadcast : fused)
    if (broadcast->use_empty())
      rewriter.eraseOp(broadcast);
  return success();
}

LogicalResult
mlir::layout::lowerMemRefRelayout(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options) {
  auto relayout = dyn_cast<RelayoutOp>(op);
  if (!relayout || failed(canLower(op, kind, /*report=*/false)))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  Value src = relayout.getSource(), dst = relayout.getDestination();
  if (relayout.isPlainCopy()) {
    // Same layouts without padding slots: a copy of the physical buffer.
    // (With padding slots the nest below writes the padding value.)
    rewriter.replaceOpWithNewOp<memref::CopyOp>(op, src, dst);
    return success();
  }
  FailureOr<SmallVector<OpFoldResult>> sizes =
      getLogicalSizes(rewriter, loc, dst);
  if (failed(sizes))
    sizes = getLogicalSizes(rewriter, loc, src);
  if (failed(sizes))
    return failure();
  if (failed(emitRelayoutLoops(
          rewriter, loc, kind, src, dst, *sizes,
          [op] { return op->emitOpError(); }, options)))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

//===----------------------------------------------------------------------===//
// Patterns and driver
//===----------------------------------------------------------------------===//

namespace {
struct LowerBroadcastingOp : RewritePattern {
  LowerBroadcastingOp(MLIRContext *context, LoopKind kind,
                      const LoopEmitOptions &options)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context), kind(kind),
        options(options) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<BroadcastInDimOp>(op) &&
        !op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
      return failure();
    return lowerBroadcastingOp(rewriter, op, kind, options);
  }
  LoopKind kind;
  LoopEmitOptions options;
};

struct LowerMemRefRelayout : OpRewritePattern<RelayoutOp> {
  LowerMemRefRelayout(MLIRContext *context, LoopKind kind,
                      const LoopEmitOptions &options)
      : OpRewritePattern(context), kind(kind), options(options) {}
  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    return lowerMemRefRelayout(rewriter, op, kind, options);
  }
  LoopKind kind;
  LoopEmitOptions options;
};
} // namespace

void mlir::layout::populateLayoutLoopPatterns(RewritePatternSet &patterns,
                                              LoopKind kind,
                                              const LoopEmitOptions &options) {
  patterns.add<LowerBroadcastingOp, LowerMemRefRelayout>(patterns.getContext(),
                                                         kind, options);
}

static bool hasDynamicShape(Operation *op) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (auto type = dyn_cast<ShapedType>(v.getType()))
      if (!type.hasStaticShape())
        return true;
  return false;
}

LogicalResult
mlir::layout::applyLayoutLoopPatterns(Operation *root, LoopKind kind,
                                      bool skipDynamic,
                                      const LoopEmitOptions &options) {
  RewritePatternSet patterns(root->getContext());
  populateLayoutLoopPatterns(patterns, kind, options);
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  // Top-down: a broadcast_in_dim is seen (and left for fusion) before its
  // user.
  config.setUseTopDownTraversal(true);
  (void)applyPatternsGreedily(root, std::move(patterns), config);
  bool ok = true;
  root->walk([&](Operation *op) {
    bool isTarget =
        isa<BroadcastInDimOp>(op) ||
        op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>() ||
        (isa<RelayoutOp>(op) && isa<MemRefType>(op->getOperand(0).getType()));
    if (!isTarget || (skipDynamic && hasDynamicShape(op)))
      return;
    ok = false;
    if (succeeded(checkLowerable(op, kind)))
      op->emitOpError() << "could not be lowered to loops (logical sizes "
                           "of a dynamic tiled memref unknown?)";
  });
  return success(ok);
}

void mlir::layout::loadLoopEmitterDialects(MLIRContext &context) {
  context
      .loadDialect<affine::AffineDialect, arith::ArithDialect,
                   bufferization::BufferizationDialect, complex::ComplexDialect,
                   math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                   ub::UBDialect, vector::VectorDialect, LLVM::LLVMDialect>();
}
