// Writes the synthetic seed table of corpus/fuzz_table/ (scripts/fuzz.sh does not need it; run it
// by hand after a format change): a table of a real material with several blocks per array whose
// entries follow a short pattern, so that it compresses to 2 KiB, unlike the real tables of 4 men
// (240 KiB and more). With the real 3-man tables of the corpus (one block per array) it covers the
// multi-block and short-last-block paths of the reader. (One input of it takes ~0.5 s in the fuzz
// build: libFuzzer's comparison tracing runs on every decompressed byte; a second, pawnful one
// made the table fuzzer twice as slow for no new coverage.)
// Usage: make_table_seeds OUT_DIR
#include <cstdio>
#include <string>

#include "deadpos/table.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_table_seeds OUT_DIR\n");
    return 2;
  }
  for (const char* key : {"KNNvK"}) {  // 8 blocks per array, the last one 57,344 entries
    const auto idx = deadpos::TableIndex::make(deadpos::Material::parse(key).value()).value();
    deadpos::Sides<std::vector<std::uint8_t>> arrays;
    for (std::size_t a = 0; a < arrays.size(); ++a) {
      arrays[a].resize(idx.size());
      for (std::uint64_t i = 0; i < idx.size(); ++i) {
        const std::uint64_t v = (i * (a + 1)) % 13;  // 0..10: DTHM, 11: none, 12: invalid
        arrays[a][i] = static_cast<std::uint8_t>(v < 11    ? v
                                                 : v == 11 ? deadpos::DthmCode::kNone
                                                           : deadpos::DthmCode::kInvalid);
      }
    }
    const std::string path = std::string(argv[1]) + "/synthetic-" + key + ".dpt";
    if (auto s = deadpos::write_table(path, idx, arrays, 19); !s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 1;
    }
  }
  return 0;
}
