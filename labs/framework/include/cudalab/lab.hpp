// The variant contract: what every lab registers.
//
// A lab is a list of variants. A variant knows how to prepare its inputs for one
// launch_config, launch its kernels on a stream, verify the result against a CPU reference,
// how many bytes and flops the work ideally needs, and what the access model predicts for
// the deterministic counters. The runner (runner.hpp) does the rest: NVTX ranges, timing,
// counters and the table.
#pragma once

#include "cudalab/kernel_resources.hpp"
#include "cudalab/model/access_model.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

enum class variant_role { naive, buggy, fixed, baseline, exercise };
std::string_view to_string(variant_role role);

// One point of a run: what the learner asked for.
struct launch_config {
  std::size_t size = 0;  // problem size in the lab's unit (lab::size_unit)
  int block = 0;         // threads per block, resolved by the runner (never 0 in a variant)
  long param = 0;        // the sweep parameter (offset, stride, tile...) for sweep variants
};

// The launch shape a variant actually used, so over-launches are visible.
struct launch_shape {
  std::size_t grid_x = 0, grid_y = 1;
  unsigned block_x = 0, block_y = 1;
  std::size_t threads_needed = 0;
  std::size_t threads_launched() const { return grid_x * grid_y * block_x * block_y; }
  // Set by a point that ran or by the host's launch arithmetic (variant::host_launch).
  bool known() const { return grid_x > 0; }
};

// The shape of a 2D launch from its launcher's dims (any record with dim3 grid and block), so
// that no lab copies the five fields.
template <class Dims>
launch_shape launch_shape_2d(const Dims& dims, std::size_t threads_needed) {
  return {dims.grid.x, dims.grid.y, dims.block.x, dims.block.y, threads_needed};
}

struct verify_result {
  bool ok = false;
  std::string detail;  // "max rel err 3.1e-07 <= 1e-05", "canary overwritten: 17 floats"
};

// Ideal work: each input read once, each output written once.
struct work_counts {
  // The fewest bytes this variant's data layout must move: the basis of GB/s, %copy and
  // DRAM/ideal.
  double bytes = 0;
  double flops = 0;
  // The problem's own bytes, where the layout moves more (aos_float4's padding: 36 of 48
  // bytes a number); 0 when they are the same as `bytes`.
  double payload_bytes = 0;
  double payload() const { return payload_bytes > 0 ? payload_bytes : bytes; }
};

// A variant's device state for one launch_config. The runner calls, each inside its NVTX
// phase range (so every lab reads the same in Nsight Systems):
//   variant::prepare  `alloc`   allocate device buffers, make host inputs (no copies yet)
//   upload            `h2d`     copy inputs to the device
//   reset + launch    `kernel`  reset is untimed; launch is the timed work
//   download          `d2h`     copy results back to the host
//   verify            `verify`  compare with the CPU reference (host only)
class prepared_variant {
 public:
  virtual ~prepared_variant() = default;
  virtual void upload(cudaStream_t stream) = 0;
  // Restores inputs that a launch modifies and poisons outputs. Never timed.
  virtual void reset(cudaStream_t stream) = 0;
  // The measured work: kernel launches only (or the library call of a baseline).
  virtual void launch(cudaStream_t stream) = 0;
  // Copies results to the host and synchronizes the stream.
  virtual void download(cudaStream_t stream) = 0;
  // Compares the downloaded results with the CPU reference.
  virtual verify_result verify() = 0;
  // Read after download(): a launch that failed ran no kernel (lab 07's planted launch bugs).
  virtual launch_shape shape() const = 0;
  // False when the timed launches ran no kernel: their time moved no data, so no bandwidth is
  // computed from it. Read after download().
  virtual bool kernel_ran() const { return true; }
  // Read after download(): how many words of the canary band after the outputs the launches
  // overwrote (host_data.hpp's output_canary_scope); nullopt where the variant keeps none.
  virtual std::optional<std::size_t> words_overwritten_past_outputs() const { return std::nullopt; }
};

