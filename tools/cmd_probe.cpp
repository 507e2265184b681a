// deadpos probe [--tables DIR]... [options] [FEN...]: answer positions (docs/cli.md, "deadpos probe").
// Every input gives exactly one output line, in input order, rendered by cli.h.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli.h"
#include "commands.h"
#include "deadpos/notation.h"
#include "deadpos/table_directory.h"

namespace deadpos::cli {

namespace {

struct Args {
  std::vector<std::string> dirs;
  std::vector<std::string> fens;
  std::string epd;
  bool json = false;
  bool line = false;
  std::string flag;  // "", "white", "black", "stm"
  bool both_sides = false;
  bool cha = false;  // --cha: lines "FEN white|black", answers "winnable <uci line>" | "unwinnable" | "undetermined"
  AnalysisOptions analysis;
  std::int64_t cache_mb = -1;  // -1: not given, Tablebase::default_cache_bytes()
  std::int64_t budget_mb = 512;
  CLI::Option* epd_opt = nullptr;
};

class Prober {
 public:
  // `tb` null: every input is answered with `no_tables` (the table directory is missing or empty).
  Prober(const Tablebase* tb, std::optional<Error> no_tables, const Args& a)
      : tb_(tb), no_tables_(std::move(no_tables)), a_(a) {}

  // Answers one input; prints exactly one line. False when standard output failed (stop reading).
  bool answer(std::string_view input) {
    if (a_.cha) return answer_cha(input);
    if (no_tables_) {
      fail(input, *no_tables_);
    } else if (auto r = analyze(input); r) {
      tally_.add(*r);
      std::cout << (a_.json ? json_line(probe_json(input, *r)) : probe_text(*r)) << '\n';
    } else {
      fail(input, r.error());
    }
    return output_ok();
  }

  // Reads one input per line ('\n'; a '\r' before it is dropped): blank lines and '#' comments are
  // skipped, a UTF-8 byte order mark at the start of the stream is not part of the first line.
  bool answer_stream(std::istream& in) {
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
      if (first && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
      first = false;
      const auto b = line.find_first_not_of(" \t\r");
      if (b == std::string::npos || line[b] == '#') continue;
      const auto e = line.find_last_not_of(" \t\r");
      if (!answer(std::string_view(line).substr(b, e - b + 1))) return false;
    }
    return true;
  }

  const ProbeTally& tally() const { return tally_; }

 private:
  // --cha (docs/cli.md, "--cha"): "FEN white|black" -> can that side checkmate? One line, the
  // verdict word first: "winnable <UCI moves of a helpmate line>" (none for a mate on the board),
  // "unwinnable", "undetermined", or "error <category>: <message>" for an input that cannot be
  // answered.
  bool answer_cha(std::string_view input) {
    const auto cut = input.find_last_of(" \t");
    const std::string_view word = cut == std::string_view::npos ? std::string_view{} : input.substr(cut + 1);
    std::optional<Error> err = no_tables_;
    if (!err && word != "white" && word != "black") {
      err =
          make_error(ErrorCode::InvalidArgument,
                     "'" + shown_text(input, 120) + "': expected 'FEN white' or 'FEN black' (the side that would win)");
    }
    if (!err) {
      const Color winner = word == "white" ? Color::White : Color::Black;
      auto pos = Position::from_fen(fen_of_epd_line(input.substr(0, cut)));
      if (!pos) {
        err = pos.error();
      } else if (auto r = answers::answer(*tb_, *pos, answers::Request{~winner, true, a_.analysis, false}); !r) {
        err = r.error();
      } else {
        // analyze_flag with the loser "flagged" asks exactly "can the loser be mated?".
        tally_.add(*r);
        const MateAnswer& m = r->analysis.mate[~winner];
        const std::optional<bool> can = m.can_mate();
        std::string out = !can ? "undetermined" : *can ? "winnable" : "unwinnable";
        if (can && *can)
          for (const Move mv : m.line) out += " " + to_uci(mv);
        std::cout << out << '\n';
      }
    }
    if (err) {
      tally_.add(*err);
      std::cout << "error " << error_code_name(err->code) << ": " << err->message << '\n';
    }
    return output_ok();
  }

  Result<ProbeAnswer> analyze(std::string_view input) const {
    auto pos = Position::from_fen(fen_of_epd_line(input));
    if (!pos) return pos.error();
    answers::Request req{std::nullopt, a_.line, a_.analysis, a_.both_sides};
    if (!a_.flag.empty()) {
      req.flagged = a_.flag == "white" ? Color::White : a_.flag == "black" ? Color::Black : pos->side_to_move();
    }
    return answers::answer(*tb_, *pos, req);
  }

  void fail(std::string_view input, const Error& e) {
    tally_.add(e);
    std::cout << (a_.json ? json_line(probe_error_json(input, e)) : probe_error_text(input, e)) << '\n';
  }

