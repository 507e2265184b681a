// The files of `deadpos atlas` (tools/atlas_report.h). Text rendering only: the numbers come from
// deadpos/atlas.h.
#include "atlas_report.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "deadpos/notation.h"

namespace deadpos::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFormat = "deadpos-atlas";

const char* side_id(Color c) { return c == Color::White ? "white" : "black"; }
const char* side_name(Color c) { return c == Color::White ? "White" : "Black"; }

double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string percent(double v) { return fixed(100.0 * v, 2) + " %"; }

std::string escape(std::string_view s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '"': r += "&quot;"; break;
      default: r += c;
    }
  }
  return r;
}

// 1234567 -> "1 234 567" (thin spaces in HTML).
std::string grouped(std::uint64_t n) {
  std::string d = std::to_string(n), r;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (i > 0 && (d.size() - i) % 3 == 0) r += "&#8201;";
    r += d[i];
  }
  return r;
}

std::uint64_t total(const AtlasMaterial& m, std::uint64_t AtlasSide::*field) {
  return m.by_stm[Color::White].*field + m.by_stm[Color::Black].*field;
}

nlohmann::json deepest_json(const AtlasDeepest& d) {
  if (d.plies < 0) return nullptr;
  nlohmann::json j;
  j["plies"] = d.plies;
  j["index"] = d.index;
  j["fen"] = d.position.to_fen();
  j["line_san"] = d.san;
  j["line"] = format_line(d.position, d.line);
  return j;
}

nlohmann::json side_json(const AtlasSide& s) {
  nlohmann::json j;
  j["positions"] = s.positions;
  j["dead"] = s.dead;
  j["dead_share"] = share(s.dead, s.positions);
  j["dead_not_by_material"] = s.dead_not_by_material;
  j["checkmates"] = s.checkmates;
  for (Color x : {Color::White, Color::Black}) {
    const std::string id = side_id(x);
    j[id + "_can_mate"] = s.can_mate[x];
    j[id + "_can_mate_share"] = share(s.can_mate[x], s.positions);
    j["dthm_histogram_" + id + "_mated"] = s.dthm_histogram[x];
    j["deepest_" + id + "_mated"] = deepest_json(s.deepest[x]);
  }
  return j;
}

struct Ranked {
  const AtlasMaterial* m;
  Color stm, mated;
  const AtlasDeepest* d;
};

// Every deepest helpmate, deepest first; ties by material key, side to move, mated side.
std::vector<Ranked> ranking(const std::vector<AtlasMaterial>& ms) {
  std::vector<Ranked> r;
  for (const auto& m : ms)
    for (Color stm : {Color::White, Color::Black})
      for (Color x : {Color::White, Color::Black})
        if (m.by_stm[stm].deepest[x].plies >= 0) r.push_back({&m, stm, x, &m.by_stm[stm].deepest[x]});
  std::stable_sort(r.begin(), r.end(), [](const Ranked& a, const Ranked& b) { return a.d->plies > b.d->plies; });
  return r;
}

// The deepest helpmate of a material (first of ranking order).
const Ranked* best_of(const std::vector<Ranked>& r, const AtlasMaterial& m) {
  for (const auto& x : r)
    if (x.m == &m) return &x;
  return nullptr;
}

std::string file_base(const std::string& table) {
  const auto slash = table.find_last_of('/');
  return slash == std::string::npos ? table : table.substr(slash + 1);
}

// ---- HTML pieces --------------------------------------------------------------------------