// A sweep variant runs once per parameter value (offset 0..32, stride 1..32).
struct sweep_spec {
  std::string name;                  // "offset"
  std::vector<long> default_values;  // a few telling points, used when --sweep is not given
  long min = 0, max = 0;             // accepted range; `--sweep full` runs all of it
  // The only values of the range the variant runs (lab 03's built tiles 8, 16, 32); `--sweep
  // full` runs these. Empty: every value of the range.
  std::vector<long> only = {};
  bool accepts(long p) const {
    return p >= min && p <= max &&
           (only.empty() || std::find(only.begin(), only.end(), p) != only.end());
  }
  // "0..32", or the values of `only`: "8, 16, 32".
  std::string range_text() const {
    if (only.empty()) return std::to_string(min) + ".." + std::to_string(max);
    std::string text;
    for (long p : only) text += (text.empty() ? "" : ", ") + std::to_string(p);
    return text;
  }
};

// The grid a variant launches for one launch_config, in 64 bits so that nothing is narrowed
// before the runner has checked it against the device's limits.
struct grid_size {
  std::uint64_t x = 1, y = 1, z = 1;
};

// A grid dimension as the launch needs it. Throws cudalab::error rather than wrapping: the
// runner has checked the grid against the device's limits, so this only fires on a bug.
unsigned grid_dimension(std::uint64_t blocks);

// The threads per block a variant accepts, stated once: the runner checks every --block
// against it before predicting or launching anything.
struct block_rule {
  int min = 1;
  int max = 1024;
  int multiple_of = 1;        // 32: whole warps (the 2D variants' 32 x (t/32) blocks)
  bool power_of_two = false;  // tree reductions halve the block at every step
  // Why the rule holds, for the error line: "the 2D variants launch 32 x (t/32) blocks".
  std::string reason;
  // One line saying what is wrong with `block`, or "" when the block is accepted.
  std::string violation(int block) const;
};

struct variant {
  std::string name;  // what the learner types: aos_float3_staged
  variant_role role = variant_role::naive;
  std::string lesson;  // one line
  int default_block = 256;
  block_rule blocks;
  // The threads a block the kernels launch when --block does not choose them (lab 03's T x T
  // tiles, lab 06's 32 x 8 or 32 x 32 blocks, lab 08's tilings); empty: --block chooses. Such
  // a variant runs once whatever --block lists, and its rows carry the block it launches.
  std::function<int(const launch_config&)> threads_per_block;
  std::optional<sweep_spec> sweep;
  // Kernels run by launch(); false for library or copy baselines that counters cannot see.
  bool has_kernels = true;
  // The kernels are a library's (cuBLAS, CUB), which picks them and their blocks: --block is
  // ignored, and the table shows no block for them.
  bool library_launch = false;
  // launch() does its measured work on the CPU (a CPU baseline): timed with the host's steady
  // clock instead of CUDA events, which only stamp when the GPU's stream reaches them.
  bool timed_on_host = false;
  // A baseline that takes long a run (lab 03's CPU product: a billion multiply-adds at the
  // default size) is timed at most this many times, after at most one warm-up; 0: --repeat
  // and --warmup as given.
  int max_timed_runs = 0;
  // The largest size this variant runs (a CPU baseline whose loop would take minutes); the
  // runner omits its points above it, saying so in one line. 0: the lab's limit only.
  std::size_t max_size = 0;

  std::function<std::size_t(const launch_config&)> device_bytes;  // GPU memory needed
  // Why this variant cannot run a launch_config that the block rule and the lab's size limit
  // allow (lab 07's planted out-of-bounds write needs page slack past its array); empty: it
  // runs every such config. The runner asks before any work starts.
  std::function<std::string(const launch_config&)> config_violation;
  // The largest grid the variant launches for a config (the runner checks it against the
  // device's grid limits); empty for library calls that choose their own.
  std::function<grid_size(const launch_config&)> grid;
  // The launch a config makes (grid, block, threads needed), computed by the host code the
  // launcher itself calls, so it is known without a GPU: the no-GPU table then shows
  // launched/needed. Empty: only a point that ran has a shape (prepared_variant::shape).
  std::function<launch_shape(const launch_config&)> host_launch;
  std::function<work_counts(const launch_config&)> ideal;
  // The access model's counts for this launch_config; empty when the variant has no model.
  std::function<model::access_counts(const launch_config&)> predict;
  // What `predict` costs for this launch_config, in warp instructions the model simulates
  // (warp_access values built; see model::warp_accesses_built_on_this_thread). The runner
  // refuses a run whose predictions would take too long (model_budget.hpp) before any work
  // starts. Empty: `predict` is cheap at every size the lab accepts.
  std::function<double(const launch_config&)> model_cost;
  std::function<std::unique_ptr<prepared_variant>(const launch_config&, cudaStream_t)> prepare;
  // What the variant's kernels were compiled to and how many of their blocks an SM holds, on
  // the current device, its main kernel first (kernel_resources.hpp). Empty: not reported.
  std::function<std::vector<kernel_resources>(const launch_config&)> resources;
};

