//===- LoopEmitOptionsTest.cpp - The loop lowering's options --------------===//
//
// The three lists of the knobs (LoopEmitOptions.h fields, the TableGen
// options of the conversions, the X-macro options of the pipeline) agree on
// the defaults, the copy moves every knob, and verify() accepts exactly the
// documented bounds.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"
#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Every knob of `actual` equals the one of `expected`.
void expectSameKnobs(const LoopEmitOptions &actual,
                     const LoopEmitOptions &expected) {
  EXPECT_EQ(actual.vectorBytes, expected.vectorBytes);
  EXPECT_EQ(actual.nontemporalThresholdBytes,
            expected.nontemporalThresholdBytes);
  EXPECT_EQ(actual.parallelThresholdBytes, expected.parallelThresholdBytes);
  EXPECT_EQ(actual.maskedEdges, expected.maskedEdges);
  EXPECT_EQ(actual.vectorRegisterBytes, expected.vectorRegisterBytes);
  EXPECT_EQ(actual.memoryStreams, expected.memoryStreams);
  EXPECT_EQ(actual.transposeGroupBytes, expected.transposeGroupBytes);
  EXPECT_EQ(actual.prefetchedGroupBytes, expected.prefetchedGroupBytes);
  EXPECT_EQ(actual.parallelThreads, expected.parallelThreads);
  EXPECT_EQ(actual.groupElements, expected.groupElements);
  EXPECT_EQ(actual.reportKernels, expected.reportKernels);
}

/// The documented defaults (docs/lowering.md), written out.
LoopEmitOptions documentedDefaults() {
  LoopEmitOptions options;
  options.vectorBytes = 64;
  options.nontemporalThresholdBytes = 4194304;
  options.parallelThresholdBytes = 1048576;
  options.maskedEdges = true;
  options.vectorRegisterBytes = 0;
  options.memoryStreams = 2;
  options.transposeGroupBytes = 256;
  options.prefetchedGroupBytes = 1024;
  options.parallelThreads = 0;
  options.groupElements = true;
  options.reportKernels = false;
  return options;
}

std::vector<std::string> verifyMessages(const LoopEmitOptions &options) {
  std::vector<std::string> messages;
  LogicalResult result = options.verify(
      [&](const Twine &message) { messages.push_back(message.str()); });
  EXPECT_EQ(succeeded(result), messages.empty());
  return messages;
}

TEST(LoopEmitOptionsTest, EveryListHasTheSameDefaults) {
  expectSameKnobs(LoopEmitOptions(), documentedDefaults());
  expectSameKnobs(getLoopEmitOptions(ConvertLayoutToAffineOptions()),
                  documentedDefaults());
  expectSameKnobs(getLoopEmitOptions(ConvertLayoutToSCFOptions()),
                  documentedDefaults());
  expectSameKnobs(getLoopEmitOptions(LayoutLowerToLLVMOptions()),
                  documentedDefaults());
}

TEST(LoopEmitOptionsTest, ScalarLoops) {
  LoopEmitOptions scalar = LoopEmitOptions::scalarLoops();
  EXPECT_EQ(scalar.vectorBytes, 0);
  EXPECT_EQ(scalar.nontemporalThresholdBytes, -1);
  EXPECT_EQ(scalar.parallelThresholdBytes, -1);
  EXPECT_EQ(scalar.memoryStreams, 1);
  EXPECT_TRUE(verifyMessages(scalar).empty());
}

TEST(LoopEmitOptionsTest, CopyMovesEveryKnob) {
  // Every knob away from its default: the scalar loops' four, and seven
  // more.
  LoopEmitOptions options = LoopEmitOptions::scalarLoops();
  options.maskedEdges = false;
  options.parallelThreads = 48;
  options.vectorRegisterBytes = 512;
  options.transposeGroupBytes = 1024;
  options.prefetchedGroupBytes = 0;
  options.groupElements = false;
  options.reportKernels = true;
  ConvertLayoutToAffineOptions passOptions;
  copyLoopEmitOptions(passOptions, options);
  EXPECT_EQ(passOptions.vectorBytes, 0);
  EXPECT_EQ(passOptions.memoryStreams, 1);
  expectSameKnobs(getLoopEmitOptions(passOptions), options);
}

