//===- Commands.cpp - layout-explain's subcommands ------------------------===//
//
// The handlers of every subcommand except `show` (Show.cpp).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "layout/Xla/Broadcast.h"
#include "layout/Xla/LayoutAlgebra.h"
#include "layout/Xla/LayoutCanonical.h"
#include "layout/Xla/ShapeUtil.h"

using namespace layout_explain;
using namespace mlir::layout;

namespace {
/// `memory` refuses buffers with more slots than this.
constexpr int64_t kMaxMemorySlots = int64_t(1) << 20;
} // namespace

Expected<SizeRows> layout_explain::computeSizes(const Shape &shape) {
  SizeRows rows;
  if (!shape.isArray()) {
    // Tuples, tokens, opaque: XLA's pointer-per-element sizes only.
    if (shape.isTuple())
      rows.push_back({"tuple_elements",
                      static_cast<int64_t>(shape.getTupleShapes().size())});
    Expected<int64_t> bytes = xlaByteSizeOf(shape);
    if (!bytes)
      return bytes.takeError();
    rows.push_back({"byte_size", *bytes});
    Expected<int64_t> allocated = getAllocatedBytes(shape);
    if (!allocated)
      return allocated.takeError();
    rows.push_back({"allocated_bytes", *allocated});
    return rows;
  }
  Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map)
    return map.takeError();
  const Layout &layout = shape.getLayout();
  int64_t bits = layout.getElementSizeInBits()
                     ? layout.getElementSizeInBits()
                     : 8 * primitiveTypeByteWidth(shape.getElementType());
  rows.push_back({"rank", shape.getRank()});
  rows.push_back({"true_rank", shape.getTrueRank()});
  rows.push_back({"element_bits", bits});
  rows.push_back({"elements", map->getElementCount()});
  rows.push_back({"physical_elements", map->getPhysicalElementCount()});
  rows.push_back({"allocated_elements", map->getAllocatedElements()});
  Expected<int64_t> byteSize = xlaByteSizeOf(shape);
  if (!byteSize)
    return byteSize.takeError();
  rows.push_back({"byte_size", *byteSize});
  rows.push_back({"allocated_bytes", map->getAllocatedBytes()});
  // XLA's ArraySize does not support a `*` in the first tile: `none`.
  Expected<int64_t> arraySize = xlaArraySize(shape);
  if (arraySize) {
    rows.push_back({"xla_array_size", *arraySize});
  } else {
    llvm::consumeError(arraySize.takeError());
    rows.push_back({"xla_array_size", std::nullopt});
  }
  return rows;
}

void layout_explain::printSizes(const SizeRows &rows, llvm::raw_ostream &os,
                                StringRef indent) {
  for (const auto &[key, value] : rows) {
    os << indent << key << ": ";
    if (value)
      os << *value;
    else
      os << "none";
    os << "\n";
  }
}

json::Object layout_explain::sizesToJson(const SizeRows &rows) {
  json::Object object;
  for (const auto &[key, value] : rows)
    object[key] = value ? json::Value(*value) : json::Value(nullptr);
  return object;
}

Error layout_explain::runCanonical(const Args &args, Output &out) {
  std::string text = printShape(args.shapes[0]);
  out.text = text + "\n";
  out.object["canonical"] = text;
  return Error::success();
}

Error layout_explain::runValidate(const Args &args, Output &out) {
  // parseShape validates; validate again in case a future parser does not.
  if (Error err = validateShape(args.shapes[0]))
    return err;
  out.text = "valid\n";
  out.object["valid"] = true;
  out.object["canonical"] = printShape(args.shapes[0]);
  return Error::success();
}

Error layout_explain::runIndex(const Args &args, Output &out) {
  const IntList &index = args.lists[0];
  Expected<int64_t> linear = args.map->checkedLinearIndex(index);
  if (!linear)
    return linear.takeError();
  out.text = std::to_string(*linear) + "\n";
  out.object["index"] = *linear;
  out.object["physical_index"] = toJson(args.map->physicalIndex(index));
  out.object["physical_dims"] = toJson(args.map->getPhysicalDims());
  return Error::success();
}

Error layout_explain::runXlaIndex(const Args &args, Output &out) {
  Expected<int64_t> linear = xlaLinearIndex(args.shapes[0], args.lists[0]);
  if (!linear)
    return linear.takeError();
  out.text = std::to_string(*linear) + "\n";
  out.object["xla_index"] = *linear;
  return Error::success();
}