struct result_row;  // runner.hpp

// One criterion of a grade: a line `cudalab check` prints, a record `--format json` writes,
// and what the tests read by its key.
struct grade_line {
  std::string key;   // stable, for tests and autograders: "shared_conflicts", "kernels"
  std::string text;  // the line as printed, without its verdict
  bool ok = false;
  // The exercise's figure and the bound it is held to, where the line is a comparison: "<=" or
  // ">=" (empty: a line judged otherwise, correctness or a sanitizer's report).
  std::optional<double> measured;
  std::string relation;
  std::optional<double> bound;
  std::string bound_from;  // where the bound comes from: "the padded transpose, predicted"
  std::string hint;        // what to do about it, shown when it fails
  // An n/a line that passes only because this run lacks its witness (the counters were refused
  // and the tracer cannot see it, or a counter is missing on this chip): the verdict says how
  // many of these a PASS stands on.
  bool unchecked = false;
};

// How `cudalab check <lab>` grades the learner's exercise (labs/NN-name/exercise.cu).
struct grade_report {
  std::vector<grade_line> lines;
  // Every line ok (and at least one line).
  bool passed() const;
  // The hints of the failed lines, each once, one sentence after another.
  std::string hint() const;
  // The line with `key`, or nullptr.
  const grade_line* find(std::string_view key) const;
  // Adds a line judged otherwise than against a bound (correctness, the inventory, an n/a).
  void add(std::string key, bool ok, std::string text, std::string hint = {});
  // Adds an n/a line that passes unchecked (grade_line::unchecked).
  void add_unchecked(std::string key, std::string text);
  // How many lines passed unchecked.
  std::size_t unchecked() const;
};

// The end of every printed grader line: "  ok" or "  FAIL".
std::string grade_verdict(bool ok);

// A wrong or right way of doing a lab's exercise (tests/wrong/NAME.cu, tests/right/NAME.cu),
// built in place of exercise.cu by cudalab_add_lab: a wrong way must compute the right answer
// and FAIL on the line `fails_on`; a right way must PASS every line.
struct graded_way {
  std::string name;
  std::string fails_on;  // a grade_line key; empty for a right way
  std::string why;       // the shortcut it takes, or the honest route
  // Its kernel races (lab 07's missing barrier): whether its answer comes out right depends on
  // how the warps run, so it is not held to it.
  bool races = false;
};

struct exercise_spec {
  std::string variant;                          // the variant exercise.cu registers ("exercise")
  std::string file;                             // "labs/04-coalescing/exercise.cu"
  std::vector<std::string> reference_variants;  // fixed variants run beside it for the targets
  std::size_t size = 0;                         // problem size the checker uses
  // Grades the exercise row against the reference rows (all measured with counters).
  std::function<grade_report(const result_row& exercise, const std::vector<result_row>& references)>
      grade;
  // Metrics the grade needs beyond the lab's default set (catalogue short names or sets).
  std::vector<std::string> extra_metrics = {};
  // The lab's fixed and naive variants that solve the exercise's own problem: the grader's
  // tests grade each of them as if it were the exercise (fixed must PASS, naive or buggy must
  // FAIL). Empty: every fixed, naive and buggy variant of the lab.
  std::vector<std::string> graded_variants = {};
  // The points a graded sweep variant runs at (lab 03's tiled at the exercise's tile); empty:
  // the sweep's default points.
  std::vector<long> graded_sweep_values = {};
  // Adds the line "other memory paths": the exercise's global atomics, reductions, texture
  // fetches and generic LD/ST, none of which the lesson's load, store and shared lines count, at
  // most the references'. For the labs whose lesson is plain loads and stores (a kernel moving
  // its data through atomics, the texture path or laundered pointers would otherwise pass them).
  bool bound_other_memory_paths = false;
  // Paths that line counts beyond those (catalogue short names): the memory the lesson keeps
  // the data out of (lab 02's shared memory, where a spilled array would escape the local
  // lines).
  std::vector<std::string> more_other_memory_paths = {};
  // A speed floor where the lesson's lines alone would pass a pathologically slow kernel (one
  // lane at a time, a loop in one thread): the exercise's median time at most `slowest_factor`
  // times that of `speed_reference` (a fixed variant, run beside it), both timed in the same
  // run. Empty: no such line (labs 05 and 08 grade their speed themselves).
  std::string speed_reference = {};
  double slowest_factor = 2.0;
  // The grade reads hardware counters (the default). false: it judges by other means (lab 07
  // runs compute-sanitizer), so `cudalab check` runs without counters and needs no permission.
  bool needs_counters = true;
  // What the generated tests hold the grader to (cmake/cudalab_helpers.cmake): the keys the
  // untouched exercise fails (every other line passes), the wrong ways of tests/wrong/ with the
  // key each fails, and the right ways of tests/right/, which pass every line.
  std::vector<std::string> untouched_fails_on = {};
  bool untouched_races = false;  // as graded_way::races, for the untouched exercise
  std::vector<graded_way> wrong_ways = {};
  std::vector<graded_way> right_ways = {};
};

