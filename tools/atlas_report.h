// The files of `deadpos atlas` (docs/atlas.md): the atlas numbers (deadpos/atlas.h) rendered as
// atlas.json, atlas.csv, index.html (the summary: deepest helpmates of all endings ranked, dead
// share by material), one HTML page per material (materials/<KEY>.html) and SVG plots written
// directly (dead-share.svg, svg/<KEY>-<side>-mated.svg). The HTML needs no network and no
// script: inline CSS, the plots as local SVG files, boards as HTML tables with Unicode pieces.
// Every byte depends only on the numbers (no dates, no timings, no paths): the same tables give
// the same files.
//
// Writing is atomic for the directory: everything goes to a new temporary directory next to
// `out`, which then replaces `out` by rename. `out` may be absent, an empty directory, or a
// previous atlas (a directory whose atlas.json says "format": "deadpos-atlas" and lists every
// file in it); the previous atlas's files are removed only after the new one is in place. Any
// other `out` is refused and left as it is (nothing is deleted that the atlas did not write).
// Not thread-safe (one writer per directory).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "deadpos/atlas.h"
#include "deadpos/result.h"

namespace deadpos::cli {

// Whether out may receive an atlas (absent, an empty directory, or a previous atlas), so that a
// refusal comes before hours of scanning; write_atlas checks again. Errors: as write_atlas.
Status check_atlas_out(const std::string& out);

// The JSON document of atlas.json (materials in the order given).
nlohmann::json atlas_json(const std::vector<AtlasMaterial>& ms);

// Writes the atlas of ms into directory out. Errors: InvalidArgument (out exists and is not a
// directory, or is a non-empty directory that is not a previous atlas), Io (a file or directory
// cannot be written or renamed: names it; the temporary directory is removed again).
Status write_atlas(const std::vector<AtlasMaterial>& ms, const std::string& out);

}  // namespace deadpos::cli
