#include "support/tables_dir.h"

#include <cstdlib>
#include <stdexcept>

namespace deadpos::test {

std::optional<std::string> tables_dir_if_set() {
  const char* d = std::getenv("DEADPOS_TABLES");
  if (d == nullptr || *d == '\0') return std::nullopt;
  return std::string(d);
}

std::string tables_dir() {
  std::optional<std::string> d = tables_dir_if_set();
  if (!d) {
    throw std::runtime_error(
        "DEADPOS_TABLES is not set: run through ctest (fixture tables4) or set it to a directory made by "
        "'deadpos generate --max-men 4'");
  }
  return *d;
}

}  // namespace deadpos::test
