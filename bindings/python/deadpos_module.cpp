// The Python module `deadpos` (pybind11): a Tablebase whose answers are plain Python values with
// the field names and meanings of `deadpos probe --json` (answers/src/probe_answer.cpp probe_json; docs/cli.md),
// and one exception family, deadpos.Error. Reference: docs/api.md, "Python module".
//
// The answers are built here from the library's types (deadpos/analysis.h), not by the command's
// renderer (deadpos/answers.h), so that the tests (tests/python/) compare two independent renderings:
// this module's and the command's.
//
// Threads: every call into the library runs with the GIL released; a Tablebase is thread-safe
// (deadpos/tablebase.h). Python objects are touched only with the GIL held.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "deadpos/analysis.h"
#include "deadpos/answers.h"
#include "deadpos/notation.h"
#include "deadpos/position.h"
#include "deadpos/result.h"
#include "deadpos/table_directory.h"
#include "deadpos/tablebase.h"

namespace py = pybind11;

namespace deadpos::python {

namespace {

// ---- exceptions --------------------------------------------------------------------------------

// One class per ErrorCode (in enum order), plus Undetermined; created in PYBIND11_MODULE.
struct Exceptions {
  py::object base;                  // deadpos.Error
  std::array<py::object, 9> codes;  // indexed by ErrorCode
  py::object undetermined;          // deadpos.Undetermined
};
Exceptions* g_exc = nullptr;  // owned by the module (capsule); lives while the module does

constexpr std::size_t kErrorCodes = 9;
static_assert(static_cast<std::size_t>(ErrorCode::VerificationFailed) + 1 == kErrorCodes);

// Raises the class `cls` with `message` as its only argument; `category` as attribute.
// A message naming a file keeps the name's bytes: one that is not UTF-8 (a bytes path) shows them as
// \xNN escapes rather than failing to convert (a UnicodeDecodeError instead of the error).
[[noreturn]] void raise(const py::object& cls, const std::string& category, const std::string& message) {
  const auto text = py::reinterpret_steal<py::object>(
      PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "backslashreplace"));
  if (!text) throw py::error_already_set();
  py::object e = cls(text);
  e.attr("category") = category;
  e.attr("message") = text;
  PyErr_SetObject(cls.ptr(), e.ptr());
  throw py::error_already_set();
}

[[noreturn]] void raise(const Error& e) {
  raise(g_exc->codes[static_cast<std::size_t>(e.code)], error_code_name(e.code), e.message);
}

[[noreturn]] void raise_invalid_argument(const std::string& message) {
  raise(Error{ErrorCode::InvalidArgument, message});
}

// ---- answers as Python values (the keys of `deadpos probe --json`) -------------------------------

const char* side_id(Color c) { return c == Color::White ? "white" : "black"; }

py::object tri(std::optional<bool> b) { return b ? py::object(py::bool_(*b)) : py::object(py::none()); }

// The exact DTHM when it is known: from the tables, or a search line proven shortest.
py::object exact_dthm(const MateAnswer& m) {
  if (m.method == Method::Table) return m.dthm ? py::object(py::int_(*m.dthm)) : py::object(py::none());
  if (m.method == Method::Search && m.shortest) return py::int_(m.plies);
  return py::none();
}

// How one side's question was decided ("how" of the JSON answer).
py::dict how_dict(const MateAnswer& m) {
  py::dict d;
  d["method"] = method_name(m.method);
  switch (m.method) {
    case Method::Table: break;
    case Method::Search:
      d["line_plies"] = m.plies;
      d["shortest"] = m.shortest;
      d["positions"] = m.positions;
      break;
    case Method::Exhausted: d["positions"] = m.positions; break;
    case Method::Rule: d["rule"] = rule_name(m.rule); break;
    case Method::Undetermined:
      d["budget"] = budget_name(m.budget);
      d["positions"] = m.positions;
      break;
    case Method::NotAsked: break;
  }
  if (std::string reason = deadpos::cannot_mate_reason(m); !reason.empty()) d["reason"] = reason;
  return d;
}

// A line entry of "lines": {mated, plies, shortest, san, uci}, or {mated, error} when the answer
// stands but its line could not be built.
py::dict line_dict(const Position& pos, Color mated, const MateAnswer& m) {
  py::dict d;
  d["mated"] = side_id(mated);
  if (m.line_error) {
    py::dict e;
    e["category"] = error_code_name(m.line_error->code);
    e["message"] = m.line_error->message;
    d["error"] = e;
    return d;
  }
  py::list uci;
  for (Move mv : m.line) uci.append(to_uci(mv));
  d["plies"] = m.line.size();
  d["shortest"] = m.shortest;
  d["san"] = line_to_san(pos, m.line);
  d["uci"] = uci;
  return d;
}

py::dict flag_dict(Color flagged, const FlagVerdict& v) {
  py::dict d;
  d["flagged"] = side_id(flagged);
  d["result"] = v.result.empty() ? py::object(py::none()) : py::object(py::str(v.result));
  d["reason"] = flag_reason_name(v.reason);
  d["text"] = flag_reason_text(v.reason);
  return d;
}

// ---- arguments ---------------------------------------------------------------------------------

// A FEN (or EPD record) argument: str or bytes. A str that is not encodable as UTF-8 (lone
// surrogates) is invalid FEN, like any other unreadable text.
std::string text_arg(const py::handle& obj, const char* what) {
  if (py::isinstance<py::bytes>(obj)) return obj.cast<std::string>();
  if (!py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(what) + " must be str or bytes, not " +
                         py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  }
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(obj.ptr(), &n);
  if (s == nullptr) {
    PyErr_Clear();
    raise(
        Error{ErrorCode::InvalidFen, std::string(what) + " is not valid Unicode text (it cannot be encoded as UTF-8)"});
  }
  return std::string(s, static_cast<std::size_t>(n));
}

// "white" or "black", or with allow_stm "stm" (the side to move: nullopt), as `deadpos probe --flag`.
// Checked before the (possibly long) analysis.
std::optional<Color> side_arg(const py::handle& obj, const char* what, bool allow_stm) {
  const char* choices = allow_stm ? "'white', 'black' or 'stm'" : "'white' or 'black'";
  if (!py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(what) + " must be a str (" + choices + "), not " +
                         py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>());
  }
  const std::string s = text_arg(obj, what);
  if (s == "white") return Color::White;
  if (s == "black") return Color::Black;
  if (allow_stm && s == "stm") return std::nullopt;
  raise_invalid_argument(std::string(what) + " must be " + choices + ", not '" + shown_text(s) + "'");
}