const char* kCss =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1150px}"
    "h1{font-size:26px}h2{font-size:20px;margin-top:28px}"
    "table.n{border-collapse:collapse;font-size:13px}"
    "table.n td,table.n th{border:1px solid #ccc;padding:3px 7px;text-align:right}"
    "table.n th{background:#eee}table.n td.l,table.n th.l{text-align:left}"
    "table.b{border-collapse:collapse;border:2px solid #444;table-layout:fixed;width:276px;flex:none;margin:4px 16px "
    "4px 0}"
    "table.b "
    "td{width:34px;min-width:34px;max-width:34px;height:34px;text-align:center;font-size:27px;padding:0;line-height:"
    "34px;overflow:hidden}"
    "td.w{background:#f0d9b5}td.d{background:#b58863}"
    ".ex{display:flex;align-items:flex-start;margin:10px 0 18px}.ex div{max-width:820px}"
    ".mono{font-family:monospace;font-size:13px}.small{font-size:13px;color:#555}";

std::string page_head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escape(title) +
         "</title>\n<style>" + kCss + "</style>\n</head>\n<body>\n";
}

std::string board_html(const Position& pos) {
  std::string s = "<table class=\"b\">";
  for (int r = 7; r >= 0; --r) {
    s += "<tr>";
    for (int f = 0; f < 8; ++f) {
      const Piece p = pos.piece_on(square_at(r * 8 + f));
      s += (r + f) % 2 == 1 ? "<td class=\"w\">" : "<td class=\"d\">";
      if (p != kNoPiece) {
        static const int base[] = {9817, 9816, 9815, 9814, 9813, 9812};  // by PieceType: P N B R Q K
        const int t = static_cast<int>(type_of(p));
        const int code = base[t] + (color_of(p) == Color::Black ? 6 : 0);
        s += "&#" + std::to_string(code) + ";";
      }
      s += "</td>";
    }
    s += "</tr>";
  }
  return s + "</table>";
}

std::string example_html(const AtlasMaterial& m, Color stm, Color x) {
  const AtlasDeepest& d = m.by_stm[stm].deepest[x];
  std::string s = "<div class=\"ex\">" + board_html(d.position) + "<div><b>" + m.material.key() + ", " +
                  side_name(stm) + " to move: " + side_name(x) + " is helpmated in " + std::to_string(d.plies) +
                  " plies</b><br><span class=\"mono\">" + escape(d.position.to_fen()) + "</span><br><br>" +
                  escape(format_line(d.position, d.line)) + "</div></div>\n";
  return s;
}

// ---- SVG ----------------------------------------------------------------------------------

std::string svg_head(int w, int h) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) +
         "\" viewBox=\"0 0 " + std::to_string(w) + " " + std::to_string(h) +
         "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

