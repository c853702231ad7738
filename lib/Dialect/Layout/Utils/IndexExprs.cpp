//===- IndexExprs.cpp - Index expressions over SSA slots ------------------===//

#include "IndexExprs.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;

std::optional<loops::LinearForm>
loops::getLinearForm(AffineExpr e, ArrayRef<AffineExpr> placeholders) {
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

std::optional<SmallVector<int64_t>>
loops::getSteps(IndexExprs &x, ArrayRef<AffineExpr> index, AffineExpr slot) {
  SmallVector<int64_t> steps;
  for (AffineExpr e : index) {
    std::optional<int64_t> st =
        IndexExprs::getConstant(x.simplify(e.replace(slot, slot + 1) - e));
    if (!st)
      return std::nullopt;
    steps.push_back(*st);
  }
  return steps;
}

std::optional<loops::AlignedForm>
loops::getAlignedForm(AffineExpr e, AffineExpr slot, int64_t period) {
  if (e == slot)
    return AlignedForm{1, period};
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return AlignedForm{0, std::abs(c.getValue())};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return AlignedForm{0, 1}; // another dim or symbol: any integer
  std::optional<AlignedForm> l = getAlignedForm(bin.getLHS(), slot, period);
  if (!l)
    return std::nullopt;
  auto rhsConst = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (e.getKind()) {
  case AffineExprKind::Add: {
    std::optional<AlignedForm> r = getAlignedForm(bin.getRHS(), slot, period);
    if (!r)
      return std::nullopt;
    std::optional<int64_t> step = llvm::checkedAdd(l->step, r->step);
    if (!step)
      return std::nullopt;
    return AlignedForm{*step, std::gcd(l->divisor, r->divisor)};
  }
  case AffineExprKind::Mul: {
    // (Checked: flat indices multiply by strides; huge static shapes
    // overflow.)
    if (!rhsConst || rhsConst.getValue() == INT64_MIN)
      return std::nullopt;
    int64_t c = rhsConst.getValue();
    std::optional<int64_t> step = llvm::checkedMul(l->step, c);
    std::optional<int64_t> divisor = llvm::checkedMul(l->divisor, std::abs(c));
    if (!step || !divisor)
      return std::nullopt;
    return AlignedForm{*step, *divisor};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod: {
    if (!rhsConst || rhsConst.getValue() <= 0 || l->step < 0)
      return std::nullopt;
    int64_t c = rhsConst.getValue();
    // e(slot) mod c is a multiple of g: below c - g + 1, so the block's
    // (period - 1) * step more stay below c when they are below g.
    int64_t g = std::gcd(l->divisor, c);
    std::optional<int64_t> reach = llvm::checkedMul(l->step, period - 1);
    if (l->step &&
        (e.getKind() == AffineExprKind::CeilDiv || !reach || *reach >= g))
      return std::nullopt;
    if (e.getKind() == AffineExprKind::Mod)
      return AlignedForm{l->step, g};
    return AlignedForm{0, l->divisor % c == 0 ? l->divisor / c : 1};
  }
  default:
    return std::nullopt;
  }
}

std::optional<SmallVector<int64_t>>
loops::getAlignedSteps(ArrayRef<AffineExpr> index, AffineExpr slot,
                       int64_t period) {
  SmallVector<int64_t> steps;
  for (AffineExpr e : index) {
    std::optional<AlignedForm> form = getAlignedForm(e, slot, period);
    if (!form)
      return std::nullopt;
    steps.push_back(form->step);
  }
  return steps;
}

std::optional<loops::AlignedOffset> loops::getAlignedOffset(AffineExpr e,
                                                            AffineExpr slot,
                                                            int64_t period,
                                                            int64_t t) {
  if (e == slot)
    return AlignedOffset{t, period};
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return AlignedOffset{0, std::abs(c.getValue())};
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return AlignedOffset{0, 1}; // another dim or symbol: any integer
  std::optional<AlignedOffset> l =
      getAlignedOffset(bin.getLHS(), slot, period, t);
  if (!l)
    return std::nullopt;
  auto rhsConst = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (e.getKind()) {
  case AffineExprKind::Add: {
    std::optional<AlignedOffset> r =
        getAlignedOffset(bin.getRHS(), slot, period, t);
    if (!r)
      return std::nullopt;
    std::optional<int64_t> offset = llvm::checkedAdd(l->offset, r->offset);
    if (!offset)
      return std::nullopt;
    return AlignedOffset{*offset, std::gcd(l->divisor, r->divisor)};
  }
  case AffineExprKind::Mul: {
    if (!rhsConst || rhsConst.getValue() == INT64_MIN)
      return std::nullopt;
    int64_t c = rhsConst.getValue();
    std::optional<int64_t> offset = llvm::checkedMul(l->offset, c);
    std::optional<int64_t> divisor = llvm::checkedMul(l->divisor, std::abs(c));
    if (!offset || !divisor)
      return std::nullopt;
    return AlignedOffset{*offset, *divisor};
  }
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod: {
    if (!rhsConst || rhsConst.getValue() <= 0)
      return std::nullopt;
    int64_t c = rhsConst.getValue(), d = l->offset;
    bool isMod = e.getKind() == AffineExprKind::Mod;
    // The argument's base L is a multiple of c (its divisor is, or it is
    // 0): (L + d) floordiv c = L / c + floor(d / c), (L + d) mod c = d mod
    // c, whatever d.
    if (l->divisor % c == 0)
      return isMod
                 ? AlignedOffset{llvm::mod(d, c), 0}
                 : AlignedOffset{llvm::divideFloorSigned(d, c), l->divisor / c};
    // Else L mod c is a multiple of g = gcd(divisor, c), at most c - g:
    // 0 <= d < g stays inside the same multiple of c.
    int64_t g = std::gcd(l->divisor, c);
    if (d < 0 || d >= g)
      return std::nullopt;
    return isMod ? AlignedOffset{d, g} : AlignedOffset{0, 1};
  }
  default:
    return std::nullopt;
  }
}

std::optional<SmallVector<SmallVector<int64_t>, 0>>
loops::getAlignedOffsets(ArrayRef<AffineExpr> index, AffineExpr slot,
                         int64_t period) {
  SmallVector<SmallVector<int64_t>, 0> offsets(period);
  for (int64_t t = 0; t < period; ++t)
    for (AffineExpr e : index) {
      std::optional<AlignedOffset> o = getAlignedOffset(e, slot, period, t);
      if (!o)
        return std::nullopt;
      offsets[t].push_back(o->offset);
    }
  return offsets;
}

std::optional<SmallVector<int64_t>>
loops::getCheckedStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size());
  std::optional<int64_t> stride = 1;
  for (size_t d = shape.size(); d-- > 0 && stride;) {
    strides[d] = *stride;
    stride = llvm::checkedMul(*stride, shape[d]);
  }
  if (!stride)
    return std::nullopt;
  return strides;
}

std::optional<int64_t> loops::getLinearStep(ArrayRef<int64_t> steps,
                                            ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, ShapedType::isDynamic) ||
      steps.size() != shape.size())
    return std::nullopt;
  std::optional<SmallVector<int64_t>> strides = getCheckedStrides(shape);
  if (!strides)
    return std::nullopt;
  std::optional<int64_t> linear = 0;
  for (auto [step, stride] : llvm::zip(steps, *strides)) {
    std::optional<int64_t> term = llvm::checkedMul(step, stride);
    linear = term ? llvm::checkedAdd(*linear, *term) : std::nullopt;
    if (!linear)
      return std::nullopt;
  }
  return linear;
}
