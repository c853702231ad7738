//===- ReuseBuffers.cpp - --layout-reuse-buffers --------------------------===//
//
// A function's non-escaping local buffers packed into one arena by their
// lifetimes, and the arena kept between calls in a one-slot cache
// (Passes.td has the contract; docs/fusion.md, "Buffers", the measurements).
//
// Upstream has no equivalent: --buffer-hoisting moves allocations within a
// function and --promote-buffers-to-stack only takes small ones; nothing
// keeps a buffer between calls, where every call of a function with a
// 64 MiB intermediate otherwise maps fresh pages and faults each one in.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/Support/MathExtras.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTREUSEBUFFERS
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

/// The largest arena: 2^62 bytes.
static constexpr int64_t kMaxArenaBytes = int64_t(1) << 62;

namespace {
/// One buffer of the arena: its alloc and dealloc, its lifetime (positions
/// in the entry block of the alloc and of its last use) and its bytes;
/// `offset` once placed.
struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t begin = 0, end = 0;
  int64_t bytes = 0;
  int64_t offset = 0;
};
} // namespace

/// Bytes of a scalar (integer, float, index) as a memref element, at least
/// LLVM's alloc size on any target: the store size rounded up to a power of
/// two (i24: 4, i96: 16, f80: 16, i1: 1). MLIR's default DataLayout is not
/// used: it gives integers wider than 64 bits an alignment of 4 (i96: 12
/// bytes, where x86-64's LLVM allocates 16), and the pipeline sets no data
/// layout of its own.
static std::optional<int64_t> scalarBytes(Type type) {
  if (isa<IndexType>(type))
    return 8;
  if (!type.isIntOrFloat())
    return std::nullopt;
  uint64_t bytes = llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  if (bytes == 0 || bytes > 64)
    return std::nullopt;
  return static_cast<int64_t>(llvm::PowerOf2Ceil(bytes));
}

namespace {
/// The arena bytes and the alignment a memref element needs: scalars as
/// scalarBytes, complex numbers as two of them, 1-D vectors as their bits
/// rounded up to a power of two (LLVM's vector alloc size and alignment),
/// n-D vectors as arrays of 1-D ones.
struct ElementFootprint {
  int64_t bytes = 0, align = 0;
};
} // namespace

static std::optional<ElementFootprint> getElementFootprint(Type type) {
  if (std::optional<int64_t> bytes = scalarBytes(type))
    return ElementFootprint{*bytes, *bytes};
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> part = scalarBytes(complex.getElementType());
    if (!part)
      return std::nullopt;
    return ElementFootprint{2 * *part, *part};
  }
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || vector.isScalable() ||
      !vector.getElementType().isIntOrFloat() || vector.getNumElements() == 0)
    return std::nullopt;
  int64_t inner = vector.getShape().back();
  int64_t bits = inner * vector.getElementType().getIntOrFloatBitWidth();
  if (bits <= 0 || bits > 8 * 4096)
    return std::nullopt;
  auto row = static_cast<int64_t>(
      llvm::PowerOf2Ceil(llvm::divideCeil(static_cast<uint64_t>(bits), 8)));
  int64_t rows = vector.getNumElements() / inner;
  if (rows > (int64_t(1) << 20))
    return std::nullopt;
  return ElementFootprint{rows * row, row};
}

