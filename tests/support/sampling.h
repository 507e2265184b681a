// The one rule for how much a test samples in a slow build (tests and benches use only this).
#pragma once

namespace deadpos::test {

// Builds with assertions (Debug) or AddressSanitizer run the library's self-checks and are 10-300
// times slower: the random and exhaustive tests sample less there, each saying what it leaves out.
inline constexpr bool kSlowBuild =
#if !defined(NDEBUG) || defined(__SANITIZE_ADDRESS__)
    true;
#else
    false;
#endif

constexpr bool slow_build() { return kSlowBuild; }

// Sample size of a random test: `full` in an optimised build, full / slow_divisor (at least 1) in
// a slow build.
constexpr int sample_size(int full, int slow_divisor) {
  if (!kSlowBuild) return full;
  const int n = full / slow_divisor;
  return n > 0 ? n : 1;
}

}  // namespace deadpos::test
