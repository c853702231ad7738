//===- ShapeTextFuzzer.cpp - parse/print round trip of shape text ---------===//
//
// Input: any bytes, read as HLO shape text.
// Properties, for every input that parses (parseShape validates):
//   1. parse(print(s)) succeeds and == s        (round trip, Shape::operator==)
//   2. print(parse(print(s))) == print(s)       (print is canonical)
//   3. validateShape(s) succeeds                (the parser validates)
// and the same for parseLayout/printLayout (round trip and canonical text).
// Nothing may crash, leak or hit UB (ASan + UBSan).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "layout/Xla/Shape.h"

using namespace mlir::layout;
using namespace layout_fuzz;

static void checkShape(llvm::StringRef text) {
  std::optional<Shape> shape = ok(parseShape(text));
  if (!shape)
    return;
  check(!failed(validateShape(*shape)), "parsed shape does not validate");
  std::string printed = printShape(*shape);
  llvm::Expected<Shape> reparsed = parseShape(printed);
  if (!reparsed)
    fail("printed shape '" + printed +
         "' does not parse: " + llvm::toString(reparsed.takeError()));
  check(*reparsed == *shape,
        "parse(print(s)) != s for '" + text + "' printed as '" + printed + "'");
  std::string reprinted = printShape(*reparsed);
  check(reprinted == printed,
        "print is not canonical: '" + printed + "' -> '" + reprinted + "'");
}

static void checkLayout(llvm::StringRef text) {
  std::optional<Layout> layout = ok(parseLayout(text));
  if (!layout)
    return;
  std::string printed = printLayout(*layout);
  llvm::Expected<Layout> reparsed = parseLayout(printed);
  if (!reparsed)
    fail("printed layout '" + printed +
         "' does not parse: " + llvm::toString(reparsed.takeError()));
  check(*reparsed == *layout, "parseLayout(printLayout(l)) != l for '" + text +
                                  "' printed as '" + printed + "'");
  check(printLayout(*reparsed) == printed,
        "printLayout is not canonical: '" + printed + "'");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  checkShape(text);
  checkLayout(text);
  return 0;
}