/// The arena bytes of `alloc` (rounded up to `alignment`), or nullopt if it
/// is not a candidate: a static, identity-layout, default-memory-space,
/// non-empty buffer whose size fits in int64 with room to spare.
static std::optional<int64_t> candidateBytes(memref::AllocOp alloc,
                                             int64_t alignment) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !alloc.getSymbolOperands().empty())
    return std::nullopt;
  if (Attribute space = type.getMemorySpace())
    if (auto integer = dyn_cast<IntegerAttr>(space);
        !integer || integer.getInt() != 0)
      return std::nullopt;
  if (std::optional<uint64_t> a = alloc.getAlignment();
      a && static_cast<int64_t>(*a) > alignment)
    return std::nullopt;
  // Every buffer starts at a multiple of `alignment`: its elements must not
  // need more.
  std::optional<ElementFootprint> element =
      getElementFootprint(type.getElementType());
  if (!element || element->align > alignment)
    return std::nullopt;
  // Below 2^62 bytes, so that rounding cannot overflow (a buffer that large
  // fails at run time anyway).
  constexpr int64_t kLimit = kMaxArenaBytes;
  int64_t bytes = element->bytes;
  for (int64_t dim : type.getShape()) {
    if (dim == 0)
      return std::nullopt;
    if (bytes > kLimit / dim)
      return std::nullopt;
    bytes *= dim;
  }
  return llvm::alignTo(bytes, alignment);
}

/// The position in `block` of the last op that uses `alloc`'s buffer: the
/// ancestor in `block` of every user of the buffer or of a value derived
/// from it (every result of a user, and of that user's ancestor in the
/// block: views, casts, loaded values, pointers, memrefs yielded by loops),
/// the dealloc excepted; nullopt if one of them is returned. Conservative: a
/// value that merely depends on the buffer's contents extends its lifetime
/// too.
static std::optional<int64_t>
lastUse(memref::AllocOp alloc, Block &block,
        const DenseMap<Operation *, int64_t> &position) {
  int64_t last = position.lookup(alloc);
  SmallVector<Value> worklist{alloc.getResult()};
  DenseSet<Value> seen{alloc.getResult()};
  auto push = [&](ValueRange values) {
    for (Value v : values)
      if (seen.insert(v).second)
        worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp>(user))
        continue;
      if (isa<func::ReturnOp>(user))
        return std::nullopt;
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor)
        continue;
      last = std::max(last, position.lookup(ancestor));
      push(user->getResults());
      push(ancestor->getResults());
    }
  }
  return last;
}

/// The candidates of `block` (in block order) with their lifetimes, from
/// the alloc to its last use: each memref.alloc of the block that
/// candidateBytes accepts, is not returned (nor a value derived from it),
/// and has exactly one
/// memref.dealloc, in the same block and after every use (the deallocation
/// pipeline frees a buffer that does not escape unconditionally, at the end
/// of its block).
static SmallVector<Buffer> collectBuffers(Block &block, int64_t alignment) {
  DenseMap<Operation *, int64_t> position;
  int64_t index = 0;
  for (Operation &op : block)
    position[&op] = index++;
  SmallVector<Buffer> buffers;
  // The arena is at most the sum of its buffers: kept below 2^62 bytes, so
  // that no offset overflows (buffers beyond that stay allocations).
  int64_t sum = 0;
  for (Operation &op : block) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc)
      continue;
    std::optional<int64_t> bytes = candidateBytes(alloc, alignment);
    if (!bytes || *bytes > kMaxArenaBytes - sum)
      continue;
    memref::DeallocOp dealloc;
    bool ok = true;
    for (Operation *user : alloc->getUsers()) {
      auto d = dyn_cast<memref::DeallocOp>(user);
      if (!d)
        continue;
      if (dealloc || d->getBlock() != &block)
        ok = false;
      dealloc = d;
    }
    if (!ok || !dealloc)
      continue;
    Buffer buffer;
    buffer.alloc = alloc;
    buffer.dealloc = dealloc;
    buffer.begin = position.lookup(alloc);
    std::optional<int64_t> end = lastUse(alloc, block, position);
    if (!end || *end >= position.lookup(dealloc))
      continue;
    buffer.end = *end;
    buffer.bytes = *bytes;
    sum += *bytes;
    buffers.push_back(buffer);
  }
  return buffers;
}