// One directory name (str, bytes or os.PathLike); a NUL byte would silently cut the name short
// in the operating system's calls, so it is refused.
std::string dir_arg(const py::handle& obj) {
  py::object p = py::module_::import("os").attr("fspath")(obj);
  std::string s = p.cast<std::string>();
  if (s.find('\0') != std::string::npos) {
    raise_invalid_argument("table directory name holds a NUL byte: '" + shown_text(s) + "'");
  }
  return s;
}

std::vector<std::string> dirs_arg(const py::object& dirs) {
  std::vector<std::string> out;
  if (py::isinstance<py::str>(dirs) || py::isinstance<py::bytes>(dirs) || py::hasattr(dirs, "__fspath__")) {
    out.push_back(dir_arg(dirs));
  } else if (py::isinstance<py::iterable>(dirs)) {
    for (py::handle d : dirs) out.push_back(dir_arg(d));
  } else {
    throw py::type_error("dirs must be a directory name (str, bytes or os.PathLike) or a list of them, not " +
                         py::str(py::type::handle_of(dirs).attr("__name__")).cast<std::string>());
  }
  if (out.empty()) raise_invalid_argument("no table directory given");
  return out;
}

std::uint64_t range_arg(std::int64_t v, std::int64_t lo, std::int64_t hi, const char* what) {
  if (v < lo || v > hi) {
    raise_invalid_argument(std::string(what) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                           ", not " + std::to_string(v));
  }
  return static_cast<std::uint64_t>(v);
}

// An int argument in lo..hi: a bool is a TypeError (True would be 1), an int outside int64 an
// InvalidArgument like any other out-of-range value (pybind11's own conversion said TypeError).
std::int64_t int_arg(const py::handle& o, std::int64_t lo, std::int64_t hi, const char* what) {
  // Anything with __index__ (numpy integers too) is an int here, as in pybind11's own conversion.
  if (py::isinstance<py::bool_>(o) || !PyIndex_Check(o.ptr()))
    throw py::type_error(std::string(what) + " must be an int, not " +
                         std::string(py::str(o.get_type().attr("__name__"))));
  const auto i = py::reinterpret_steal<py::object>(PyNumber_Index(o.ptr()));
  if (!i) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0) {
    raise_invalid_argument(std::string(what) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                           ", not " + std::string(py::str(i)).substr(0, 40));
  }
  return static_cast<std::int64_t>(range_arg(v, lo, hi, what));
}

