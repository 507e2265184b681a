// Where the tables under test are: the directory in the environment variable DEADPOS_TABLES (ctest
// sets it to the "tables4" fixture's <build>/tables4).
#pragma once

#include <optional>
#include <string>

namespace deadpos::test {

// DEADPOS_TABLES; throws std::runtime_error when it is unset or empty. GoogleTest reports the
// exception as a failure of the running test: a test that needs tables fails without them, never
// skips (a suite that skipped everything when the fixture broke would pass without testing).
std::string tables_dir();

// DEADPOS_TABLES, or nullopt when it is unset or empty: for callers that report the absence
// themselves (a shared Tablebase that fails with a message, the benchmarks' SkipWithError).
std::optional<std::string> tables_dir_if_set();

}  // namespace deadpos::test