TEST(LoopEmitOptionsTest, VerifyAcceptsTheBounds) {
  for (int64_t vectorBytes :
       std::vector<int64_t>{0, 4, 8, 16, 32, 64, 128, 256}) {
    LoopEmitOptions options;
    options.vectorBytes = vectorBytes;
    EXPECT_TRUE(verifyMessages(options).empty()) << vectorBytes;
  }
  LoopEmitOptions options;
  options.nontemporalThresholdBytes = -1;
  options.parallelThresholdBytes = -1;
  options.vectorRegisterBytes = 8192;
  options.memoryStreams = 1;
  EXPECT_TRUE(verifyMessages(options).empty());
  for (int64_t groupBytes : std::vector<int64_t>{64, 128, 1024, 4096}) {
    LoopEmitOptions options;
    options.transposeGroupBytes = groupBytes;
    EXPECT_TRUE(verifyMessages(options).empty()) << groupBytes;
  }
  for (int64_t groupBytes : std::vector<int64_t>{0, 64, 1024, 4096}) {
    LoopEmitOptions options;
    options.prefetchedGroupBytes = groupBytes;
    EXPECT_TRUE(verifyMessages(options).empty()) << groupBytes;
  }
  for (int64_t threads : std::vector<int64_t>{0, 1, 3, 4096}) {
    LoopEmitOptions options;
    options.parallelThreads = threads;
    EXPECT_TRUE(verifyMessages(options).empty()) << threads;
  }
}

TEST(LoopEmitOptionsTest, VerifyRejectsOutOfBounds) {
  for (int64_t vectorBytes :
       std::vector<int64_t>{-64, 1, 2, 3, 48, 512, 4096, int64_t(1) << 62}) {
    LoopEmitOptions options;
    options.vectorBytes = vectorBytes;
    std::vector<std::string> messages = verifyMessages(options);
    ASSERT_EQ(messages.size(), 1u) << vectorBytes;
    EXPECT_EQ(messages[0], "vector-bytes must be 0 (scalar loops) or a power "
                           "of two from 4 to 256, got " +
                               std::to_string(vectorBytes));
  }
  LoopEmitOptions options;
  options.nontemporalThresholdBytes = -2;
  options.parallelThresholdBytes = -3;
  options.vectorRegisterBytes = 8193;
  options.transposeGroupBytes = 768;
  options.memoryStreams = 3;
  std::vector<std::string> messages = verifyMessages(options);
  ASSERT_EQ(messages.size(), 5u);
  EXPECT_EQ(messages[0], "nontemporal-threshold-bytes must be a size in bytes "
                         "or -1 (never), got -2");
  EXPECT_EQ(messages[1], "parallel-threshold-bytes must be a size in bytes or "
                         "-1 (never), got -3");
  EXPECT_EQ(messages[2], "vector-register-bytes must be 0 (unknown) or a size "
                         "in bytes up to 8192, got 8193");
  EXPECT_EQ(messages[3], "transpose-group-bytes must be a power of two from "
                         "64 to 4096, got 768");
  EXPECT_EQ(messages[4], "memory-streams must be 1 or 2, got 3");
  for (int64_t groupBytes : std::vector<int64_t>{0, 32, 8192, -256}) {
    LoopEmitOptions options;
    options.transposeGroupBytes = groupBytes;
    EXPECT_EQ(verifyMessages(options).size(), 1u) << groupBytes;
  }
  for (int64_t groupBytes : std::vector<int64_t>{48, 32, 8192, -1, -1024}) {
    LoopEmitOptions options;
    options.prefetchedGroupBytes = groupBytes;
    std::vector<std::string> messages = verifyMessages(options);
    ASSERT_EQ(messages.size(), 1u) << groupBytes;
    EXPECT_EQ(messages[0], "prefetched-group-bytes must be 0 "
                           "(transpose-group-bytes) or a power of two from 64 "
                           "to 4096, got " +
                               std::to_string(groupBytes));
  }
  for (int64_t threads : std::vector<int64_t>{-1, 4097, int64_t(1) << 40}) {
    LoopEmitOptions options;
    options.parallelThreads = threads;
    std::vector<std::string> messages = verifyMessages(options);
    ASSERT_EQ(messages.size(), 1u) << threads;
    EXPECT_EQ(messages[0],
              "parallel-threads must be 0 (not known) or a number of "
              "threads up to 4096, "
              "got " +
                  std::to_string(threads));
  }
}

} // namespace
