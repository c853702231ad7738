//===- IndexExprs.h - Index expressions over SSA slots ----------*- C++ -*-===//
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
//
// Private to lib/Dialect/Layout/Utils.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_DIALECT_LAYOUT_UTILS_INDEXEXPRS_H
#define LAYOUT_LIB_DIALECT_LAYOUT_UTILS_INDEXEXPRS_H

#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"

#include <functional>
#include <optional>

namespace mlir::layout::loops {

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

  /// `e` without its terms that are multiples of m (m > 0), so that
  /// `dropMultiples(e, m) mod m == e mod m` keeps only the terms that vary
  /// modulo m: a row address modulo the vector size then depends on the
  /// buffer's base only when every row stride is a multiple of it, and is
  /// computed (hoisted by LLVM) once, not per row. Looks through sums and
  /// products by constants; other terms are kept.
  static AffineExpr dropMultiples(AffineExpr e, int64_t m) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return getAffineConstantExpr(((c.getValue() % m) + m) % m,
                                   e.getContext());
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin)
      return e;
    if (bin.getKind() == AffineExprKind::Add)
      return dropMultiples(bin.getLHS(), m) + dropMultiples(bin.getRHS(), m);
    if (bin.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
        if (c.getValue() % m == 0)
          return getAffineConstantExpr(0, e.getContext());
    return e;
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
    return materializeMinMaxMap(dedup(getMap(exprs, operands)), operands,
                                isMax);
  }

  /// An scf.if, with an else block, on whether `address` (bytes) is a
  /// multiple of `bytes`: the aligned and unaligned versions of a loop.
  scf::IfOp createIfAligned(AffineExpr address, int64_t bytes) {
    Value misaligned = materialize(address % bytes);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value aligned = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          misaligned, zero);
    return scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
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
    if (isProvablyEmpty(lbMap, ubMap))
      return;
    std::optional<int64_t> lbConst = constantBound(lbMap, /*isMax=*/true);
    std::optional<int64_t> ubConst = constantBound(ubMap, /*isMax=*/false);
    if (lbConst && ubConst) {
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
    Value lb = materializeMinMaxMap(lbMap, lbOperands, /*isMax=*/true);
    Value ub = materializeMinMaxMap(ubMap, ubOperands, /*isMax=*/false);
    Value stepValue = arith::ConstantIndexOp::create(b, loc, step);
    auto loop = scf::ForOp::create(b, loc, lb, ub, stepValue);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVar());
  }

  /// A parallel loop (affine.parallel or scf.parallel, unit step) over
  /// [max(lbs), min(ubs)); `body` is built before its terminator.
  void parallelLoop(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                    function_ref<void(Value)> body) {
    SmallVector<AffineExpr> lbList(lbs.begin(), lbs.end());
    if (lbList.empty())
      lbList.push_back(cst(0));
    SmallVector<Value> lbOperands, ubOperands;
    AffineMap lbMap = dedup(getMap(lbList, lbOperands));
    AffineMap ubMap = dedup(getMap(ubs, ubOperands));
    if (isProvablyEmpty(lbMap, ubMap))
      return;
    OpBuilder::InsertionGuard guard(b);
    if (kind == LoopKind::Affine) {
      auto loop = affine::AffineParallelOp::create(
          b, loc, TypeRange(), ArrayRef<arith::AtomicRMWKind>(),
          ArrayRef<AffineMap>{lbMap}, lbOperands, ArrayRef<AffineMap>{ubMap},
          ubOperands, ArrayRef<int64_t>{1});
      b.setInsertionPoint(loop.getBody()->getTerminator());
      body(loop.getIVs()[0]);
      return;
    }
    Value lb = materializeMinMaxMap(lbMap, lbOperands, /*isMax=*/true);
    Value ub = materializeMinMaxMap(ubMap, ubOperands, /*isMax=*/false);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ParallelOp::create(b, loc, ValueRange{lb}, ValueRange{ub},
                                        ValueRange{one});
    b.setInsertionPoint(loop.getBody()->getTerminator());
    body(loop.getInductionVars()[0]);
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

  /// max (or min) of the results of `map`: loop bounds and
  /// materializeMinMax.
  Value materializeMinMaxMap(AffineMap map, ValueRange operands, bool isMax) {
    if (map.getNumResults() == 1)
      return materializeMap(map, operands);
    if (isMax)
      return affine::AffineMaxOp::create(b, loc, map, operands);
    return affine::AffineMinOp::create(b, loc, map, operands);
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

  /// [max(lbMap), min(ubMap)) is empty whatever its operands: a constant
  /// lower bound at or above a constant upper bound (e.g. a split of partial
  /// tiles that no index reaches). Such loops are not emitted: upstream's
  /// affine.for canonicalization (MLIR 22) turns the bounds of loops nested
  /// in one into an empty min map, which fails verification.
  static bool isProvablyEmpty(AffineMap lbMap, AffineMap ubMap) {
    std::optional<int64_t> lbFloor =
        constantBound(lbMap, /*isMax=*/true, /*constantsOnly=*/true);
    std::optional<int64_t> ubCeil =
        constantBound(ubMap, /*isMax=*/false, /*constantsOnly=*/true);
    return lbFloor && ubCeil && *lbFloor >= *ubCeil;
  }

  /// The max (isMax) or min of the map's results if all are constant; with
  /// `constantsOnly`, of its constant results (nullopt if none).
  static std::optional<int64_t> constantBound(AffineMap map, bool isMax,
                                              bool constantsOnly = false) {
    std::optional<int64_t> result;
    for (AffineExpr e : map.getResults()) {
      std::optional<int64_t> c = getConstant(e);
      if (!c && constantsOnly)
        continue;
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
                                        ArrayRef<AffineExpr> placeholders);

/// The constant steps of `index` when `slot` moves by one, or nullopt when
/// one of them is not constant (the index is not affine in the slot).
std::optional<SmallVector<int64_t>>
getSteps(IndexExprs &x, ArrayRef<AffineExpr> index, AffineExpr slot);

/// How an index expression moves inside one aligned block of a slot:
/// e(slot + t) = e(slot) + step * t for 0 <= t < period, whenever the slot
/// is a multiple of the period and every other dim any integer; `divisor`
/// divides every such e(slot) (0: e(slot) is 0).
struct AlignedForm {
  int64_t step = 0;
  int64_t divisor = 0;
};

/// The AlignedForm of `e`, or nullopt when the analysis cannot show one
/// (a floordiv or mod whose argument may cross a multiple of its divisor
/// inside the block, a product of dims, a ceildiv that moves). Tiled maps
/// are affine only between tile boundaries: (l floordiv 8, l mod 8) moves
/// by (0, 1) inside aligned blocks of at most 8.
std::optional<AlignedForm> getAlignedForm(AffineExpr e, AffineExpr slot,
                                          int64_t period);

/// The steps of `index` when `slot` moves by one inside an aligned block of
/// `period` (getAlignedForm), or nullopt.
std::optional<SmallVector<int64_t>>
getAlignedSteps(ArrayRef<AffineExpr> index, AffineExpr slot, int64_t period);

/// How an index expression moves across an aligned block of a slot, tile
/// boundaries included: e(slot + t) = e(slot) + offset for the one t, when
/// the slot is a multiple of `period` and every other dim any integer;
/// `divisor` divides every such e(slot) (0: e(slot) is 0). A tiled map
/// (l floordiv 8, l mod 8) at t = 13 in aligned blocks of 32: (1, 5).
struct AlignedOffset {
  int64_t offset = 0;
  int64_t divisor = 0;
};
std::optional<AlignedOffset> getAlignedOffset(AffineExpr e, AffineExpr slot,
                                              int64_t period, int64_t t);

/// The offsets of `index` at t = 0 .. period - 1 inside aligned blocks of
/// `period` ([t][dim], getAlignedOffset), or nullopt when one is unknown.
std::optional<SmallVector<SmallVector<int64_t>, 0>>
getAlignedOffsets(ArrayRef<AffineExpr> index, AffineExpr slot, int64_t period);

/// The row-major strides of `shape` (upstream's computeSuffixProduct), or
/// nullopt when a stride or the element count overflows int64.
std::optional<SmallVector<int64_t>> getCheckedStrides(ArrayRef<int64_t> shape);

/// The flat step of `steps` (one per dim) in a row-major buffer of `shape`
/// (sum of step x stride), or nullopt when the shape is dynamic or the
/// arithmetic overflows int64.
std::optional<int64_t> getLinearStep(ArrayRef<int64_t> steps,
                                     ArrayRef<int64_t> shape);

/// Steps that move along the last dim only, by one: a contiguous read.
inline bool isUnitInLastDim(ArrayRef<int64_t> steps) {
  return !steps.empty() && steps.back() == 1 &&
         llvm::all_of(steps.drop_back(), [](int64_t s) { return s == 0; });
}

} // namespace mlir::layout::loops

#endif // LAYOUT_LIB_DIALECT_LAYOUT_UTILS_INDEXEXPRS_H
