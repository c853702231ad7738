//===- IndexExprs.cpp - Index expressions over SSA slots ------------------===//

#include "IndexExprs.h"

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
