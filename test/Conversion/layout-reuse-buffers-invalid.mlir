// RUN: layout-opt %s --layout-reuse-buffers -split-input-file -verify-diagnostics
// The arena cache declares aligned_alloc and free as upstream's memref
// lowering does; a symbol of either name that is not an llvm.func is an
// error, reported before anything changes.

func.func private @free(i32)
// expected-error @+1 {{--layout-reuse-buffers: the arena cache calls free, but the module's symbol of that name is not an llvm.func (cache=false avoids the call)}}
func.func @f(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// An llvm.func of that name with another type: upstream's declaration
// helper reports it.
// expected-error @+1 {{redefinition of reserved function 'aligned_alloc' of different type '!llvm.func<i32 (i32)>' is prohibited}}
llvm.func @aligned_alloc(i32) -> i32
func.func @g(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