// ---- the Tablebase ------------------------------------------------------------------------------

class PyTablebase {
 public:
  PyTablebase(const py::object& dirs, const py::object& cache_mb, const py::object& budget_nodes,
              const py::object& budget_ms, const py::object& budget_mb) {
    // The ranges of the command's options (tools/cmd_probe.cpp).
    Tablebase::Options topt;
    if (!cache_mb.is_none()) {  // None: Tablebase::default_cache_bytes(), as the command
      topt.cache_bytes = static_cast<std::size_t>(int_arg(cache_mb, 0, std::int64_t{1} << 20, "cache_mb")) << 20;
    }
    opt_.budget.nodes = static_cast<std::uint64_t>(int_arg(budget_nodes, 0, std::int64_t{1} << 40, "budget_nodes"));
    opt_.budget.time_ms = static_cast<std::uint64_t>(int_arg(budget_ms, 0, 86'400'000, "budget_ms"));
    opt_.budget.memory_bytes = static_cast<std::size_t>(int_arg(budget_mb, 1, std::int64_t{1} << 20, "budget_mb"))
                               << 20;
    dirs_ = dirs_arg(dirs);
    std::optional<Result<Tablebase>> tb;
    {
      py::gil_scoped_release nogil;
      tb.emplace(Tablebase::open(dirs_, topt));
    }
    if (!*tb) raise(tb->error());
    if (tb->value().max_men() == 0) {
      raise(no_tables_error(dirs_));
    }
    tb_ = std::make_unique<Tablebase>(std::move(tb->value()));
  }

  py::dict probe(const py::object& fen, const py::object& flag, bool line) const {
    const std::string text = text_arg(fen, "fen");
    const std::optional<Color> flag_side = flag.is_none() ? std::nullopt : side_arg(flag, "flag", true);
    const answers::ProbeAnswer a = analyze(text, line, !flag.is_none(), flag_side);
    const PositionAnalysis& r = a.analysis;
    py::dict d;
    d["fen"] = a.pos.to_fen();
    d["table"] = r.table.empty() ? py::object(py::none()) : py::object(py::str(r.table));
    d["checkmate"] = r.checkmate;
    d["stalemate"] = r.stalemate;
    d["dead"] = tri(r.dead());
    d["white_can_mate"] = tri(r.white_can_mate());
    d["black_can_mate"] = tri(r.black_can_mate());
    d["dthm_white_mated_plies"] = exact_dthm(r.mate[Color::White]);
    d["dthm_black_mated_plies"] = exact_dthm(r.mate[Color::Black]);
    py::dict how;
    how["white_can_mate"] = how_dict(r.mate[Color::Black]);
    how["black_can_mate"] = how_dict(r.mate[Color::White]);
    d["how"] = how;
    d["castling_search"] = r.castling_search;
    d["en_passant"] = r.en_passant;
    py::list warnings;
    for (PositionWarning w : r.warnings) warnings.append(warning_name(w));
    d["warnings"] = warnings;
    if (a.verdict) d["flag"] = flag_dict(*a.flagged, *a.verdict);
    if (line) {
      // The lines `--line` prints (answers::shown_lines): none in a checkmate; with a flag only the
      // flagged side's mate.
      py::list lines;
      for (const auto& [mated, m] : answers::shown_lines(a)) lines.append(line_dict(a.pos, mated, *m));
      d["lines"] = lines;
    }
    return d;
  }

  py::dict flag_result(const py::object& fen, const py::object& flagged_arg, bool line) const {
    const std::string text = text_arg(fen, "fen");
    const std::optional<Color> side = side_arg(flagged_arg, "flagged", true);
    const answers::ProbeAnswer a = analyze(text, line, true, side);
    const Color flagged = *a.flagged;
    py::dict d = flag_dict(flagged, *a.verdict);
    if (line) {
      const MateAnswer& m = a.analysis.mate[flagged];
      d["line"] = !a.analysis.checkmate && m.can_mate() == true ? py::object(line_dict(a.pos, flagged, m))
                                                                : py::object(py::none());
    }
    return d;
  }