Error layout_explain::runMultiIndex(const Args &args, Output &out) {
  int64_t linear = *args.integer;
  const TiledLayoutMap &map = *args.map;
  if (linear < 0 || linear >= map.getAllocatedElements())
    return makeErr("linear index " + llvm::Twine(linear) +
                   " is out of range [0, " +
                   llvm::Twine(map.getAllocatedElements()) + ") of " +
                   printShape(args.shapes[0]));
  std::optional<IntList> index = map.logicalIndex(linear);
  out.object["linear"] = linear;
  if (!index) {
    out.text = "padding\n";
    out.object["padding"] = true;
    out.object["index"] = nullptr;
    return Error::success();
  }
  out.text = joinInts(*index) + "\n";
  out.object["padding"] = false;
  out.object["index"] = toJson(*index);
  return Error::success();
}

Error layout_explain::runPhysicalShape(const Args &args, Output &out) {
  const TiledLayoutMap &map = *args.map;
  out.text = joinInts(map.getPhysicalDims()) + "\n" +
             std::to_string(map.getAllocatedElements()) + "\n";
  out.object["physical_dims"] = toJson(map.getPhysicalDims());
  out.object["allocated_elements"] = map.getAllocatedElements();
  return Error::success();
}

Error layout_explain::runSizes(const Args &args, Output &out) {
  Expected<SizeRows> rows = computeSizes(args.shapes[0]);
  if (!rows)
    return rows.takeError();
  llvm::raw_string_ostream os(out.text);
  printSizes(*rows, os);
  out.object = sizesToJson(*rows);
  return Error::success();
}

Error layout_explain::runMemory(const Args &args, Output &out) {
  const TiledLayoutMap &map = *args.map;
  int64_t slots = map.getAllocatedElements();
  if (slots > kMaxMemorySlots)
    return makeErr(printShape(args.shapes[0]) + " has " + llvm::Twine(slots) +
                   " slots; memory prints at most " +
                   llvm::Twine(kMaxMemorySlots));
  llvm::raw_string_ostream os(out.text);
  json::Array array;
  for (int64_t slot = 0; slot < slots; ++slot) {
    std::optional<IntList> index = map.logicalIndex(slot);
    if (args.options.json)
      array.push_back(index ? json::Value(toJson(*index))
                            : json::Value(nullptr));
    else
      os << slotText(index) << "\n";
  }
  out.object["slots"] = std::move(array);
  return Error::success();
}

Error layout_explain::runBroadcast(const Args &args, Output &out) {
  StringRef op = args.options.op ? *args.options.op : StringRef("add");
  if (op.empty())
    return makeErr("--op needs a non-empty op name");
  Expected<Shape> result = inferBinaryOpShape(
      op, args.shapes[0], args.shapes[1], args.dims.value_or(IntList()));
  if (!result)
    return result.takeError();
  setShapeAnswer(*result, out);
  out.object["dims"] = toJson(result->getDims());
  return Error::success();
}

Error layout_explain::runBroadcastInDim(const Args &args, Output &out) {
  const Shape &operand = args.shapes[0], &result = args.shapes[1];
  if (Error err = verifyBroadcastInDim(
          primitiveTypeName(operand.getElementType()), operand.getDims(),
          primitiveTypeName(result.getElementType()), result.getDims(),
          args.dims.value_or(IntList())))
    return err;
  out.text = "valid\n";
  out.object["valid"] = true;
  return Error::success();
}

namespace {
void setBitcastAnswer(bool value, Output &out) {
  out.text = value ? "true\n" : "false\n";
  out.object["bitcast"] = value;
}
} // namespace

Error layout_explain::runReshapeIsBitcast(const Args &args, Output &out) {
  Expected<bool> result = reshapeIsBitcast(args.shapes[0], args.shapes[1],
                                           args.options.ignoreElementType);
  if (!result)
    return result.takeError();
  setBitcastAnswer(*result, out);
  return Error::success();
}

