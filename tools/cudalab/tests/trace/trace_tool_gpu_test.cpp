// `cudalab run --trace` on the GPU, through the tool as a learner runs it:
//   - every variant of every lab, at a size that is no multiple of any block or tile: the trace
//     equals the access model on every traced metric (global requests and sectors, shared
//     wavefronts and conflicts by the model's rules) and the counters on the global ones;
//   - with the counters refused (CUDALAB_COUNTERS_REFUSE), `run` takes its memory columns from
//     the trace and says so, and `check` grades from the trace and says so;
//   - --lines on lab 04 names the float3 update's three `+=` lines and its 12-sector store, and
//     the staged variant's shared accesses; on every lab, the hardware's SASS-level counts of
//     each line equal the tracer's.
// Skips, with the reason, without a GPU or without the tracer.
#include "tool_process.hpp"

#include "gpu_test.hpp"

#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/trace/tracer_support.hpp"
#include "cudalab/trace_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace cudalab::testing {
namespace {

const std::set<std::string> global_metrics = {"ld_requests", "ld_sectors", "st_requests",
                                              "st_sectors"};

class trace_tool : public gpu_test {
 protected:
  void SetUp() override {
    gpu_test::SetUp();
    if (IsSkipped()) return;
    const trace::tracer_availability t = trace::tracer_available();
    if (!t.ok) GTEST_SKIP() << "no memory tracer: " << t.reason << " (" << t.fix << ")";
  }
};

std::string temp_file(const std::string& name) {
  return ::testing::TempDir() + "cudalab_trace_" + std::to_string(::getpid()) + "_" + name;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return nlohmann::json::parse(in, nullptr, false);
}

// A size no block or tile divides: an eighth of the default, made odd.
std::size_t odd_size(const lab& l) { return (l.default_size / 8) | 1u; }

// Every traced row: trace ok, trace = model where there is a model, trace = counters on the
// global metrics where the counters ran.
void expect_rows_agree(const nlohmann::json& doc, const std::string& run) {
  ASSERT_TRUE(doc.is_object() && doc.contains("rows")) << run;
  for (const auto& row : doc.at("rows")) {
    const std::string where =
        run + " " + row.value("variant", "?") + " param " + std::to_string(row.value("param", 0));
    // Baselines (role "base": cuBLAS, CUB, cudaMemcpy, the copy kernel) are not traced, nor are
    // variants that launch no kernel (lab 02's copies between host and device): neither has a
    // model to agree with.
    if (row.value("role", "") == "base") continue;
    bool modelled = false;
    for (const std::string& m : traced_metrics())
      modelled =
          modelled || (row.contains(m + "_predicted") && !row.at(m + "_predicted").is_null());
    if (!modelled && row.value("trace", "").rfind("n/a (not traced", 0) == 0) continue;
    ASSERT_EQ(row.value("trace", ""), "ok") << where;
    const bool counters = row.value("counters", "") == "ok";
    for (const std::string& m : traced_metrics()) {
      const auto& traced = row.at("trace_" + m);
      ASSERT_FALSE(traced.is_null()) << where << " " << m;
      const auto& predicted = row.at(m + "_predicted");
      if (!predicted.is_null()) {
        EXPECT_EQ(traced.get<double>(), predicted.get<double>()) << where << " " << m << " (model)";
      }
      if (counters && global_metrics.count(m)) {
        const auto& measured = row.at(m + "_measured");
        if (!measured.is_null()) {
          EXPECT_EQ(traced.get<double>(), measured.get<double>())
              << where << " " << m << " (counters)";
        }
      }
    }
  }
}

// The variants of a lab, but the exercise (and the baselines unless with_baselines: cuBLAS,
// CUB and the like; and, for a given block, those whose tiles choose theirs), that do (runs) or
// do not (!runs) accept this size and block (0: each variant's default): the block rule, and a
// variant's own limits (lab 07's planted write past the end needs page slack that an odd size may
// not leave).
std::vector<const variant*> variants_that_run(const lab& l, std::size_t size, int block,
                                              bool with_baselines, bool runs) {
  std::vector<const variant*> chosen;
  for (const variant& v : l.variants) {
    if (v.role == variant_role::exercise) continue;
    if (!with_baselines && v.role == variant_role::baseline) continue;
    // Kernels that launch the blocks their tiles need take no --block (it is refused where no
    // variant of the run would use it): they run only without one.
    if (block && v.threads_per_block) continue;
    const launch_config c{size, block ? block : v.default_block, 0};
    const bool ok = v.blocks.violation(c.block).empty() &&
                    (!v.config_violation || v.config_violation(c).empty());
    if (ok == runs) chosen.push_back(&v);
  }
  return chosen;
}

std::string joined(const std::vector<const variant*>& variants) {
  std::string names;
  for (const variant* v : variants) names += (names.empty() ? "" : ",") + v->name;
  return names;
}

void trace_and_compare(const lab& l, const std::string& variants, std::size_t size, int block,
                       const std::string& tag) {
  const std::string out = temp_file(l.number() + tag + ".json");
  std::vector<std::string> args = {
      "run",      l.id, "--trace", "--variant", variants, "--size", std::to_string(size),
      "--output", out};
  if (block) args.insert(args.end(), {"--block", std::to_string(block)});
  const std::string where =
      l.id + " --size " + std::to_string(size) + (block ? " --block " + std::to_string(block) : "");
  const tool_result r = run_tool(args);
  EXPECT_EQ(r.exit_code, 0) << where << ":\n" << r.err;
  expect_rows_agree(read_json(out), where);
  std::remove(out.c_str());
}

TEST_F(trace_tool, every_variant_of_every_lab_traces_as_the_model_predicts_at_odd_sizes) {
  for (const lab& l : all_labs()) {
    const std::size_t size = odd_size(l);
    const auto at_odd = variants_that_run(l, size, 0, true, true);
    if (!at_odd.empty()) trace_and_compare(l, joined(at_odd), size, 0, "");
    // The few that refuse the odd size run at the lab's default, so that none goes untraced.
    const auto refused = variants_that_run(l, size, 0, true, false);
    if (!refused.empty()) trace_and_compare(l, joined(refused), l.default_size, 0, "_default");
  }
}

TEST_F(trace_tool, variants_that_take_96_thread_blocks_trace_as_predicted) {
  for (const lab& l : all_labs()) {
    const std::size_t size = odd_size(l);
    const auto at_odd = variants_that_run(l, size, 96, false, true);
    if (!at_odd.empty()) trace_and_compare(l, joined(at_odd), size, 96, "_96");
    // Those refused at the odd size whose only objection is the size run at the default one.
    const auto at_default = variants_that_run(l, l.default_size, 96, false, true);
    std::vector<const variant*> retried;
    for (const variant* v : at_default)
      if (std::find(at_odd.begin(), at_odd.end(), v) == at_odd.end()) retried.push_back(v);
    if (!retried.empty()) trace_and_compare(l, joined(retried), l.default_size, 96, "_96_default");
  }
}

TEST_F(trace_tool, refused_counters_make_run_take_its_memory_columns_from_the_trace) {
  const std::string out = temp_file("refused.json");
  const tool_result r = run_tool({"run", "04", "--variant", "aos_float3,aos_float3_staged",
                                  "--size", "1048577", "--output", out},
                                 {"CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("the memory columns come from the tracer"), std::string::npos) << r.err;
  const nlohmann::json doc = read_json(out);
  ASSERT_TRUE(doc.contains("rows"));
  for (const auto& row : doc.at("rows")) {
    EXPECT_EQ(row.value("counters", ""), "from trace") << row.value("variant", "?");
    EXPECT_EQ(row.at("ld_sectors_measured").get<double>(),
              row.at("ld_sectors_predicted").get<double>());
    EXPECT_EQ(row.at("st_sectors_measured").get<double>(),
              row.at("st_sectors_predicted").get<double>());
  }
  std::remove(out.c_str());
}

TEST_F(trace_tool, refused_counters_make_check_grade_from_the_trace) {
  for (const lab& l : all_labs()) {
    if (!l.exercise) continue;
    const tool_result r = run_tool({"check", l.id}, {"CUDALAB_COUNTERS_REFUSE=ERR_NVGPUCTRPERM"});
    EXPECT_NE(r.err.find("grading from the memory tracer"), std::string::npos) << l.id << r.err;
    EXPECT_NE(r.out.find("graded from the memory tracer"), std::string::npos) << l.id << r.out;
    // The build's exercise is the untouched one: it must FAIL, from the trace as from counters.
    EXPECT_EQ(r.exit_code, 1) << l.id << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("FAIL"), std::string::npos) << l.id << r.out;
  }
}

// The line numbers of `needles` in `file` (1-based), found in the source so that the test
// follows the kernel file when it changes.
std::vector<int> lines_containing(const std::string& file,
                                  const std::vector<std::string>& needles) {
  std::ifstream in(std::string(CUDALAB_SOURCE_DIR) + "/" + file);
  EXPECT_TRUE(in.good()) << file;
  std::vector<int> found(needles.size(), 0);
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    for (std::size_t i = 0; i < needles.size(); ++i)
      if (found[i] == 0 && text.find(needles[i]) != std::string::npos) found[i] = n;
  return found;
}

// The tracer's --lines row of `where` split into its cells (source, ld req, ld sect,
// ld sect/req, st req, st sect, st sect/req, shared wf, conflicts); empty when absent.
std::vector<std::string> line_row(const std::string& text, const std::string& where) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream cells(line);
    std::vector<std::string> row;
    for (std::string c; cells >> c;) row.push_back(c);
    if (!row.empty() && row[0] == where) return row;
  }
  return {};
}