  py::object helpmate_line(const py::object& fen, const py::object& mated_arg) const {
    const std::string text = text_arg(fen, "fen");
    const Color mated = *side_arg(mated_arg, "mated", false);
    std::optional<Result<Position>> pos;
    std::optional<Result<MateAnswer>> r;
    bool checkmate = false;
    {
      py::gil_scoped_release nogil;
      pos.emplace(Position::from_fen(fen_of_epd_line(text)));
      if (pos->ok()) {
        checkmate = pos->value().is_checkmate();
        r.emplace(deadpos::analyze_side(*tb_, pos->value(), mated, opt_, true));
      }
    }
    if (!pos->ok()) raise(pos->error());
    if (!r->ok()) raise(r->error());
    const MateAnswer& m = r->value();
    const Position& p = pos->value();
    if (m.method == Method::Undetermined) {
      const std::string why = m.budget == BudgetKind::OutOfMemory
                                  ? std::string("out of memory")
                                  : std::string("the ") + budget_name(m.budget) + " budget ran out";
      const std::string msg = std::string("whether ") + (mated == Color::White ? "White" : "Black") +
                              " can be checkmated is undetermined: " + why + " after " + std::to_string(m.positions) +
                              " positions";
      raise(g_exc->undetermined, "undetermined", msg);
    }
    if (m.can_mate() != true) return py::none();
    if (checkmate) {
      // Already checkmate: the line to it is empty (DTHM 0); the other side cannot be mated.
      py::dict d;
      d["mated"] = side_id(mated);
      d["plies"] = 0;
      d["shortest"] = true;
      d["san"] = py::list();
      d["uci"] = py::list();
      return d;
    }
    if (m.line_error) raise(*m.line_error);
    return line_dict(p, mated, m);
  }

  std::vector<std::string> materials() const { return tb_->materials(); }
  int max_men() const { return tb_->max_men(); }
  std::size_t cache_bytes() const { return tb_->cache_bytes(); }
  const std::vector<std::string>& dirs() const { return dirs_; }

 private:
  // The answer of every surface to one input (answers::answer): FEN or EPD; with `flag`, the
  // verdict of `side`'s flag, or the side to move's when side is nullopt.
  answers::ProbeAnswer analyze(const std::string& text, bool want_lines, bool flag, std::optional<Color> side) const {
    std::optional<Result<Position>> pos;
    std::optional<Result<answers::ProbeAnswer>> r;
    {
      py::gil_scoped_release nogil;
      pos.emplace(Position::from_fen(fen_of_epd_line(text)));
      if (pos->ok()) {
        const Position& p = pos->value();
        const std::optional<Color> flagged =
            flag ? std::optional<Color>(side.value_or(p.side_to_move())) : std::nullopt;
        r.emplace(answers::answer(*tb_, p, answers::Request{flagged, want_lines, opt_}));
      }
    }
    if (!pos->ok()) raise(pos->error());
    if (!r->ok()) raise(r->error());
    return std::move(r->value());
  }

  std::unique_ptr<Tablebase> tb_;
  AnalysisOptions opt_;
  std::vector<std::string> dirs_;
};

// ---- docstrings --------------------------------------------------------------------------------

constexpr const char* kModuleDoc =
    R"doc(Exact dead-position (FIDE 5.2.2) and flag-fall (FIDE 6.9) answers from deadpos tables.

    tb = deadpos.Tablebase("tables")          # directories of *.dpt files (deadpos generate)
    tb.probe(fen)                             # dict with the keys of `deadpos probe --json`
    tb.flag_result(fen, "white")              # FIDE 6.9 result when White's flag fell
    tb.helpmate_line(fen, "black")            # a shortest line ending with Black checkmated

Every answer is exact, or says it is undetermined (None); never a guess. Distances are in plies.
Errors raise deadpos.Error subclasses (InvalidFen, MissingTable, CorruptTable, Io, ...).
A Tablebase may be used from any number of threads at once; the GIL is released while it works.
Reference: docs/api.md, "Python module".)doc";

