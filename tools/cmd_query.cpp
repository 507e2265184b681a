// deadpos query MATERIAL... [--tables DIR]... [filters] [--count | --fen | --json] [--limit N]
// [--threads T]: the positions of whole tables that satisfy every filter, or their number
// (docs/cli.md, "deadpos query"). The scan and the filters are core/ (deadpos/query.h); this file
// parses the arguments and prints.
#include <charconv>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cli.h"
#include "commands.h"
#include "deadpos/query.h"
#include "progress.h"

namespace deadpos::cli {

namespace {

struct Args {
  std::vector<std::string> keys;
  std::vector<std::string> dirs;
  std::string stm, white_can_mate, black_can_mate, dthm_white, dthm_black, bishops, white_bishops, black_bishops;
  bool dead = false, checkmate = false, stalemate = false, dead_not_by_material = false, weaker = false;
  bool count = false, fen = false, json = false;
  std::uint64_t limit = 0;
  int threads = 0;
  CLI::Option* limit_opt = nullptr;
  CLI::Option* dthm_white_opt = nullptr;
  CLI::Option* dthm_black_opt = nullptr;
};

int usage(const std::string& what) {
  std::cerr << "deadpos: usage: " << one_line(what) << " (see deadpos --help)\n";
  return kExitUsage;
}

// "N", "A..", "..B" or "A..B" in plies, 0..kMaxDthm.
std::optional<PlyRange> parse_range(const std::string& s) {
  auto number = [](std::string_view t, int& out) {
    if (t.empty() || t.size() > 3) return false;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
    return r.ec == std::errc() && r.ptr == t.data() + t.size() && out >= 0 && out <= DthmCode::kMaxDthm;
  };
  PlyRange r;
  const auto dots = s.find("..");
  if (dots == std::string::npos) {
    if (!number(s, r.lo)) return std::nullopt;
    r.hi = r.lo;
    return r;
  }
  const std::string_view lo = std::string_view(s).substr(0, dots), hi = std::string_view(s).substr(dots + 2);
  if (lo.empty() && hi.empty()) return std::nullopt;
  if (!lo.empty() && !number(lo, r.lo)) return std::nullopt;
  if (!hi.empty() && !number(hi, r.hi)) return std::nullopt;
  if (r.lo > r.hi) return std::nullopt;
  return r;
}

BishopShade shade_of(const std::string& s) {
  if (s == "light") return BishopShade::Light;
  if (s == "dark") return BishopShade::Dark;
  if (s == "mixed") return BishopShade::Mixed;
  return BishopShade::Any;
}

const char* side_id(Color c) { return c == Color::White ? "white" : "black"; }

struct Target {
  Material material;  // as the user gave it (maybe colour-swapped)
  TableFile table;
};

int run_query_command(Args& a) {
  if (a.fen && a.json) return usage("--fen and --json exclude each other");
  if (a.count && a.fen) return usage("--count and --fen exclude each other");
  const bool count = a.count || (!a.fen && !a.json);
  if (count && a.limit_opt->count() > 0)
    return usage("--limit applies to the listings (--fen, --json), not to --count");
  QueryFilter f;
  if (!a.stm.empty()) f.side_to_move = a.stm == "white" ? Color::White : Color::Black;
  f.dead = a.dead;
  if (!a.white_can_mate.empty()) f.can_mate[Color::White] = a.white_can_mate == "yes";
  if (!a.black_can_mate.empty()) f.can_mate[Color::Black] = a.black_can_mate == "yes";
  for (const auto& [text, opt, side, name] :
       {std::tuple{&a.dthm_white, a.dthm_white_opt, Color::White, "--dthm-white-mated"},
        std::tuple{&a.dthm_black, a.dthm_black_opt, Color::Black, "--dthm-black-mated"}}) {
    if (opt->count() == 0) continue;
    const auto r = parse_range(*text);
    if (!r) {
      return usage(std::string(name) + ": bad range \"" + *text +
                   "\" (plies: N, A.., ..B or A..B with 0 <= A <= B <= " + std::to_string(DthmCode::kMaxDthm) + ")");
    }
    f.dthm_mated[side] = *r;
  }
  f.checkmate = a.checkmate;
  f.stalemate = a.stalemate;
  if (!a.bishops.empty()) f.bishops = a.bishops == "same" ? BishopPair::Same : BishopPair::Opposite;
  f.bishop_shade[Color::White] = shade_of(a.white_bishops);
  f.bishop_shade[Color::Black] = shade_of(a.black_bishops);
  f.dead_not_by_material = a.dead_not_by_material;
  f.only_weaker_side_can_mate = a.weaker;

  // Every key and every table first, so that a bad key or a missing table fails before any output.
  std::vector<Target> targets;
  for (const auto& key : a.keys) {
    auto checked = parse_materials({key});
    if (!checked) return report(checked.error());
    const Material m = *Material::parse(key);
    const Material canon = m.canonical();
    std::optional<std::string> path;
    for (const auto& d : a.dirs) {
      const std::string p = TableDirectory(d).table_path(canon);
      auto exists = regular_file_exists(p);
      if (!exists) return report(exists.error());
      if (*exists) {
        path = p;
        break;
      }
    }
    if (!path) {
      std::string d;
      for (const auto& x : a.dirs) d += (d.empty() ? "" : ", ") + x;
      return report(make_error(ErrorCode::MissingTable, "no table " + TableDirectory::table_file_name(canon) + " for " +
                                                            key + " in " + d + "; build it with: deadpos generate " +
                                                            canon.key() + " --out " + a.dirs.front()));
    }
    auto t = TableFile::open(*path, canon, FileCheck::HeaderOnly);
    if (!t) return report(t.error());
    targets.push_back(Target{m, std::move(*t)});
  }

  QueryCounts total;
  std::uint64_t listed = 0;
  bool out_failed = false;
  for (const Target& tg : targets) {
    const std::string key = tg.material.key();
    std::function<bool(const QueryMatch&)> on_match;
    if (!count) {
      on_match = [&](const QueryMatch& m) {
        if (a.json) {
          nlohmann::json j;
          j["material"] = key;
          j["index"] = m.index;
          j["fen"] = m.position.to_fen();
          j["side_to_move"] = side_id(m.position.side_to_move());
          const auto& d = m.dthm_mated;
          j["dead"] = !d[Color::White] && !d[Color::Black];
          j["white_can_mate"] = d[Color::Black].has_value();
          j["black_can_mate"] = d[Color::White].has_value();
          j["dthm_white_mated_plies"] = d[Color::White] ? nlohmann::json(*d[Color::White]) : nlohmann::json(nullptr);
          j["dthm_black_mated_plies"] = d[Color::Black] ? nlohmann::json(*d[Color::Black]) : nlohmann::json(nullptr);
          j["positions"] = m.positions;
          std::cout << json_line(j) << '\n';
        } else {
          std::cout << m.position.to_fen() << '\n';
        }
        ++listed;
        if ((listed & 1023) == 0 && !output_ok()) {
          out_failed = true;
          return false;
        }
        return a.limit == 0 || listed < a.limit;
      };
    }
    auto r = run_query(tg.table, tg.material, f, a.threads, on_match);
    if (!r) return report(r.error());
    if (out_failed) break;
    for (Color c : {Color::White, Color::Black}) {
      total.positions[c] += r->positions[c];
      total.entries[c] += r->entries[c];
    }
    if (count) {
      if (a.json) {
        nlohmann::json j;
        j["material"] = key;
        j["table"] = tg.table.material().key();
        j["positions"] = r->total_positions();
        j["white_to_move"] = r->positions[Color::White];
        j["black_to_move"] = r->positions[Color::Black];
        j["entries"] = r->total_entries();
        j["unit"] = "raw positions";
        std::cout << json_line(j) << '\n';
      } else {
        std::cout << key << ": " << r->total_positions() << " raw positions (white to move "
                  << r->positions[Color::White] << ", black to move " << r->positions[Color::Black] << "), "
                  << r->total_entries() << " table entries\n";
      }
    }
    if (a.limit != 0 && listed >= a.limit) break;
  }
  if (count && !a.json && targets.size() > 1) {
    std::cout << "total: " << total.total_positions() << " raw positions (white to move "
              << total.positions[Color::White] << ", black to move " << total.positions[Color::Black] << "), "
              << total.total_entries() << " table entries\n";
  }
  return finish_output();
}

}  // namespace

Subcommand add_query(CLI::App& app) {
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "query", "Positions of whole tables that satisfy every filter, or their number (raw positions)");
  cmd->add_option("materials", a->keys,
                  "material keys, e.g. KBvKN (a colour-swapped key such as KNvKB is answered "
                  "from the canonical table in the colours given)")
      ->required();
  cmd->add_option("--tables", a->dirs, "table directory (repeatable, searched in order; default: tables)")
      ->allow_extra_args(false)
      ->check(kNonEmpty);
  cmd->add_option("--stm", a->stm, "side to move: white or black")->check(CLI::IsMember({"white", "black"}));
  cmd->add_flag("--dead", a->dead, "dead positions: neither side can checkmate (FIDE 5.2.2)");
  cmd->add_option("--white-can-mate", a->white_can_mate, "yes or no: White can checkmate by some legal sequence")
      ->check(CLI::IsMember({"yes", "no"}));
  cmd->add_option("--black-can-mate", a->black_can_mate, "yes or no: Black can checkmate by some legal sequence")
      ->check(CLI::IsMember({"yes", "no"}));
  a->dthm_white_opt =
      cmd->add_option("--dthm-white-mated", a->dthm_white,
                      "shortest helpmate of White in plies: N, A.., ..B or A..B (0..250; none never matches)");
  a->dthm_black_opt =
      cmd->add_option("--dthm-black-mated", a->dthm_black,
                      "shortest helpmate of Black in plies: N, A.., ..B or A..B (0..250; none never matches)");
  cmd->add_flag("--checkmate", a->checkmate, "the side to move is checkmated");
  cmd->add_flag("--stalemate", a->stalemate, "the side to move is stalemated");
  cmd->add_option("--bishops", a->bishops,
                  "same: at least two bishops, all on one square colour; opposite: bishops on both colours")
      ->check(CLI::IsMember({"same", "opposite"}));
  cmd->add_option("--white-bishops", a->white_bishops, "light, dark or mixed: square colours of White's bishops")
      ->check(CLI::IsMember({"light", "dark", "mixed"}));
  cmd->add_option("--black-bishops", a->black_bishops, "light, dark or mixed: square colours of Black's bishops")
      ->check(CLI::IsMember({"light", "dark", "mixed"}));
  cmd->add_flag("--dead-not-by-material", a->dead_not_by_material,
                "dead, although positions of the same material and bishop-colour class can mate");
  cmd->add_flag("--only-weaker-can-mate", a->weaker,
                "only the side with less material (Q9 R5 B3 N3 P1) can mate; equal material never matches");
  cmd->add_flag("--count", a->count, "print the number of raw positions per material (the default)");
  cmd->add_flag("--fen", a->fen, "list one FEN per matching table entry, in index order");
  cmd->add_flag("--json", a->json, "one JSON object per matching entry (with --count: per material)");
  a->limit_opt = cmd->add_option("--limit", a->limit, "list at most N entries in all, 1..2^62")
                     ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 62));
  cmd->add_option("--threads", a->threads, "OpenMP threads, 1..1024 (default: all cores)")->check(CLI::Range(1, 1024));
  return {cmd, [a] {
            if (a->dirs.empty()) a->dirs.push_back("tables");
            return run_query_command(*a);
          }};
}

}  // namespace deadpos::cli