  const Tablebase* tb_;
  std::optional<Error> no_tables_;
  const Args& a_;
  ProbeTally tally_;
};

int run_probe(Args& a) {
  if (a.epd_opt->count() > 0 && a.epd.empty()) {
    std::cerr << "deadpos: usage: --epd needs a file name ('-' for standard input) (see deadpos --help)\n";
    return kExitUsage;
  }
  if (a.dirs.empty()) a.dirs.push_back("tables");
  a.analysis.budget.memory_bytes = static_cast<std::size_t>(a.budget_mb) << 20;
  Tablebase::Options topt;
  if (a.cache_mb >= 0) topt.cache_bytes = static_cast<std::size_t>(a.cache_mb) << 20;
  auto tb = Tablebase::open(a.dirs, topt);
  // Without tables every input still gets its line (the error), then the exit code says why.
  std::optional<Error> no_tables;
  if (!tb) {
    no_tables = tb.error();
  } else if (tb->max_men() == 0) {
    no_tables = no_tables_error(a.dirs);
  }
  if (no_tables) report(*no_tables);
  Prober p(tb ? &*tb : nullptr, no_tables, a);
  bool ok = true;
  for (const auto& f : a.fens) {
    if (!(ok = p.answer(f))) break;
  }
  // An input file that cannot be opened or read is reported after the inputs before it were
  // answered; the summary still comes, and the exit code is the first error's in input order.
  std::optional<Error> input_error;
  if (ok && !a.epd.empty() && a.epd != "-") {
    std::error_code ec;
    std::ifstream in;
    if (std::filesystem::is_directory(a.epd, ec)) {
      input_error = make_error(ErrorCode::Io, a.epd + ": is a directory, not an EPD file");
    } else if (in.open(a.epd); !in) {
      // ifstream opens through open(2), which leaves the reason in errno.
      input_error = make_error(ErrorCode::Io, a.epd + ": cannot open: " + std::strerror(errno));
    } else {
      ok = p.answer_stream(in);
      if (in.bad()) input_error = make_error(ErrorCode::Io, a.epd + ": read error: " + std::strerror(errno));
    }
  } else if (ok && (a.epd == "-" || (a.epd.empty() && a.fens.empty()))) {
    // A closed standard input (`<&-`) or a directory is an error, not an empty input.
    if (const auto why = standard_input_problem()) {
      input_error = make_error(ErrorCode::Io, "standard input: " + *why);
    } else {
      ok = p.answer_stream(std::cin);
      if (std::cin.bad()) input_error = make_error(ErrorCode::Io, "standard input: read error");
    }
  }
  const ProbeTally& t = p.tally();
  if (ok && !a.json && !a.cha && t.answered + t.errors > 1) std::cout << summary_text(t, !a.flag.empty()) << '\n';
  if (const int rc = finish_output()) return rc;
  if (input_error) {
    const int rc = report(*input_error);
    return t.first_error_code ? t.first_error_code : rc;
  }
  // No input at all: the tables' error (reported above) still decides the exit code, never 0.
  if (t.first_error_code == 0 && no_tables) return exit_code(no_tables->code);
  return t.first_error_code;
}

}  // namespace

Subcommand add_probe(CLI::App& app) {
  auto a = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("probe", "Answer positions: dead?, who can mate, flag-fall verdict (FIDE 5.2.2, 6.9)");
  cmd->add_option("fens", a->fens, "positions in FEN (quote each); none: read --epd or standard input");
  cmd->add_option("--tables", a->dirs, "table directory (repeatable; default: tables)")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  a->epd_opt = cmd->add_option("--epd", a->epd, "file with one FEN or EPD per line ('-': standard input)");
  cmd->add_flag("--json", a->json, "one JSON object per line");
  cmd->add_option("--flag", a->flag, "whose flag fell: white, black or stm (the side to move)")
      ->check(CLI::IsMember({"white", "black", "stm"}));
  cmd->add_flag("--both-sides", a->both_sides,
                "with --flag: also answer the flagged side's own question when the verdict does not need it "
                "(default: it is 'not asked' when the opponent can mate or that is undetermined)")
      ->needs("--flag");
  cmd->add_flag("--line", a->line,
                "print a shortest helpmate line (SAN and UCI) for each side that can be mated (with --flag: the "
                "flagged side's opponent's mate)");
  cmd->add_flag("--cha", a->cha,
                "CHA's protocol: each input line 'FEN white|black' gets one line 'winnable <UCI helpmate line>', "
                "'unwinnable' or 'undetermined' (can that side checkmate?), in order")
      ->excludes("--json")
      ->excludes("--flag")
      ->excludes("--line");
  cmd->add_option("--budget-nodes", a->analysis.budget.nodes,
                  "beyond the tables: positions the search may generate per side, 0 = no limit (default 2000000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  cmd->add_option("--budget-ms", a->analysis.budget.time_ms,
                  "beyond the tables: milliseconds the search may take per side, 0 = no limit (default 0)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{86'400'000}));
  cmd->add_option("--budget-mb", a->budget_mb,
                  "beyond the tables: MiB the search may store per side, 1..1048576 (default 512)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 20));
  cmd->add_option("--cache-mb", a->cache_mb,
                  "decompressed-block cache limit in MiB, 0..1048576 (default: 1/8 of the memory, 256..4096)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 20));
  return {cmd, [a] { return run_probe(*a); }};
}

}  // namespace deadpos::cli