constexpr const char* kClassDoc =
    R"doc(Tablebase(dirs, *, cache_mb=None, budget_nodes=2000000, budget_ms=0, budget_mb=512)

The tables of one or more directories and the analysis beyond them, as `deadpos probe` uses them.

dirs: a directory (str, bytes or os.PathLike) or a list of them; earlier directories win when two
hold a table of the same material. Only the file names are read here; a table is opened on first use.
cache_mb: decompressed-block cache limit in MiB (0..1048576); None: an eighth of the machine's
memory (physical or cgroup limit), 256..4096 MiB, as `deadpos probe` (see cache_bytes).
budget_nodes, budget_ms, budget_mb: limits of the search for positions beyond the tables, per side
and question: positions generated (0 = no limit, up to 2**40), milliseconds (0 = no limit, up to
86400000), MiB of stored positions (1..1048576). A limit that runs out makes the answer
undetermined (None), never wrong. The defaults are the command's.

Raises: Io (a directory cannot be listed), MissingTable (no tables in the directories),
InvalidArgument (a value out of range, no directory, a NUL byte in a name), TypeError.
Thread-safety: every method may be called from any number of threads at once.)doc";

constexpr const char* kProbeDoc = R"doc(probe(fen, *, flag=None, line=False) -> dict

The answer `deadpos probe --json [--flag FLAG] [--line]` gives for fen, as a dict with the same
keys and values (without "input", the echo of the argument):
  fen: the position's FEN, normalised (6 fields);
  table: material key of the table that answered ("KRvK"), or None (beyond the tables, or checkmate
    or stalemate on the board answered by the rules);
  checkmate, stalemate: bool, the side to move is checkmated / stalemated (FIDE 5.1.1, 5.2.1);
  dead: FIDE 5.2.2, neither side can checkmate by any sequence of legal moves: bool, or None when
    undetermined;
  white_can_mate, black_can_mate: bool, or None when undetermined;
  dthm_white_mated_plies, dthm_black_mated_plies: plies of the shortest sequence of legal moves
    ending with that side checkmated (int); None when it cannot be mated or when the exact
    distance is unknown (a search found a line not proven shortest, or the question is undetermined);
  how: {"white_can_mate": {...}, "black_can_mate": {...}}, each {"method": "table" | "search" |
    "exhausted" | "rule" | "undetermined"} plus "line_plies", "shortest", "positions" (search),
    "positions" (exhausted), "rule" (rule), "budget" and "positions" (undetermined);
  castling_search, en_passant: bool, how the tables handled castling and en passant rights;
  flag (with flag="white", "black" or "stm"): as flag_result();
  lines (with line=True): a list with, for each side that can be mated (with a flag: only the
    flagged side), {"mated", "plies", "shortest", "san": [str], "uci": [str]}, or {"mated",
    "error": {"category", "message"}} when the answer stands but the line could not be built;
    empty in a checkmate.
fen: a FEN, or an EPD record (its first 4 fields), as str or bytes.
Raises: InvalidFen, CorruptTable, Io, OutOfMemory, InvalidArgument (bad flag), TypeError.
Thread-safe; the GIL is released while the position is analysed.)doc";

constexpr const char* kFlagDoc = R"doc(flag_result(fen, flagged, *, line=False) -> dict

The result when `flagged` ("white", "black", or "stm": the side to move) runs out of time in fen:
FIDE 6.9 (the flagged player loses unless the opponent cannot checkmate by any sequence of legal
moves), after 5.2.2 (a dead position is drawn) and a checkmate or stalemate already on the board.
The dict is the "flag" object of `deadpos probe --json --flag`:
  flagged: "white" or "black";
  result: "1-0", "0-1" or "1/2-1/2", or None when undetermined;
  reason: "checkmate", "stalemate", "dead-position", "opponent-cannot-mate", "opponent-can-mate" or
    "undetermined";
  text: the reason in words, citing the article;
  line (with line=True): the opponent's shortest mate as in helpmate_line() (a dict with "error"
    when it could not be built), or None when the opponent cannot mate or the position is already
    checkmate (as `deadpos probe --flag --line`; helpmate_line() gives the empty line there).
Raises: InvalidArgument (flagged not one of the three), plus as probe(). Thread-safe; GIL released.)doc";

constexpr const char* kLineDoc = R"doc(helpmate_line(fen, mated) -> dict or None

