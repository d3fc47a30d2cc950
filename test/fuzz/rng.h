// Rng: the fuzzer's random source, SplitMix64 seeding xoshiro256**.
// Invariant: the sequence depends only on the seed (no std distributions,
// whose output differs between standard libraries), so a seed names the
// same program on every machine and in every version of this file's users.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace simplec::fuzz {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& w : s_) w = splitMix(x);
  }

  uint64_t next() {
    uint64_t result = rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n); n == 0 gives 0. The modulo bias is irrelevant here.
  uint64_t below(uint64_t n) { return n == 0 ? 0 : next() % n; }
  // Uniform in [lo, hi] (lo <= hi).
  int64_t range(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + (span == 0 ? next() : below(span)));
  }
  bool chance(int percent) { return below(100) < static_cast<uint64_t>(percent); }

  // Index picked with the given relative weights (all zero: index 0).
  size_t weighted(const std::vector<int>& weights) {
    long total = 0;
    for (int w : weights) total += w > 0 ? w : 0;
    if (total == 0) return 0;
    long r = static_cast<long>(below(static_cast<uint64_t>(total)));
    for (size_t i = 0; i < weights.size(); i++) {
      if (weights[i] <= 0) continue;
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    return weights.size() - 1;
  }

  template <class T>
  const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
  template <class T>
  T pick(std::initializer_list<T> v) { return *(v.begin() + below(v.size())); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitMix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace simplec::fuzz