// DTHM histogram of `x` mated, both sides to move, raw positions on a log scale.
std::string histogram_svg(const AtlasMaterial& m, Color x) {
  const auto& hw = m.by_stm[Color::White].dthm_histogram[x];
  const auto& hb = m.by_stm[Color::Black].dthm_histogram[x];
  const std::size_t n = std::max(hw.size(), hb.size());
  std::uint64_t top = 1;
  for (auto v : hw) top = std::max(top, v);
  for (auto v : hb) top = std::max(top, v);
  const int W = 760, H = 300, L = 70, R = 20, T = 34, B = 44;
  const double pw = W - L - R, ph = H - T - B;
  const int decades = static_cast<int>(std::ceil(std::log10(static_cast<double>(top) + 1.0)));
  const double ymax = std::max(1, decades);
  auto y_of = [&](std::uint64_t v) { return std::log10(static_cast<double>(v) + 1.0) / ymax * ph; };
  std::string s = svg_head(W, H);
  s += "<text x=\"" + std::to_string(L) + "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">" + m.material.key() +
       ": DTHM of " + side_name(x) + " (plies until " + side_name(x) +
       " is helpmated), raw positions, log scale</text>\n";
  for (int d = 0; d <= decades; ++d) {
    const double y = T + ph - d / ymax * ph;
    s += "<line x1=\"" + std::to_string(L) + "\" x2=\"" + std::to_string(W - R) + "\" y1=\"" + fixed(y, 1) +
         "\" y2=\"" + fixed(y, 1) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + std::to_string(L - 6) + "\" y=\"" + fixed(y + 4, 1) + "\" text-anchor=\"end\">1e" +
         std::to_string(d) + "</text>\n";
  }
  if (n > 0) {
    const double gw = pw / static_cast<double>(n);
    for (std::size_t p = 0; p < n; ++p) {
      for (int k = 0; k < 2; ++k) {
        const auto& h = k == 0 ? hw : hb;
        const std::uint64_t v = p < h.size() ? h[p] : 0;
        if (v == 0) continue;
        const double bh = y_of(v);
        const double bx = L + gw * static_cast<double>(p) + gw * (0.1 + 0.4 * k);
        s += "<rect x=\"" + fixed(bx, 2) + "\" y=\"" + fixed(T + ph - bh, 2) + "\" width=\"" + fixed(gw * 0.4, 2) +
             "\" height=\"" + fixed(bh, 2) + "\" fill=\"" + (k == 0 ? "#4a7bd0" : "#d9822b") + "\"><title>" +
             std::to_string(p) + " plies, " + (k == 0 ? "White" : "Black") + " to move: " + std::to_string(v) +
             "</title></rect>\n";
      }
    }
    const std::size_t step = n <= 20 ? 1 : n <= 50 ? 5 : 10;
    for (std::size_t p = 0; p < n; p += step) {
      s += "<text x=\"" + fixed(L + gw * (static_cast<double>(p) + 0.5), 1) + "\" y=\"" + std::to_string(H - B + 14) +
           "\" text-anchor=\"middle\">" + std::to_string(p) + "</text>\n";
    }
  } else {
    s += "<text x=\"" + std::to_string(L + 20) + "\" y=\"" + std::to_string(T + 40) + "\">" + side_name(x) +
         " can never be checkmated in this ending</text>\n";
  }
  s += "<text x=\"" + std::to_string(L + static_cast<int>(pw / 2)) + "\" y=\"" + std::to_string(H - 8) +
       "\" text-anchor=\"middle\">plies</text>\n";
  s += "<rect x=\"" + std::to_string(W - 230) + "\" y=\"26\" width=\"10\" height=\"10\" fill=\"#4a7bd0\"/><text x=\"" +
       std::to_string(W - 216) + "\" y=\"35\">White to move</text>\n";
  s += "<rect x=\"" + std::to_string(W - 130) + "\" y=\"26\" width=\"10\" height=\"10\" fill=\"#d9822b\"/><text x=\"" +
       std::to_string(W - 116) + "\" y=\"35\">Black to move</text>\n";
  return s + "</svg>\n";
}

// Dead share (both sides to move) by material, one bar each.
std::string dead_share_svg(const std::vector<AtlasMaterial>& ms) {
  const int row = 15, L = 90, R = 80, T = 30, W = 760;
  const int H = T + row * static_cast<int>(ms.size()) + 30;
  const double pw = W - L - R;
  std::string s = svg_head(W, H);
  s += "<text x=\"" + std::to_string(L) +
       "\" y=\"18\" font-size=\"13\" font-weight=\"bold\">Dead positions (FIDE 5.2.2) by material, share of all "
       "raw positions</text>\n";
  for (int k = 0; k <= 4; ++k) {
    const double x = L + pw * k / 4.0;
    s += "<line x1=\"" + fixed(x, 1) + "\" x2=\"" + fixed(x, 1) + "\" y1=\"" + std::to_string(T - 4) + "\" y2=\"" +
         std::to_string(H - 24) + "\" stroke=\"#ddd\"/><text x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(H - 10) +
         "\" text-anchor=\"middle\">" + std::to_string(25 * k) + " %</text>\n";
  }
  for (std::size_t i = 0; i < ms.size(); ++i) {
    const auto& m = ms[i];
    const double v = share(total(m, &AtlasSide::dead), total(m, &AtlasSide::positions));
    const int y = T + row * static_cast<int>(i);
    s += "<text x=\"" + std::to_string(L - 6) + "\" y=\"" + std::to_string(y + 11) + "\" text-anchor=\"end\">" +
         m.material.key() + "</text>\n";
    s += "<rect x=\"" + std::to_string(L) + "\" y=\"" + std::to_string(y + 2) + "\" width=\"" + fixed(pw * v, 2) +
         "\" height=\"" + std::to_string(row - 4) + "\" fill=\"#8a5fbf\"/>\n";
    s +=
        "<text x=\"" + fixed(L + pw * v + 4, 1) + "\" y=\"" + std::to_string(y + 11) + "\">" + percent(v) + "</text>\n";
  }
  return s + "</svg>\n";
}

