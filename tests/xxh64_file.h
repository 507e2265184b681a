// XXH64 (seed 0) of a whole file, as `xxhsum -H1` prints it: 16 lower-case hex digits of the
// canonical (big-endian) form. Used by the checksum list tests/data/tables4.xxh64.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace deadpos::test {

// nullopt if the file cannot be read.
inline std::optional<std::uint64_t> xxh64_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return static_cast<std::uint64_t>(XXH64(bytes.data(), bytes.size(), 0));
}

inline std::string hex16(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace deadpos::test