TEST_F(trace_tool, lines_name_the_float3_updates_and_the_12_sector_store) {
  const std::string file = "kernels/coalescing/float3_kernels.cu";
  const auto at = lines_containing(
      file, {"data[i].x += v;", "data[i].y += v;", "data[i].z += v;", "out[i] = data[i];"});
  const tool_result r =
      run_tool({"run", "04", "--variant", "aos_float3", "--size", "1048577", "--lines"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int i = 0; i < 3; ++i) {
    const auto row = line_row(r.out, file + ":" + std::to_string(at[static_cast<std::size_t>(i)]));
    ASSERT_EQ(row.size(), 9u) << "no line " << at[static_cast<std::size_t>(i)] << " in\n" << r.out;
    EXPECT_EQ(row[3], "12.00") << r.out;  // the component load
    EXPECT_EQ(row[6], "12.00") << r.out;  // its write-back
  }
  const auto store = line_row(r.out, file + ":" + std::to_string(at[3]));
  ASSERT_EQ(store.size(), 9u) << r.out;
  EXPECT_EQ(store[3], "-") << r.out;
  EXPECT_EQ(store[6], "12.00") << r.out;
}

TEST_F(trace_tool, lines_show_the_staged_variants_shared_accesses) {
  const std::string file = "kernels/coalescing/float3_kernels.cu";
  const auto at = lines_containing(file, {"tile[staged_tile_word(pass, threads, t)] = data[g];",
                                          "tile[w] = add_value(tile[w], v);"});
  const tool_result r =
      run_tool({"run", "04", "--variant", "aos_float3_staged", "--size", "1048577", "--lines"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int line : at) {
    const auto row = line_row(r.out, file + ":" + std::to_string(line));
    ASSERT_EQ(row.size(), 9u) << "no line " << line << " in\n" << r.out;
    EXPECT_NE(row[7], "-") << "no shared wavefronts on line " << line << "\n" << r.out;
  }
}

// cp.async (LDGSTS) is a global load to both witnesses: the tracer through the Sanitizer API's
// asynchronous-copy callback, the SASS-level counters through their LDGSTS metrics (neither
// counted it among global loads until each was told to; measured on lab 08 at n = 251: 4,096 of
// 8,112 load requests without them). The copy's line must carry its loads, the same on both rows.
TEST_F(trace_tool, lines_count_cp_async_copies_as_global_loads_on_both_witnesses) {
  // The table shortens a long path from the left: the file's name and the line stay.
  const std::string file = "register_tiling_device.cuh:";
  const tool_result r =
      run_tool({"run", "08", "--variant", "cp_async_pipeline", "--size", "251", "--lines"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  std::istringstream in(r.out);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::istringstream cells(line);
    std::vector<std::string> row;
    for (std::string c; cells >> c;) row.push_back(c);
    if (row.size() == 9) rows.push_back(row);
  }
  std::size_t copy_lines = 0;
  for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
    if (rows[i][0].find(file) == std::string::npos || rows[i][1] == "-") continue;
    ++copy_lines;
    ASSERT_EQ(rows[i + 1][0], "hardware") << rows[i][0] << "\n" << r.out;
    for (std::size_t c = 1; c < 9; ++c) EXPECT_EQ(rows[i + 1][c], rows[i][c]) << rows[i][0];
  }
  EXPECT_GT(copy_lines, 0u) << "no load on a line of " << file << " in\n" << r.out;
}

// Where counters are permitted, --lines puts the hardware's SASS-level counts under each traced
// line: for every variant of every lab at its odd size they must be there and equal the tracer's
// on every line (a line counted differently exits 4 with LINE MISMATCH). Each point runs again
// once per kernel function, so this also covers points that launch several functions.
TEST_F(trace_tool, lines_count_the_same_on_the_hardware_as_the_tracer_on_every_line) {
  for (const lab& l : all_labs()) {
    const std::size_t size = odd_size(l);
    const auto at_odd = variants_that_run(l, size, 0, false, true);
    if (at_odd.empty()) continue;
    const std::string where = l.id + " --size " + std::to_string(size);
    const tool_result r = run_tool(
        {"run", l.id, "--variant", joined(at_odd), "--size", std::to_string(size), "--lines"});
    EXPECT_EQ(r.exit_code, 0) << where << ":\n" << r.err << r.out;
    EXPECT_EQ(r.out.find("hardware counts n/a"), std::string::npos) << where << ":\n" << r.out;
    // Each traced line's row (a source line and 8 counts) is followed by the hardware's.
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) {
      std::istringstream cells(line);
      std::vector<std::string> row;
      for (std::string c; cells >> c;) row.push_back(c);
      // Table rows are indented; the closing paragraph is not (a line of it has 9 words).
      if (line.rfind("  ", 0) == 0 && row.size() == 9 && row[0] != "kernels:") rows.push_back(row);
    }
    std::size_t traced = 0, counted = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i][0] == "hardware") continue;
      ++traced;
      if (i + 1 < rows.size() && rows[i + 1][0] == "hardware") ++counted;
    }
    EXPECT_GT(traced, 0u) << where << ":\n" << r.out;
    EXPECT_EQ(counted, traced) << where << ":\n" << r.out;
  }
}

}  // namespace
}  // namespace cudalab::testing