std::string svg_name(const AtlasMaterial& m, Color x) {
  return "svg/" + m.material.key() + "-" + side_id(x) + "-mated.svg";
}

std::string material_page(const AtlasMaterial& m) {
  const std::string key = m.material.key();
  std::string s = page_head("deadpos atlas: " + key);
  s += "<p class=\"small\"><a href=\"../index.html\">deadpos atlas</a> &rsaquo; " + key + "</p>\n<h1>" + key +
       "</h1>\n<table class=\"n\"><tr><th class=\"l\"></th><th>White to move</th><th>Black to move</th></tr>\n";
  auto row = [&](const std::string& name, auto f) {
    s += "<tr><td class=\"l\">" + name + "</td><td>" + f(m.by_stm[Color::White]) + "</td><td>" +
         f(m.by_stm[Color::Black]) + "</td></tr>\n";
  };
  row("raw positions", [](const AtlasSide& a) { return grouped(a.positions); });
  row("dead (FIDE 5.2.2)",
      [](const AtlasSide& a) { return grouped(a.dead) + " (" + percent(share(a.dead, a.positions)) + ")"; });
  row("dead by forced lines, not by material", [](const AtlasSide& a) { return grouped(a.dead_not_by_material); });
  row("White can mate", [](const AtlasSide& a) {
    return grouped(a.can_mate[Color::White]) + " (" + percent(share(a.can_mate[Color::White], a.positions)) + ")";
  });
  row("Black can mate", [](const AtlasSide& a) {
    return grouped(a.can_mate[Color::Black]) + " (" + percent(share(a.can_mate[Color::Black], a.positions)) + ")";
  });
  row("checkmates", [](const AtlasSide& a) { return grouped(a.checkmates); });
  for (Color x : {Color::White, Color::Black}) {
    row(std::string("deepest helpmate of ") + side_name(x), [x](const AtlasSide& a) {
      return a.deepest[x].plies < 0 ? std::string("none") : std::to_string(a.deepest[x].plies) + " plies";
    });
  }
  s += "</table>\n";
  for (Color x : {Color::White, Color::Black}) {
    s += "<h2>" + std::string(side_name(x)) + " helpmated</h2>\n<img src=\"../" + svg_name(m, x) +
         "\" alt=\"DTHM histogram of " + side_name(x) + "\">\n";
    for (Color stm : {Color::White, Color::Black})
      if (m.by_stm[stm].deepest[x].plies >= 0) s += example_html(m, stm, x);
  }
  s += "<p class=\"small\">Counts are raw positions (every placement of the men once, no symmetry reduction; "
       "no castling or en passant rights). The example of a deepest helpmate is the first such position in "
       "the table's index order; its line is one shortest helpmate.</p>\n";
  return s + "</body>\n</html>\n";
}

