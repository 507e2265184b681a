#include "deadpos/table_directory.h"

#include <filesystem>
#include <system_error>

namespace deadpos {

bool TableDirectory::is_table_file_name(std::string_view name) {
  return name.size() > kTableExtension.size() && name.ends_with(kTableExtension);
}

std::optional<Material> TableDirectory::material_of_file(std::string_view name, std::string_view extension) {
  if (name.size() <= extension.size() || !name.ends_with(extension)) return std::nullopt;
  const std::string_view key = name.substr(0, name.size() - extension.size());
  auto m = Material::parse(key);
  // parse() takes only the men in key order, so key() spells a parsed key back exactly: the
  // round trip is a guard, and keeps table_file_name(material) == name for every table found.
  if (!m || !m->is_canonical() || m->key() != key) return std::nullopt;
  return *m;
}

std::string TableDirectory::temporary_path(const std::string& path, long pid) {
  return path + std::string(kTemporaryInfix) + std::to_string(pid);
}

long TableDirectory::own_temporary_pid(std::string_view name, int max_men) {
  const auto at = name.rfind(kTemporaryInfix);
  if (at == std::string_view::npos) return 0;
  const std::string_view digits = name.substr(at + kTemporaryInfix.size());
  // At most 9 digits: fits a pid_t, and to_string never writes a leading zero.
  if (digits.empty() || digits.size() > 9 || digits[0] == '0' ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return 0;
  }
  std::string_view file = name.substr(0, at);
  for (const std::string_view ext : {kTableExtension, kVerdictExtension, kStatsExtension}) {
    if (file.size() > ext.size() && file.ends_with(ext)) {
      const std::string_view key = file.substr(0, file.size() - ext.size());
      const auto m = Material::parse(key);
      if (!m || !m->is_canonical() || m->key() != key || m->men() > max_men) return 0;
      return std::stol(std::string(digits));
    }
  }
  return 0;
}

Result<std::vector<TableDirectory::Entry>> TableDirectory::list(std::string_view extension) const {
  // ENOMEM while listing is the process's memory (e.g. under `ulimit -v`), not the directory's fault.
  const auto failed = [&](const std::error_code& ec) {
    const ErrorCode code = ec == std::errc::not_enough_memory ? ErrorCode::OutOfMemory : ErrorCode::Io;
    return make_error(code, dir_ + ": cannot list the table directory: " + ec.message());
  };
  std::vector<Entry> out;
  std::error_code ec;
  std::filesystem::directory_iterator it(dir_, ec);
  if (ec) return failed(ec);
  // increment(ec), not a range-for: a listing error must be a value, not an exception.
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() <= extension.size() || !name.ends_with(extension)) continue;
    out.push_back(Entry{name, it->path().string(), material_of_file(name, extension)});
  }
  if (ec) return failed(ec);
  return out;
}

Error no_tables_error(const std::vector<std::string>& dirs) {
  std::string d;
  for (const auto& x : dirs) d += (d.empty() ? "" : ", ") + x;
  return make_error(ErrorCode::MissingTable, "no tables (*.dpt) in " + d + "; build them with 'deadpos generate'");
}

}  // namespace deadpos
