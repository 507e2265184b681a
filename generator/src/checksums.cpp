// Published checksums of table files (see deadpos/checksums.h).
#include "deadpos/checksums.h"

#include "deadpos/table.h"

#include <fcntl.h>
#include <nettle/sha2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <system_error>

#include "deadpos/generate.h"
#include "deadpos/material.h"
#include "deadpos/table_directory.h"

namespace deadpos {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr std::uint64_t kMaxListBytes = std::uint64_t{16} << 20;  // ~200,000 lines

Error io_error(const std::string& path, const std::string& what) {
  return make_error(ErrorCode::Io, path + ": " + what);
}

// A descriptor of the regular file at path, opened without blocking on a FIFO; closed by ~Fd.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

Result<std::uint64_t> open_regular(const std::string& path, Fd& out) {
  // stat before open: a FIFO is never opened (even a non-blocking open would release a writer
  // waiting on it), and the message names what the file is (core's check, as plain verify's).
  auto regular = regular_file_exists(path);
  if (!regular) return regular.error();
  if (!*regular) return io_error(path, std::string("cannot open: ") + std::strerror(ENOENT));
  out.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (out.fd < 0) return io_error(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(out.fd, &st) != 0) return io_error(path, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return io_error(path, "not a regular file");
  return static_cast<std::uint64_t>(st.st_size);
}

// Reads up to n bytes (fewer only at the end of the file). Errors: Io.
Result<std::size_t> read_some(int fd, std::uint8_t* buf, std::size_t n, const std::string& path) {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd, buf + got, n - got);
    if (r < 0) {
      if (errno == EINTR) continue;
      return io_error(path, std::string("read error: ") + std::strerror(errno));
    }
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return got;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The name of a line, shown in an error: at most 40 bytes.
std::string shown(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (s.size() > 40) out.append(3, '.');
  return out;
}

}  // namespace

std::string sha256_hex(const Sha256& d) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(64);
  for (std::uint8_t b : d) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

Result<Sha256> sha256_file(const std::string& path, const std::function<void(std::uint64_t)>& on_bytes) {
  Fd f;
  if (auto size = open_regular(path, f); !size) return size.error();
  // Blocking reads from here on (a regular file never blocks; O_NONBLOCK only guarded the open).
  if (const int fl = ::fcntl(f.fd, F_GETFL); fl >= 0) ::fcntl(f.fd, F_SETFL, fl & ~O_NONBLOCK);
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::vector<std::uint8_t> buf(kChunk);
  std::uint64_t done = 0;
  for (;;) {
    auto n = read_some(f.fd, buf.data(), buf.size(), path);
    if (!n) return n.error();
    if (*n == 0) break;
    sha256_update(&ctx, *n, buf.data());
    done += *n;
    if (on_bytes) on_bytes(done);
    if (*n < buf.size()) break;
  }
  Sha256 d{};
  sha256_digest(&ctx, d.size(), d.data());
  return d;
}

Result<std::vector<ChecksumLine>> parse_checksum_list(std::string_view text, const std::string& list_name) {
  std::vector<ChecksumLine> out;
  std::set<std::string> seen;
  std::size_t pos = 0;
  std::size_t lineno = 0;
  while (pos < text.size()) {
    ++lineno;
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    const auto bad = [&](std::string_view what) {
      std::string msg = list_name;
      msg.append(":").append(std::to_string(lineno)).append(": ").append(what);
      return make_error(ErrorCode::InvalidArgument, std::move(msg));
    };
    const auto bad_name = [&](std::string_view name, std::string_view what) {
      std::string msg = "'";
      msg.append(shown(name)).append("' ").append(what);
      return bad(msg);
    };
    if (line.empty()) return bad("blank line (expected '<64 hex digits>  <KEY>.dpt')");
    if (line.front() == '#') return bad("a comment (sha256sum -c does not accept comments)");
    if (line.back() == '\r') return bad("line ends with a carriage return (CRLF): the list must have Unix line ends");
    ChecksumLine c;
    c.line = lineno;
    if (line.size() < 66) return bad("too short for '<64 hex digits>  <KEY>.dpt'");
    for (std::size_t i = 0; i < 32; ++i) {
      const int hi = hex_value(line[2 * i]);
      const int lo = hex_value(line[2 * i + 1]);
      if (hi < 0 || lo < 0) return bad("the checksum is not 64 hex digits");
      c.digest[i] = static_cast<std::uint8_t>(hi * 16 + lo);
    }
    if (line[64] != ' ' || (line[65] != ' ' && line[65] != '*')) {
      return bad("expected two spaces (or ' *') after the 64 hex digits");
    }
    c.file = std::string(line.substr(66));
    const std::string_view name = c.file;
    // A table file or its verdict file (docs/format.md section 7).
    const std::optional<Material> m = TableDirectory::material_of_table_file(name)
                                          ? TableDirectory::material_of_table_file(name)
                                          : TableDirectory::material_of_file(name, TableDirectory::kVerdictExtension);
    if (!m) {
      const bool dpv =
          name.size() > TableDirectory::kVerdictExtension.size() && name.ends_with(TableDirectory::kVerdictExtension);
      if (!dpv && !TableDirectory::is_table_file_name(name)) {
        return bad_name(name, "is not a table file name <KEY>.dpt or a verdict file name <KEY>.dpv");
      }
      return bad_name(name, std::string("is not a ") +
                                (dpv ? "verdict file name <KEY>.dpv" : "table file name <KEY>.dpt") +
                                " (KEY a canonical material key)");
    }
    // A table this generator cannot build could only ever be reported missing: refuse the list.
    if (const int men = m->men(); men > kMaxGenerateMen) {
      return bad_name(name, "has " + std::to_string(men) + " men; deadpos builds and verifies tables of at most " +
                                std::to_string(kMaxGenerateMen));
    }
    if (!seen.insert(c.file).second) return bad_name(name, "is listed twice");
    out.push_back(std::move(c));
  }
  if (out.empty()) return make_error(ErrorCode::InvalidArgument, list_name + ": no checksum line");
  return out;
}

Result<ChecksumReport> check_checksums(const CheckChecksumsOptions& opt) {
  // The list: a regular file of bounded size.
  std::string text;
  {
    Fd f;
    auto size = open_regular(opt.list_path, f);
    if (!size) return size.error();
    if (*size > kMaxListBytes) return io_error(opt.list_path, "larger than 16 MiB: not a checksum list");
    if (const int fl = ::fcntl(f.fd, F_GETFL); fl >= 0) ::fcntl(f.fd, F_SETFL, fl & ~O_NONBLOCK);
    text.resize(static_cast<std::size_t>(*size) + 1);
    auto n = read_some(f.fd, reinterpret_cast<std::uint8_t*>(text.data()), text.size(), opt.list_path);
    if (!n) return n.error();
    text.resize(*n);
  }
  auto lines = parse_checksum_list(text, opt.list_path);
  if (!lines) return lines.error();
  std::sort(lines->begin(), lines->end(), [](const ChecksumLine& a, const ChecksumLine& b) { return a.file < b.file; });

  // The directory's *.dpt entries, whatever their type, and its *.dpv entries when the list names
  // a verdict file (a list of table files alone, as published before the verdict files, still
  // checks a directory that holds them).
  const TableDirectory dir(opt.dir);
  std::set<std::string> present;
  const bool verdicts_listed = std::any_of(lines->begin(), lines->end(), [](const ChecksumLine& l) {
    return l.file.ends_with(TableDirectory::kVerdictExtension);
  });
  for (const std::string_view ext : {TableDirectory::kTableExtension, TableDirectory::kVerdictExtension}) {
    if (ext == TableDirectory::kVerdictExtension && !verdicts_listed) continue;
    auto listed = dir.list(ext);
    if (!listed) return listed.error();
    for (TableDirectory::Entry& e : *listed) present.insert(std::move(e.name));
  }
  // Paths spelled as every other reader of the directory spells them (TableDirectory::path_of).
  const auto path_of = [&](const std::string& name) { return dir.path_of(name); };

  ChecksumProgress prog;
  for (const ChecksumLine& l : *lines) {
    if (!present.count(l.file)) continue;
    struct stat st {};
    if (::stat(path_of(l.file).c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      prog.bytes_total += static_cast<std::uint64_t>(st.st_size);
    }
  }
  if (opt.progress) opt.progress(prog);

  ChecksumReport rep;
  const auto emit = [&](ChecksumFinding f) {
    switch (f.kind) {
      case ChecksumFinding::Kind::Ok: ++rep.ok; break;
      case ChecksumFinding::Kind::Differs: ++rep.differs; break;
      case ChecksumFinding::Kind::Missing: ++rep.missing; break;
      case ChecksumFinding::Kind::Extra: ++rep.extra; break;
      case ChecksumFinding::Kind::Unreadable: ++rep.unreadable; break;
    }
    if (opt.on_file) opt.on_file(f);
    rep.findings.push_back(std::move(f));
  };
  std::set<std::string> listed;
  for (const ChecksumLine& l : *lines) {
    listed.insert(l.file);
    ChecksumFinding f;
    f.file = l.file;
    f.line = l.line;
    f.expected = l.digest;
    if (!present.count(l.file)) {
      f.kind = ChecksumFinding::Kind::Missing;
      emit(std::move(f));
      continue;
    }
    const std::uint64_t base = prog.bytes_done;
    auto d = sha256_file(path_of(l.file), [&](std::uint64_t n) {
      if (!opt.progress) return;
      ChecksumProgress p = prog;
      p.bytes_done = std::min(base + n, p.bytes_total);
      opt.progress(p);
    });
    if (!d) {
      f.kind = ChecksumFinding::Kind::Unreadable;
      f.error = d.error();
    } else {
      f.actual = *d;
      f.kind = *d == l.digest ? ChecksumFinding::Kind::Ok : ChecksumFinding::Kind::Differs;
      struct stat st {};
      if (::stat(path_of(l.file).c_str(), &st) == 0) prog.bytes_done += static_cast<std::uint64_t>(st.st_size);
      prog.bytes_done = std::min(prog.bytes_done, prog.bytes_total);
    }
    emit(std::move(f));
  }
  for (const std::string& name : present) {
    if (listed.count(name)) continue;
    ChecksumFinding f;
    f.file = name;
    f.kind = ChecksumFinding::Kind::Extra;
    emit(std::move(f));
  }
  if (opt.progress) {
    prog.bytes_done = prog.bytes_total;
    opt.progress(prog);
  }
  return rep;
}

}  // namespace deadpos