/// Places every buffer at the lowest offset (a multiple of the alignment,
/// as every size is) that no buffer with an overlapping lifetime already
/// holds, the largest first (ties: the earliest first). Returns the arena's
/// size.
static int64_t packBuffers(MutableArrayRef<Buffer> buffers) {
  SmallVector<Buffer *> order;
  for (Buffer &b : buffers)
    order.push_back(&b);
  llvm::sort(order, [](const Buffer *a, const Buffer *b) {
    return a->bytes != b->bytes ? a->bytes > b->bytes : a->begin < b->begin;
  });
  SmallVector<Buffer *> placed;
  int64_t total = 0;
  for (Buffer *b : order) {
    SmallVector<Buffer *> live;
    for (Buffer *p : placed)
      if (p->begin <= b->end && b->begin <= p->end)
        live.push_back(p);
    llvm::sort(live, [](const Buffer *x, const Buffer *y) {
      return x->offset < y->offset;
    });
    int64_t offset = 0;
    for (Buffer *p : live) {
      if (p->offset - offset >= b->bytes)
        break;
      offset = std::max(offset, p->offset + p->bytes);
    }
    b->offset = offset;
    total = std::max(total, offset + b->bytes);
    placed.push_back(b);
  }
  return total;
}

/// The slot of `func`'s cached arena: an internal, zero-initialized
/// `!llvm.ptr` global named after the function (uniqued in the module).
static LLVM::GlobalOp createSlot(ModuleOp module, func::FuncOp func,
                                 SymbolTable &symbols) {
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  Location loc = func.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  auto slot = LLVM::GlobalOp::create(
      builder, loc, ptrType, /*isConstant=*/false, LLVM::Linkage::Internal,
      ("__layout_arena_" + func.getSymName()).str(), Attribute());
  Block *init = builder.createBlock(&slot.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  Value zero = LLVM::ZeroOp::create(builder, loc, ptrType);
  LLVM::ReturnOp::create(builder, loc, zero);
  symbols.insert(slot);
  return slot;
}

/// Rewrites `buffers` of `func` (placed, `total` bytes) as views of one
/// arena. Fails (reported) only if the runtime functions cannot be
/// declared (a symbol of that name with another type).
static LogicalResult rewriteFunction(func::FuncOp func,
                                     MutableArrayRef<Buffer> buffers,
                                     int64_t total, int64_t alignment,
                                     bool cache, SymbolTable &symbols) {
  MLIRContext *ctx = func.getContext();
  auto module = func->getParentOfType<ModuleOp>();
  Buffer *first = &buffers.front(), *last = &buffers.front();
  for (Buffer &b : buffers) {
    if (b.begin < first->begin)
      first = &b;
    if (last->dealloc->isBeforeInBlock(b.dealloc))
      last = &b;
  }
  Location loc = first->alloc.getLoc();
  auto arenaType = MemRefType::get({total}, IntegerType::get(ctx, 8));
  OpBuilder builder(first->alloc);
  Value arena, pointer;
  LLVM::GlobalOp slot;
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  FailureOr<LLVM::LLVMFuncOp> alignedAlloc, freeFn;
  if (cache) {
    // The runtime's functions, declared as upstream's memref lowering
    // declares them; a symbol of the same name that is something else is
    // an error (before any change).
    for (StringRef name : {"aligned_alloc", "free"})
      if (Operation *symbol = symbols.lookup(name);
          symbol && !isa<LLVM::LLVMFuncOp>(symbol))
        return func.emitError("--layout-reuse-buffers: the arena cache calls ")
               << name << ", but the module's symbol of that name is not an "
               << "llvm.func (cache=false avoids the call)";
    alignedAlloc = LLVM::lookupOrCreateAlignedAllocFn(builder, module, i64);
    freeFn = LLVM::lookupOrCreateFreeFn(builder, module);
    if (failed(alignedAlloc) || failed(freeFn))
      return failure();
  }
  if (!cache) {
    arena = memref::AllocOp::create(builder, loc, arenaType,
                                    builder.getI64IntegerAttr(alignment));
  } else {
    // take: the cached arena or a fresh one.
    builder.setInsertionPoint(first->alloc);
    slot = createSlot(module, func, symbols);
    Value slotAddress = LLVM::AddressOfOp::create(builder, loc, slot);
    Value null = LLVM::ZeroOp::create(builder, loc, ptrType);
    Value cached = LLVM::AtomicRMWOp::create(
        builder, loc, LLVM::AtomicBinOp::xchg, slotAddress, null,
        LLVM::AtomicOrdering::acq_rel);
    Value empty = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                       cached, null);
    auto ifOp = scf::IfOp::create(builder, loc, TypeRange{ptrType}, empty,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(ifOp.thenBlock());
      Value align = LLVM::ConstantOp::create(builder, loc, i64, alignment);
      Value size = LLVM::ConstantOp::create(builder, loc, i64, total);
      Value fresh = LLVM::CallOp::create(builder, loc, *alignedAlloc,
                                         ValueRange{align, size})
                        .getResult();
      scf::YieldOp::create(builder, loc, fresh);
      builder.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(builder, loc, cached);
    }
    pointer = ifOp.getResult(0);
    // The memref of that pointer: its descriptor, cast back to the memref
    // type (convert-to-llvm and reconcile-unrealized-casts fold the pair).
    LowerToLLVMOptions options(ctx, DataLayout::closest(func));
    LLVMTypeConverter converter(ctx, options);
    Value descriptor = MemRefDescriptor::fromStaticShape(
        builder, loc, converter, arenaType, pointer);
    arena =
        UnrealizedConversionCastOp::create(builder, loc, arenaType, descriptor)
            .getResult(0);
  }
  for (Buffer &b : buffers) {
    builder.setInsertionPoint(b.alloc);
    Value offset =
        arith::ConstantIndexOp::create(builder, b.alloc.getLoc(), b.offset);
    Value view =
        memref::ViewOp::create(builder, b.alloc.getLoc(), b.alloc.getType(),
                               arena, offset, ValueRange{});
    b.alloc.getResult().replaceAllUsesWith(view);
  }
  // release, where the last buffer was freed.
  builder.setInsertionPoint(last->dealloc);
  Location end = last->dealloc.getLoc();
  if (!cache) {
    memref::DeallocOp::create(builder, end, arena);
  } else {
    builder.setInsertionPoint(last->dealloc);
    Value slotAddress = LLVM::AddressOfOp::create(builder, end, slot);
    Value displaced = LLVM::AtomicRMWOp::create(
        builder, end, LLVM::AtomicBinOp::xchg, slotAddress, pointer,
        LLVM::AtomicOrdering::acq_rel);
    Value null = LLVM::ZeroOp::create(builder, end, ptrType);
    Value taken = LLVM::ICmpOp::create(builder, end, LLVM::ICmpPredicate::ne,
                                       displaced, null);
    auto ifOp = scf::IfOp::create(builder, end, TypeRange{}, taken,
                                  /*withElseRegion=*/false);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    LLVM::CallOp::create(builder, end, *freeFn, ValueRange{displaced});
  }
  for (Buffer &b : buffers) {
    b.dealloc.erase();
    b.alloc.erase();
  }
  return success();
}

namespace {
struct ReuseBuffersPass
    : layout::impl::LayoutReuseBuffersBase<ReuseBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (alignment < 1 || alignment > 4096 || !llvm::isPowerOf2_64(alignment)) {
      emitError(getOperation().getLoc())
          << "--layout-reuse-buffers: alignment must be a power of two from "
             "1 to 4096, got "
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || !func.getBody().hasOneBlock())
        continue;
      Block &block = func.getBody().front();
      SmallVector<Buffer> buffers = collectBuffers(block, alignment);
      if (buffers.empty())
        continue;
      int64_t total = packBuffers(buffers);
      if (failed(
              rewriteFunction(func, buffers, total, alignment, cache, symbols)))
        return signalPassFailure();
    }
  }
};
} // namespace