std::string index_page(const std::vector<AtlasMaterial>& ms, const std::vector<Ranked>& rank) {
  std::string s = page_head("deadpos atlas");
  std::uint64_t positions = 0, dead = 0;
  for (const auto& m : ms) {
    positions += total(m, &AtlasSide::positions);
    dead += total(m, &AtlasSide::dead);
  }
  int men = 0;
  for (const auto& m : ms) men = std::max(men, m.material.men());
  s += "<h1>deadpos atlas: helpmates and dead positions of " + std::to_string(ms.size()) + " endings (up to " +
       std::to_string(men) + " men)</h1>\n<p>" + grouped(positions) + " raw positions, " + grouped(dead) +
       " of them dead (" + percent(share(dead, positions)) +
       "). Numbers also in <a href=\"atlas.json\">atlas.json</a> and <a href=\"atlas.csv\">atlas.csv</a>.</p>\n";
  if (!rank.empty()) {
    s += "<h2>The deepest helpmate</h2>\n" + example_html(*rank.front().m, rank.front().stm, rank.front().mated);
  }
  s +=
      "<h2>Deepest helpmate of each ending, ranked</h2>\n<table class=\"n\"><tr><th>#</th><th class=\"l\">material</th>"
      "<th>plies</th><th class=\"l\">mated</th><th class=\"l\">to move</th><th class=\"l\">example</th>"
      "<th>positions</th><th>dead</th></tr>\n";
  std::vector<const Ranked*> best;
  for (const auto& r : rank)
    if (best_of(rank, *r.m) == &r) best.push_back(&r);
  int i = 0;
  for (const Ranked* r : best) {
    const auto& m = *r->m;
    const std::string key = m.material.key();
    s += "<tr><td>" + std::to_string(++i) + "</td><td class=\"l\"><a href=\"materials/" + key + ".html\">" + key +
         "</a></td><td>" + std::to_string(r->d->plies) + "</td><td class=\"l\">" + side_name(r->mated) +
         "</td><td class=\"l\">" + side_name(r->stm) + "</td><td class=\"l mono\">" + escape(r->d->position.to_fen()) +
         "</td><td>" + grouped(total(m, &AtlasSide::positions)) + "</td><td>" +
         percent(share(total(m, &AtlasSide::dead), total(m, &AtlasSide::positions))) + "</td></tr>\n";
  }
  for (const auto& m : ms)
    if (!best_of(rank, m)) {
      s += "<tr><td></td><td class=\"l\"><a href=\"materials/" + m.material.key() + ".html\">" + m.material.key() +
           "</a></td><td>none</td><td class=\"l\" colspan=\"3\">no side can ever be checkmated</td><td>" +
           grouped(total(m, &AtlasSide::positions)) + "</td><td>" +
           percent(share(total(m, &AtlasSide::dead), total(m, &AtlasSide::positions))) + "</td></tr>\n";
    }
  s += "</table>\n<h2>Dead share by material</h2>\n<img src=\"dead-share.svg\" alt=\"dead share by material\">\n";
  s += "<p class=\"small\">Made by deadpos atlas. Raw positions: every placement of the men once (no symmetry "
       "reduction), no castling or en passant rights, the side not to move not in check. Dead: neither side can "
       "checkmate by any sequence of legal moves (FIDE 5.2.2). DTHM: the length in plies of the shortest "
       "helpmate.</p>\n";
  return s + "</body>\n</html>\n";
}

std::string csv(const std::vector<AtlasMaterial>& ms) {
  std::string s =
      "material,side_to_move,positions,dead,dead_share,dead_not_by_material,checkmates,white_can_mate,"
      "black_can_mate,deepest_white_mated_plies,deepest_white_mated_fen,deepest_black_mated_plies,"
      "deepest_black_mated_fen\n";
  for (const auto& m : ms)
    for (Color stm : {Color::White, Color::Black}) {
      const AtlasSide& a = m.by_stm[stm];
      s += m.material.key() + "," + side_id(stm) + "," + std::to_string(a.positions) + "," + std::to_string(a.dead) +
           "," + fixed(share(a.dead, a.positions), 6) + "," + std::to_string(a.dead_not_by_material) + "," +
           std::to_string(a.checkmates) + "," + std::to_string(a.can_mate[Color::White]) + "," +
           std::to_string(a.can_mate[Color::Black]);
      for (Color x : {Color::White, Color::Black}) {
        const auto& d = a.deepest[x];
        s += ',';
        if (d.plies >= 0) s += std::to_string(d.plies);
        s += ',';
        if (d.plies >= 0) s += d.position.to_fen();
      }
      s += "\n";
    }
  return s;
}

