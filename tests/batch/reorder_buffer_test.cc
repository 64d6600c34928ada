#include "batch/reorder_buffer.h"

#include <gtest/gtest.h>

namespace structure::batch {
namespace {

OutputLine Line(std::string text) { return {std::move(text), {}}; }

TEST(ReorderBuffer, ReleasesOnlyAContiguousPrefix) {
  ReorderBuffer buf(8);
  OutputLines out;
  buf.Put(2, Line("c\n"));
  buf.Put(1, Line("b\n"));
  EXPECT_EQ(buf.TakeReady(&out), 0u);
  EXPECT_EQ(out.text(), "");
  buf.Put(0, Line("a\n"));
  EXPECT_EQ(buf.TakeReady(&out), 3u);
  EXPECT_EQ(out.text(), "a\nb\nc\n");
  EXPECT_EQ(buf.next(), 3u);
  buf.Put(4, Line("e\n"));
  EXPECT_EQ(buf.TakeReady(&out), 0u);
  EXPECT_EQ(buf.buffered(), 1u);
}

TEST(ReorderBuffer, WindowBoundsWhatMayStart) {
  ReorderBuffer buf(3);
  EXPECT_TRUE(buf.CanAdmit(0));
  EXPECT_TRUE(buf.CanAdmit(2));
  EXPECT_FALSE(buf.CanAdmit(3));
  OutputLines out;
  buf.Put(0, Line("a\n"));
  buf.TakeReady(&out);
  EXPECT_TRUE(buf.CanAdmit(3));
  EXPECT_FALSE(buf.CanAdmit(4));
}

TEST(ReorderBuffer, ReversedCompletionOrderComesOutInOrder) {
  ReorderBuffer buf(100);
  OutputLines out;
  for (int i = 99; i >= 0; --i) {
    buf.Put(static_cast<uint64_t>(i), Line(std::to_string(i) + "\n"));
    buf.TakeReady(&out);
  }
  std::string want;
  for (int i = 0; i < 100; ++i) want += std::to_string(i) + "\n";
  EXPECT_EQ(out.text(), want);
  EXPECT_EQ(buf.buffered(), 0u);
}

TEST(ReorderBuffer, IgnoresAnIndexAlreadyWritten) {
  ReorderBuffer buf(4);
  OutputLines out;
  buf.Put(0, Line("a\n"));
  buf.TakeReady(&out);
  buf.Put(0, Line("again\n"));
  EXPECT_EQ(buf.TakeReady(&out), 0u);
  EXPECT_EQ(out.text(), "a\n");
}

}  // namespace
}  // namespace structure::batch
