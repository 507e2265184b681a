// Access to the generated tables for deadpos_table_tests. The directory comes from the environment
// variable DEADPOS_TABLES (ctest sets it to the fixture's <build>/tables4; test::tables_dir in
// tests/support). A missing variable or table throws, which GoogleTest reports as a failure of the
// running test: these tests never skip.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/stats.h"
#include "deadpos/table_set.h"
#include "deadpos/verify.h"
#include "support/tables_dir.h"

namespace deadpos::test {

inline Material material(const std::string& key) {
  Result<Material> m = Material::parse(key);
  if (!m) throw std::runtime_error("bad material key " + key + ": " + m.error().message);
  return *m;
}

// The table of a canonical material, loaded once per process (all checks of load_table).
inline const LoadedTable& loaded_table(const std::string& key) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<LoadedTable>> cache;
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  const std::string path = tables_dir() + "/" + table_file_name(material(key));
  Result<std::unique_ptr<LoadedTable>> t = load_table(path, material(key));
  if (!t) throw std::runtime_error("table " + key + " missing or unreadable: " + t.error().message);
  return *cache.emplace(key, std::move(*t)).first->second;
}

// Statistics of a table, computed from the table bytes (compute_stats), once per process.
inline const TableStats& table_stats(const std::string& key) {
  static std::mutex mu;
  static std::map<std::string, TableStats> cache;
  const LoadedTable& t = loaded_table(key);
  std::lock_guard lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, compute_stats(t, nullptr)).first;
  return it->second;
}

}  // namespace deadpos::test
