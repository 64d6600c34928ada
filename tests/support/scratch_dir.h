// A fresh folder for each test, removed after it: ScratchDirTest's dir_ ("<tmp>/<prefix>_<pid>_
// <test name>/") and Path(name) inside it.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace structure::testing {

class ScratchDirTest : public ::testing::Test {
 protected:
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_ = ::testing::TempDir() + prefix_ + "_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    ASSERT_EQ(mkdir(dir_.c_str(), 0755), 0);
  }
  void TearDown() override {
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }
  std::string Path(const std::string& name) const { return dir_ + name; }

  std::string dir_;

 private:
  std::string prefix_;
};

}  // namespace structure::testing
