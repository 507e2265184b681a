// deadpos_xxh64 FILE.dpt...: prints "<KEY> <xxh64>" per file, KEY being the file name without
// its directory and ".dpt" (the format of tests/data/tables4.xxh64). Exit status 1 if a file
// cannot be read.
#include <cstdio>
#include <string>

#include "xxh64_file.h"

int main(int argc, char** argv) {
  int status = 0;
  for (int a = 1; a < argc; ++a) {
    const std::string path = argv[a];
    const auto h = deadpos::test::xxh64_of_file(path);
    if (!h) {
      std::fprintf(stderr, "deadpos_xxh64: cannot read %s\n", path.c_str());
      status = 1;
      continue;
    }
    std::string key = path.substr(path.find_last_of('/') + 1);
    if (key.size() > 4 && key.compare(key.size() - 4, 4, ".dpt") == 0) key.resize(key.size() - 4);
    std::printf("%s %s\n", key.c_str(), deadpos::test::hex16(*h).c_str());
  }
  return status;
}