Error layout_explain::runTransposeIsBitcast(const Args &args, Output &out) {
  const Shape &in = args.shapes[0], &outShape = args.shapes[1];
  const IntList &perm = *args.perm;
  // The library's precondition: a permutation matching both ranks.
  if (static_cast<int64_t>(perm.size()) != in.getRank() ||
      static_cast<int64_t>(perm.size()) != outShape.getRank())
    return makeErr("--perm has " + llvm::Twine(perm.size()) +
                   " entries, but the shapes have ranks " +
                   llvm::Twine(in.getRank()) + " and " +
                   llvm::Twine(outShape.getRank()));
  if (!isPermutation(perm))
    return makeErr("--perm " + joinInts(perm) + " is not a permutation of 0.." +
                   llvm::Twine(static_cast<int64_t>(perm.size()) - 1));
  Expected<bool> result =
      transposeIsBitcast(in, outShape, perm, args.options.ignoreElementType);
  if (!result)
    return result.takeError();
  setBitcastAnswer(*result, out);
  return Error::success();
}

Error layout_explain::runPermute(const Args &args, Output &out) {
  const Shape &shape = args.shapes[0];
  const IntList &perm = *args.perm;
  if (static_cast<int64_t>(perm.size()) != shape.getRank() ||
      !isPermutation(perm))
    return makeErr(
        "--perm " + joinInts(perm) + " is not a permutation of the " +
        llvm::Twine(shape.getRank()) + " dimensions of " + printShape(shape));
  Expected<Shape> result = permuteDimensions(perm, shape);
  if (!result)
    return result.takeError();
  setShapeAnswer(*result, out);
  return Error::success();
}

Error layout_explain::runAlignLayouts(const Args &args, Output &out) {
  const Shape &in = args.shapes[0];
  const IntList &dims = args.lists[0];
  for (int64_t d : dims)
    if (d < 0)
      return makeErr("output dims " + joinInts(dims) +
                     ": dimension sizes must be >= 0");
  Shape output = Shape::makeArray(in.getElementType(), dims);
  if (Error err = validateShape(output))
    return makeErr("output shape " + printShape(output) + ": " +
                   llvm::toString(std::move(err)));
  Expected<std::optional<Shape>> result = alignLayouts(in, output);
  if (!result)
    return result.takeError();
  if (!*result) {
    out.text = "none\n";
    out.object["shape"] = nullptr;
    return Error::success();
  }
  setShapeAnswer(**result, out);
  return Error::success();
}

Error layout_explain::runDeleteDims(const Args &args, Output &out) {
  Expected<Shape> result = deleteDimensions(*args.dims, args.shapes[0]);
  if (!result)
    return result.takeError();
  setShapeAnswer(*result, out);
  return Error::success();
}

Error layout_explain::runPlan(const Args &args, Output &out) {
  Expected<RelayoutPlan> plan = planRelayout(args.shapes[0], args.shapes[1]);
  if (!plan)
    return plan.takeError();
  StringRef cls = relayoutClassName(plan->cls);
  out.text = "class: " + cls.str() +
             "\nrun_elements: " + std::to_string(plan->runElements) +
             "\nvector_elements: " + std::to_string(plan->vectorElements) +
             "\nbytes_moved: " + std::to_string(plan->bytesMoved) + "\n";
  out.object["class"] = cls;
  out.object["run_elements"] = plan->runElements;
  out.object["vector_elements"] = plan->vectorElements;
  out.object["bytes_moved"] = plan->bytesMoved;
  out.object["explanation"] = plan->explanation;
  if (Error err = addRelayoutKernel(args, out))
    return err;
  out.text += plan->explanation + "\n";
  return Error::success();
}

Error layout_explain::runCanonicalLayout(const Args &args, Output &out) {
  Expected<CanonicalLayout> canonical = canonicalizeLayout(args.shapes[0]);
  if (!canonical)
    return canonical.takeError();
  setShapeAnswer(canonical->shape, out);
  out.text +=
      std::string("strided: ") + (canonical->strided ? "true" : "false") + "\n";
  out.object["strided"] = canonical->strided;
  out.object["changed"] =
      printShape(canonical->shape) != printShape(args.shapes[0]);
  return Error::success();
}

Error layout_explain::runSameByteOrder(const Args &args, Output &out) {
  Expected<bool> same = sameByteOrder(args.shapes[0], args.shapes[1]);
  if (!same)
    return same.takeError();
  out.text = *same ? "true\n" : "false\n";
  out.object["same"] = *same;
  return Error::success();
}
