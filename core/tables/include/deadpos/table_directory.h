// A directory of tables: the one owner of the names in it (docs/format.md section 5, and section 6
// for the statistics). For a canonical material KEY:
//   <KEY>.dpt               the table file
//   <KEY>.dpv               its verdict file (verdict_file.h; format.md section 7)
//   <KEY>.json              its statistics
//   <name>.tmp.<pid>        a writer's temporary of <name> (write_file_atomic), pid in decimal
// A "*.dpt name" is any entry whose name is longer than ".dpt" and ends in it; it names a table
// when the part before is a canonical material key (Material::parse, is_canonical).
//
// Thread-safety: a TableDirectory is an immutable value; list() reads the file system.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deadpos/material.h"
#include "deadpos/result.h"

namespace deadpos {

class TableDirectory {
 public:
  explicit TableDirectory(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }

  // "<dir>/<name>" for an entry name (the directory string as given, then '/').
  std::string path_of(std::string_view name) const { return dir_ + "/" + std::string(name); }
  std::string table_path(const Material& m) const { return path_of(table_file_name(m)); }
  std::string stats_path(const Material& m) const { return path_of(stats_file_name(m)); }
  std::string verdict_path(const Material& m) const { return path_of(verdict_file_name(m)); }

  // "<KEY>.dpt", "<KEY>.json" of m's key (m as given: callers pass canonical materials).
  static std::string table_file_name(const Material& m) { return m.key().append(kTableExtension); }
  static std::string stats_file_name(const Material& m) { return m.key().append(kStatsExtension); }
  static std::string verdict_file_name(const Material& m) { return m.key().append(kVerdictExtension); }
  // Whether name is a *.dpt name (longer than ".dpt", ending in it).
  static bool is_table_file_name(std::string_view name);
  // The canonical material whose table file `name` is, or nullopt for a name that is not
  // "<KEY>.dpt" with KEY a canonical material key. Pure.
  static std::optional<Material> material_of_table_file(std::string_view name) {
    return material_of_file(name, kTableExtension);
  }
  // The same for "<KEY><extension>" (kTableExtension, kVerdictExtension). Pure.
  static std::optional<Material> material_of_file(std::string_view name, std::string_view extension);

  // "<path>.tmp.<pid>": where write_file_atomic writes `path` before its rename.
  static std::string temporary_path(const std::string& path, long pid);
  // The pid of a temporary of one of the directory's own files (<KEY>.dpt.tmp.<pid>,
  // <KEY>.dpv.tmp.<pid> or <KEY>.json.tmp.<pid>, KEY a canonical material key of at most max_men men, pid in decimal
  // without leading zeros and at most 9 digits), or 0 for any other name. Pure.
  static long own_temporary_pid(std::string_view name, int max_men);

  // The *.dpt entries of the directory (or those of another extension, e.g. kVerdictExtension:
  // names longer than the extension and ending in it), whatever their type, in listing order.
  struct Entry {
    std::string name;                  // the file name, e.g. "KRvK.dpt"
    std::string path;                  // as the listing spells it (the directory joined with name)
    std::optional<Material> material;  // material_of_file(name, extension)
  };
  // Errors: Io "<dir>: cannot list the table directory: <why>" (OutOfMemory when the listing
  // itself runs out of memory).
  Result<std::vector<Entry>> list(std::string_view extension = kTableExtension) const;

  static constexpr std::string_view kTableExtension = ".dpt";
  static constexpr std::string_view kStatsExtension = ".json";
  static constexpr std::string_view kVerdictExtension = ".dpv";
  static constexpr std::string_view kTemporaryInfix = ".tmp.";

 private:
  std::string dir_;
};

// The error of every surface that opened table directories and found no table in them (the command's
// probe, adjudicate and atlas, the server, the C API, the Python module): MissingTable
// "no tables (*.dpt) in A, B; build them with 'deadpos generate'", the directories as given. Pure.
Error no_tables_error(const std::vector<std::string>& dirs);

// TableDirectory::table_file_name, for the callers that name a file without a directory object.
inline std::string table_file_name(const Material& m) { return TableDirectory::table_file_name(m); }

}  // namespace deadpos