Status write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f) return make_error(ErrorCode::Io, p.string() + ": cannot write");
  return Ok{};
}

// Whether dir is a previous atlas: its atlas.json has our format and lists every file in it.
bool previous_atlas(const fs::path& dir, std::vector<std::string>& files) {
  std::ifstream f(dir / "atlas.json", std::ios::binary);
  if (!f) return false;
  nlohmann::json j = nlohmann::json::parse(f, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("format", "") != kFormat || !j.contains("files") ||
      !j["files"].is_array())
    return false;
  std::set<std::string> listed;
  for (const auto& x : j["files"]) {
    if (!x.is_string()) return false;
    listed.insert(x.get<std::string>());
  }
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string rel = fs::relative(it->path(), dir, ec).generic_string();
    if (it->is_symlink(ec)) return false;
    if (it->is_directory(ec)) {
      if (rel != "materials" && rel != "svg") return false;
      continue;
    }
    if (!it->is_regular_file(ec) || !listed.count(rel)) return false;
  }
  if (ec) return false;
  files.assign(listed.begin(), listed.end());
  return true;
}

}  // namespace

nlohmann::json atlas_json(const std::vector<AtlasMaterial>& ms) {
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = 1;
  j["unit"] = "raw positions";
  nlohmann::json mats = nlohmann::json::array();
  for (const auto& m : ms) {
    nlohmann::json x;
    x["material"] = m.material.key();
    x["men"] = m.material.men();
    x["table"] = file_base(m.table);
    x["positions"] = total(m, &AtlasSide::positions);
    x["dead"] = total(m, &AtlasSide::dead);
    x["dead_share"] = share(total(m, &AtlasSide::dead), total(m, &AtlasSide::positions));
    x["dead_not_by_material"] = total(m, &AtlasSide::dead_not_by_material);
    x["white_to_move"] = side_json(m.by_stm[Color::White]);
    x["black_to_move"] = side_json(m.by_stm[Color::Black]);
    mats.push_back(std::move(x));
  }
  j["materials"] = std::move(mats);
  nlohmann::json rk = nlohmann::json::array();
  for (const auto& r : ranking(ms)) {
    rk.push_back({{"material", r.m->material.key()},
                  {"plies", r.d->plies},
                  {"mated", side_id(r.mated)},
                  {"side_to_move", side_id(r.stm)},
                  {"fen", r.d->position.to_fen()}});
  }
  j["ranking"] = std::move(rk);
  return j;
}

namespace {

// --out as a path; a symbolic link is followed (the atlas is written where it points, as
// adjudicate's --pgn-out writes through a link), so that its checks and messages are about the
// directory that would be replaced.
Result<fs::path> out_path(const std::string& out_name) {
  fs::path out = fs::path(out_name).lexically_normal();
  if (!out.has_filename()) out = out.parent_path();
  std::error_code ec;
  if (fs::is_symlink(out, ec)) {
    const fs::path target = fs::canonical(out, ec);
    if (ec) return make_error(ErrorCode::InvalidArgument, out.string() + ": is a symbolic link to nothing");
    return target;
  }
  return out;
}

// replace_old: out is a previous atlas whose files are old_files.
Status check_out(const fs::path& out, bool& replace_old, std::vector<std::string>& old_files) {
  std::error_code ec;
  replace_old = false;
  const auto st = fs::symlink_status(out, ec);
  if (ec || !fs::exists(st)) return Ok{};
  if (!fs::is_directory(st))
    return make_error(ErrorCode::InvalidArgument, out.string() + ": exists and is not a directory");
  if (fs::is_empty(out, ec) && !ec) return Ok{};
  if (!previous_atlas(out, old_files)) {
    return make_error(ErrorCode::InvalidArgument,
                      out.string() + ": is not empty and not a previous deadpos atlas; give a new or empty directory");
  }
  replace_old = true;
  return Ok{};
}

}  // namespace

