// Test helper: a FILE* backed by memory (open_memstream), so a test can give
// it to a DiagEngine and compare the exact diagnostic text it printed.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

namespace simplec::test {

class DiagCapture {
 public:
  DiagCapture() : file_(open_memstream(&buf_, &len_)) {}
  ~DiagCapture() {
    std::fclose(file_);
    std::free(buf_);
  }
  DiagCapture(const DiagCapture&) = delete;
  DiagCapture& operator=(const DiagCapture&) = delete;

  FILE* file() const { return file_; }
  // Everything written so far.
  std::string text() {
    std::fflush(file_);
    return std::string(buf_, len_);
  }

 private:
  char* buf_ = nullptr;
  size_t len_ = 0;
  FILE* file_;
};

}  // namespace simplec::test