struct lab {
  std::string id;     // "04-coalescing"
  std::string title;  // "Coalescing global memory accesses"
  std::string size_unit = "elements";
  std::size_t default_size = 0;
  std::size_t max_size = 0;  // 0: bounded by device memory only
  // A small size that still takes every edge path (a multiple of no block or tile), for the
  // compute-sanitizer tools, which slow kernels and host checks alike; 0: no such need
  // (scripts/sanitize.sh then runs 1000003 or the default size).
  std::size_t sanitize_size = 0;
  std::string readme;  // path of the lesson, relative to the repository root
  std::vector<variant> variants;
  // What a run collects: catalogue short names or sets (metrics.hpp); empty: the `memory` set.
  std::vector<std::string> default_metrics;
  // The two or three figures the lesson is about, shown in the default view of `cudalab run`:
  // catalogue short names or ratios of report_figures.hpp (ld_sectors_per_request,
  // dram_per_ideal, threads_launched_per_needed, shared_conflicts). Empty: sectors per
  // request and DRAM over ideal. Every other figure is in `--view full`, CSV and JSON.
  std::vector<std::string> headline_metrics;
  // The work is bound by arithmetic, not memory: the default view shows TFLOP/s, not GB/s.
  bool flop_bound = false;
  // A baseline variant whose throughput, measured in the same run at the same size, the
  // default view states every row's as a percentage of ("%cublas"). Empty: no such column.
  std::string roof_variant;
  std::optional<exercise_spec> exercise;
  // Lines `cudalab run` prints after the table: what the learner should know about this build
  // (a model that cannot predict here, and why). Empty: nothing to say.
  std::function<std::vector<std::string>()> notes;

  const variant* find(std::string_view name) const;
  std::string number() const { return id.substr(0, 2); }
};

// What a learner reads of a variant in every lab: its name, its role and its one-line lesson.
// Each lab's variant spec starts with it, and new_variant makes the variant from it.
struct variant_identity {
  std::string name;
  variant_role role = variant_role::fixed;
  std::string lesson;
};

// A variant with its name, role and one-line lesson; the rest is the lab's to fill in.
variant new_variant(std::string name, variant_role role, std::string lesson);
inline variant new_variant(const variant_identity& identity) {
  return new_variant(identity.name, identity.role, identity.lesson);
}

// The sizes a lab runs (lab::default_size, max_size and sanitize_size).
struct lab_sizes {
  std::size_t default_size = 0;
  std::size_t max_size = 0;
  std::size_t sanitize_size = 0;
};

// A lab named by `id` ("04-coalescing"), the folder its files are in: its lesson is
// labs/<id>/README.md.
lab new_lab(const std::string& id, std::string title, std::string size_unit, lab_sizes sizes);

// The exercise of lab `lab_id`: the variant "exercise" that labs/<id>/exercise.cu registers,
// graded by `grade` at `size`.
exercise_spec new_exercise(const std::string& lab_id, std::size_t size,
                           decltype(exercise_spec::grade) grade);

// Every lab built into this binary, in order.
const std::vector<lab>& all_labs();
// Finds a lab by id ("04-coalescing"), number ("04", "4") or name ("coalescing").
const lab* find_lab(std::string_view name);

}  // namespace cudalab