Status check_atlas_out(const std::string& out_name) {
  bool replace_old = false;
  std::vector<std::string> old_files;
  auto out = out_path(out_name);
  if (!out) return out.error();
  return check_out(*out, replace_old, old_files);
}

Status write_atlas(const std::vector<AtlasMaterial>& ms, const std::string& out_name) {
  auto resolved = out_path(out_name);
  if (!resolved) return resolved.error();
  const fs::path out = *resolved;
  std::error_code ec;
  std::vector<std::string> old_files;
  bool replace_old = false;
  if (Status s = check_out(out, replace_old, old_files); !s) return s;
  // The temporary directory next to out.
  fs::path tmp;
  for (int k = 0;; ++k) {
    tmp = out;
    tmp += ".atlas-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(k);
    if (fs::create_directory(tmp, ec)) break;
    if (ec || k > 100) {
      return make_error(ErrorCode::Io, out.string() + ": cannot be written: creating the temporary directory " +
                                           tmp.string() + " beside it failed" + (ec ? ": " + ec.message() : ""));
    }
  }
  // The directory that replaces --out keeps --out's permission bits (a private or setgid folder
  // stays so); a new --out gets the process's default.
  if (const auto st = fs::status(out, ec); !ec && fs::is_directory(st)) fs::permissions(tmp, st.permissions(), ec);
  auto fail = [&](const Error& e) -> Status {
    std::error_code ignore;
    fs::remove_all(tmp, ignore);  // our own temporary directory only
    return e;
  };
  if (!fs::create_directory(tmp / "materials", ec) || !fs::create_directory(tmp / "svg", ec))
    return fail(Error{ErrorCode::Io, tmp.string() + ": cannot create subdirectories"});

  std::map<std::string, std::string> files;
  const auto rank = ranking(ms);
  files["index.html"] = index_page(ms, rank);
  files["atlas.csv"] = csv(ms);
  files["dead-share.svg"] = dead_share_svg(ms);
  for (const auto& m : ms) {
    files["materials/" + m.material.key() + ".html"] = material_page(m);
    for (Color x : {Color::White, Color::Black}) files[svg_name(m, x)] = histogram_svg(m, x);
  }
  nlohmann::json j = atlas_json(ms);
  nlohmann::json names = nlohmann::json::array();
  files["atlas.json"] = "";
  for (const auto& [name, text] : files) names.push_back(name);
  j["files"] = names;
  files["atlas.json"] = j.dump(1) + "\n";
  for (const auto& [name, text] : files)
    if (Status s = write_file(tmp / name, text); !s) return fail(s.error());

  if (!replace_old) {
    fs::rename(tmp, out, ec);  // replaces an empty directory
    if (ec) return fail(Error{ErrorCode::Io, out.string() + ": cannot rename the atlas into place: " + ec.message()});
    return Ok{};
  }
  fs::path old = out;
  old += ".atlas-old-" + std::to_string(::getpid());
  fs::rename(out, old, ec);
  if (ec) return fail(Error{ErrorCode::Io, out.string() + ": cannot move the previous atlas aside: " + ec.message()});
  fs::rename(tmp, out, ec);
  if (ec) {
    std::error_code back;
    fs::rename(old, out, back);
    return fail(Error{ErrorCode::Io, out.string() + ": cannot rename the atlas into place: " + ec.message()});
  }
  // The previous atlas's own files, then its (now empty) directories; anything else stays.
  for (const auto& f : old_files) fs::remove(old / f, ec);
  fs::remove(old / "materials", ec);
  fs::remove(old / "svg", ec);
  fs::remove(old, ec);
  if (fs::exists(old, ec))
    return make_error(ErrorCode::Io, old.string() + ": the previous atlas could not be removed completely");
  return Ok{};
}

}  // namespace deadpos::cli
