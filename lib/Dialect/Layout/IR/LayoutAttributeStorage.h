//===- LayoutAttributeStorage.h - parsed layout attributes ------*- C++ -*-===//
//
// Hand-written storage of `#layout.tiled` and `#layout.shape`. The attributes
// are uniqued by their canonical XLA text; the storage also keeps the parsed
// value, built once when the context creates the attribute (under the
// uniquer's lock, immutable afterwards), so queries never re-parse the text.
//
// Private to lib/Dialect/Layout/IR: included by LayoutAttributes.cpp before
// the generated definitions, which access `text` and `dims` by name.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTESTORAGE_H
#define LAYOUT_LIB_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTESTORAGE_H

#include "layout/Xla/Shape.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "mlir/IR/AttributeSupport.h"

#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <tuple>

namespace mlir::layout::detail {

/// Parses `text` as XLA text with `parse`; std::nullopt (the error dropped)
/// when it does not parse. Attributes built with the unchecked `get` are not
/// verified in release builds, and their queries must not crash.
template <typename T, typename ParseFn>
std::optional<T> parseOrNone(llvm::StringRef text, ParseFn parse) {
  llvm::Expected<T> value = parse(text);
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

struct TiledLayoutAttrStorage : public AttributeStorage {
  using KeyTy = std::tuple<llvm::StringRef, llvm::ArrayRef<int64_t>>;

  TiledLayoutAttrStorage(llvm::StringRef text, llvm::ArrayRef<int64_t> dims)
      : text(text), dims(dims),
        layout(parseOrNone<Layout>(
            text, [](llvm::StringRef t) { return parseLayout(t); })) {
    if (!layout)
      return;
    // Without `*` the expressions of the index map do not depend on the
    // sizes: placeholder sizes (1) give the same map for every shape. A
    // dims-less `*` layout has no shape-free map: `indexMap` stays empty and
    // getAffineMap builds the non-affine placeholder (LayoutAttributes.cpp).
    llvm::SmallVector<int64_t> sizes(dims);
    if (sizes.empty()) {
      if (llvm::any_of(layout->getTiles(),
                       [](const Tile &t) { return t.hasCombine(); }))
        return;
      sizes.assign(layout->getMinorToMajor().size(), 1);
    }
    llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(
        Shape::makeArray(PrimitiveType::F32, sizes, *layout),
        /*allowDynamic=*/true);
    if (map)
      indexMap = std::move(*map);
    else
      llvm::consumeError(map.takeError());
  }

  KeyTy getAsKey() const { return KeyTy(text, dims); }
  bool operator==(const KeyTy &key) const {
    return text == std::get<0>(key) && dims == std::get<1>(key);
  }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_combine(std::get<0>(key), std::get<1>(key));
  }
  static TiledLayoutAttrStorage *construct(AttributeStorageAllocator &allocator,
                                           KeyTy &&key) {
    llvm::StringRef text = allocator.copyInto(std::get<0>(key));
    llvm::ArrayRef<int64_t> dims = allocator.copyInto(std::get<1>(key));
    return new (allocator.allocate<TiledLayoutAttrStorage>())
        TiledLayoutAttrStorage(text, dims);
  }

  /// The canonical layout text and the optional logical dims (the key).
  llvm::StringRef text;
  llvm::ArrayRef<int64_t> dims;
  /// The parsed layout; std::nullopt only for an unverified invalid text.
  std::optional<Layout> layout;
  /// The index map over `dims` (or placeholder sizes), for getAffineMap;
  /// empty for a dims-less `*` layout (its map depends on the shape).
  std::optional<TiledLayoutMap> indexMap;
};

struct ShapeAttrStorage : public AttributeStorage {
  using KeyTy = std::tuple<llvm::StringRef>;

  explicit ShapeAttrStorage(llvm::StringRef text)
      : text(text), shape(parseOrNone<Shape>(text, [](llvm::StringRef t) {
          return parseShape(t);
        })) {}

  KeyTy getAsKey() const { return KeyTy(text); }
  bool operator==(const KeyTy &key) const { return text == std::get<0>(key); }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_value(std::get<0>(key));
  }
  static ShapeAttrStorage *construct(AttributeStorageAllocator &allocator,
                                     KeyTy &&key) {
    llvm::StringRef text = allocator.copyInto(std::get<0>(key));
    return new (allocator.allocate<ShapeAttrStorage>()) ShapeAttrStorage(text);
  }

  /// The canonical shape text (the key).
  llvm::StringRef text;
  /// The parsed shape; std::nullopt only for an unverified invalid text.
  std::optional<Shape> shape;
};

} // namespace mlir::layout::detail

#endif // LAYOUT_LIB_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTESTORAGE_H