A sequence of legal moves from fen that ends with `mated` ("white" or "black") checkmated, as
`deadpos probe --line` prints it: {"mated", "plies": int, "shortest": bool, "san": [str],
"uci": [str]}. From the tables the line is a shortest one (plies = DTHM); beyond them the search's
certificate line ("shortest" says whether it is proven shortest). A position where `mated` is
already checkmated gives the empty line (plies 0).
None: `mated` cannot be checkmated by any sequence of legal moves (proven).
Raises: Undetermined (the search budget ran out before the question was decided), MissingTable
(every continuation of the line needs a table that is not loaded), InvalidArgument (mated not
"white"/"black"), plus as probe(). Thread-safe; the GIL is released while it works.)doc";

}  // namespace

}  // namespace deadpos::python

PYBIND11_MODULE(deadpos, m) {
  using namespace deadpos;
  using namespace deadpos::python;
  m.doc() = kModuleDoc;
  // The docstrings begin with their own Python signatures (pybind11's name the C++ types).
  py::options options;
  options.disable_function_signatures();
#ifdef DEADPOS_VERSION
  m.attr("__version__") = DEADPOS_VERSION;
#endif

  // The exception family: created with the C API so that several also derive from the built-in
  // class a Python caller expects (ValueError, OSError, MemoryError).
  auto* exc = new Exceptions();
  m.add_object("_exceptions", py::capsule(exc, [](void* p) {
                 g_exc = nullptr;
                 delete static_cast<Exceptions*>(p);
               }));
  g_exc = exc;
  auto make = [&](const char* name, const char* doc, py::tuple bases) {
    PyObject* cls = PyErr_NewExceptionWithDoc((std::string("deadpos.") + name).c_str(), doc, bases.ptr(), nullptr);
    if (cls == nullptr) throw py::error_already_set();
    py::object o = py::reinterpret_steal<py::object>(cls);
    m.add_object(name, o);
    return o;
  };
  exc->base = make("Error",
                   "Base of every error deadpos raises. str(e) and e.message: the library's one-line message "
                   "(names what and where); e.category: the category as `deadpos probe` names it "
                   "(\"invalid FEN\", \"missing table\", ...).",
                   py::make_tuple(py::handle(PyExc_Exception)));
  const py::handle value_error(PyExc_ValueError);
  struct Spec {
    ErrorCode code;
    const char* name;
    const char* doc;
    py::handle extra;  // a built-in base besides Error, or nullptr
  };
  const Spec specs[] = {
      {ErrorCode::InvalidFen, "InvalidFen",
       "A malformed or illegal FEN (the message names the field). Also a ValueError.", value_error},
      {ErrorCode::InvalidArgument, "InvalidArgument",
       "An impossible request: an option out of range, a side that is not 'white'/'black'. Also a ValueError.",
       value_error},
      {ErrorCode::InvalidMove, "InvalidMove", "A malformed, illegal or ambiguous move. Also a ValueError.",
       value_error},
      {ErrorCode::Io, "Io", "A file or directory could not be listed, opened or read. Also an OSError.",
       py::handle(PyExc_OSError)},
      {ErrorCode::MissingTable, "MissingTable", "A table the answer needs is not in the directories (named).",
       py::handle()},
      {ErrorCode::CorruptTable, "CorruptTable",
       "A table failed a checksum or format check (the file is named); never a wrong answer.", py::handle()},
      {ErrorCode::OutOfMemory, "OutOfMemory", "A large allocation failed. Also a MemoryError.",
       py::handle(PyExc_MemoryError)},
      {ErrorCode::TooManyMen, "TooManyMen", "More men on the board than the loaded tables cover.", py::handle()},
      {ErrorCode::VerificationFailed, "VerificationFailed", "A table disagrees with its successors.", py::handle()},
  };
  for (const Spec& s : specs) {
    py::tuple bases = s.extra ? py::make_tuple(exc->base, s.extra) : py::make_tuple(exc->base);
    exc->codes[static_cast<std::size_t>(s.code)] = make(s.name, s.doc, bases);
  }
  exc->undetermined = make("Undetermined",
                           "helpmate_line(): the search budget ran out before the question was decided "
                           "(raise the budgets of the Tablebase). e.category is \"undetermined\".",
                           py::make_tuple(exc->base));

  // Every method takes self as a handle and goes through self_of: Tablebase.__new__(Tablebase)
  // makes an instance whose __init__ never ran, whose value pybind11 leaves unconstructed, and a
  // member function bound directly would run on that memory (a segmentation fault).
  const auto self_of = [](py::handle self) -> const PyTablebase& {
    if (!py::isinstance<PyTablebase>(self)) throw py::type_error("deadpos.Tablebase method called on another object");
    auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
    const py::detail::value_and_holder v_h = inst->get_value_and_holder(py::detail::get_type_info(typeid(PyTablebase)));
    if (!v_h || !v_h.holder_constructed())
      throw py::type_error("deadpos.Tablebase: the object was not initialised (__init__ was not called)");
    return *static_cast<const PyTablebase*>(v_h.value_ptr());
  };
  py::class_<PyTablebase>(m, "Tablebase", kClassDoc)
      .def(py::init<const py::object&, const py::object&, const py::object&, const py::object&, const py::object&>(),
           py::arg("dirs"), py::kw_only(), py::arg("cache_mb") = py::none(), py::arg("budget_nodes") = 2'000'000,
           py::arg("budget_ms") = 0, py::arg("budget_mb") = 512,
           "Tablebase(dirs, *, cache_mb=None, budget_nodes=2000000, budget_ms=0, budget_mb=512): see the class.")
      .def(
          "probe",
          [self_of](py::handle t, const py::object& fen, const py::object& flag, bool line) {
            return self_of(t).probe(fen, flag, line);
          },
          py::arg("fen"), py::kw_only(), py::arg("flag") = py::none(), py::arg("line") = false, kProbeDoc)
      .def(
          "flag_result",
          [self_of](py::handle t, const py::object& fen, const py::object& flagged, bool line) {
            return self_of(t).flag_result(fen, flagged, line);
          },
          py::arg("fen"), py::arg("flagged"), py::kw_only(), py::arg("line") = false, kFlagDoc)
      .def(
          "helpmate_line",
          [self_of](py::handle t, const py::object& fen, const py::object& mated) {
            return self_of(t).helpmate_line(fen, mated);
          },
          py::arg("fen"), py::arg("mated"), kLineDoc)
      .def(
          "materials", [self_of](py::handle t) { return self_of(t).materials(); },
          "materials() -> list[str]: the material keys of the tables found (\"KBvK\", ...), sorted.")
      .def_property_readonly(
          "max_men", [self_of](py::handle t) { return self_of(t).max_men(); },
          "Largest number of men (kings included) among the tables found (int).")
      .def_property_readonly(
          "cache_bytes", [self_of](py::handle t) { return self_of(t).cache_bytes(); },
          "The decompressed-block cache limit in use, bytes (int): cache_mb, or the machine's default.")
      .def_property_readonly(
          "dirs", [self_of](py::handle t) { return self_of(t).dirs(); }, "The table directories, as given (list[str]).")
      .def("__repr__", [self_of](py::handle self) {
        const PyTablebase& t = self_of(self);
        std::string d;
        for (const auto& x : t.dirs()) d += (d.empty() ? "'" : ", '") + shown_text(x, 200) + "'";
        return "<deadpos.Tablebase [" + d + "], " + std::to_string(t.materials().size()) + " tables>";
      });
  // pybind11 skips a second __init__ on an object already initialised (it cannot construct the C++
  // value twice): tb.__init__(other_dir) would silently keep the tables opened first. It is refused.
  py::object cls = m.attr("Tablebase");
  py::object init = cls.attr("__init__");
  cls.attr("__init__") = py::cpp_function(
      [init](py::handle self, const py::args& args, const py::kwargs& kwargs) {
        if (py::isinstance<PyTablebase>(self)) {
          auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
          const py::detail::value_and_holder v_h =
              inst->get_value_and_holder(py::detail::get_type_info(typeid(PyTablebase)));
          if (v_h && v_h.holder_constructed())
            throw py::type_error("deadpos.Tablebase is already initialised: make a new Tablebase for other tables");
        }
        init(self, *args, **kwargs);
      },
      // Not named "__init__": pybind11 would take it for a constructor and skip it the same way.
      py::name("checked_init"), py::is_method(cls), py::doc(py::str(init.attr("__doc__")).cast<std::string>().c_str()));
}
