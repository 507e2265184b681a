// Published checksums of table files (docs/build.md, "Reproducible tables"): a list in the format
// of `sha256sum -c` (one line "<64 hex digits>  <KEY>.dpt" per table file, and "...  <KEY>.dpv" per verdict file) and
// the check of a table directory against it. SHA-256 is Nettle's (nettle/sha2.h, Debian's nettle-dev).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "deadpos/result.h"

namespace deadpos {

using Sha256 = std::array<std::uint8_t, 32>;

// The 64 lower-case hex digits of d, as sha256sum prints them.
std::string sha256_hex(const Sha256& d);

// SHA-256 of the whole file at path. Only a regular file is read (a FIFO, directory, device or
// socket is refused without being read). on_bytes, when given, is called after each chunk with
// the bytes read so far. Errors: Io (cannot open or read, not a regular file; names the path).
// Thread-safe (no shared state).
Result<Sha256> sha256_file(const std::string& path, const std::function<void(std::uint64_t)>& on_bytes = {});

// One line of a checksum list.
struct ChecksumLine {
  std::string file;  // "<KEY>.dpt" or "<KEY>.dpv" (its verdict file), KEY a canonical material key
  Sha256 digest{};
  std::size_t line = 0;  // 1-based line number in the list
};

// Parses a checksum list: each line "<64 hex digits>  <KEY>.dpt" or "...  <KEY>.dpv" (two spaces, or " *" as
// `sha256sum -b` writes it; hex digits of either case), every line ending with '\n' (the last
// one may lack it). KEY must be a canonical material key (Material::parse, is_canonical); no path,
// no comment, no blank line, no BSD-style line, no name twice (what sha256sum writes; sha256sum -c
// tolerates more). list_name names the list in errors. Errors: InvalidArgument "<list_name>:<line>: <what is wrong>"
// for the first bad line, or "<list_name>: no checksum line" for an empty list. Pure.
Result<std::vector<ChecksumLine>> parse_checksum_list(std::string_view text, const std::string& list_name);

// One file's outcome in check_checksums().
struct ChecksumFinding {
  enum class Kind {
    Ok,          // listed, present, same SHA-256
    Differs,     // listed, present, another SHA-256 (actual holds it)
    Missing,     // listed, not in the directory
    Extra,       // a *.dpt entry of the directory that the list does not name (or a *.dpv one, when
                 // the list names verdict files)
    Unreadable,  // listed, present, but not a readable regular file (error says why)
  };
  std::string file;  // the name in the directory (for Extra: as listed by the directory)
  Kind kind = Kind::Ok;
  std::size_t line = 0;        // the list's line (0 for Extra)
  Sha256 expected{};           // the list's digest (not for Extra)
  Sha256 actual{};             // Ok, Differs
  std::optional<Error> error;  // Unreadable: Io
};

struct ChecksumProgress {
  std::uint64_t bytes_done = 0;   // over every listed file present
  std::uint64_t bytes_total = 0;  // sizes of the listed regular files present, at the start
};

struct CheckChecksumsOptions {
  std::string list_path;                                  // the checksum list (parse_checksum_list)
  std::string dir;                                        // the table directory
  std::function<void(const ChecksumProgress&)> progress;  // may be empty
  std::function<void(const ChecksumFinding&)> on_file;    // once per finding, in order; may be empty
};

struct ChecksumReport {
  std::vector<ChecksumFinding> findings;  // listed files in list order of names (sorted), then extras (sorted)
  std::size_t ok = 0, differs = 0, missing = 0, extra = 0, unreadable = 0;
  bool all_match() const { return differs + missing + extra + unreadable == 0; }
};

// Checks dir against the list at opt.list_path: every listed file is hashed and compared, and
// every entry of dir whose name ends in ".dpt" (and ".dpv", when the list names a verdict file)
// that the list does not name is Extra (nothing else
// in dir is looked at). Errors, before any file is hashed: Io (the list cannot be read, dir cannot
// be listed), InvalidArgument (a bad list line, parse_checksum_list). Differences are findings,
// not errors. Not thread-safe with respect to changes of dir while it runs; no shared state.
Result<ChecksumReport> check_checksums(const CheckChecksumsOptions& opt);

}  // namespace deadpos
