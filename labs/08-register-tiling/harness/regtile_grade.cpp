// `cudalab check 08` (regtile_grade.hpp).
#include "regtile_grade.hpp"

#include "cudalab/format_text.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/report_figures.hpp"

#include <cstdio>
#include <optional>
#include <string>

namespace cudalab::labs {
namespace {

double tflops(const result_row& r) {
  return r.time.median_ms > 0 ? r.ideal.flops / (r.time.median_ms * 1e-3) / 1e12 : 0;
}

// The lesson's arithmetic: every multiply-add of the product an FP32 FFMA (at least n^3 of
// them, thread-level), none on the tensor cores (a TF32 wmma product meets the tolerance and the
// speed line, and teaches nothing about register tiling).
bool fma_pipe_lines(grade_sheet& g, const result_row& ex) {
  const std::optional<double> ffma = counter_total(ex, "ffma_thread_inst");
  const std::optional<double> tensor = counter_total(ex, "tensor_inst");
  const double needed = ex.ideal.flops / 2;  // n^3 multiply-adds
  const bool ffma_ok = g.line(ffma && *ffma >= needed,
                              "FFMA " + (ffma ? formatted("%.4g", *ffma) : std::string("n/a")) +
                                  " >= " + formatted("%.4g", needed) +
                                  " (n^3: each multiply-add an FP32 FFMA, a thread)");
  // Where the chip's profiler cannot count HFMA2.MMA apart (tensor_inst is recorded missing),
  // the FFMA line alone holds the arithmetic to FP32.
  const auto missing = ex.counters.missing.find(find_metric("tensor_inst")->key());
  const bool tensor_ok =
      missing != ex.counters.missing.end()
          ? g.line(true, "tensor-core instructions n/a (" + missing->second +
                             "): the FFMA line holds the arithmetic")
          : g.line(tensor && *tensor <= 0,
                   "tensor-core instructions " +
                       (tensor ? formatted("%.0f", *tensor) : std::string("n/a")) +
                       " <= 0 (the lesson's product runs on the FMA pipes)");
  if (!ffma_ok || !tensor_ok)
    g.advise(
        "The lesson is register tiling on the FP32 FMA pipes: compute each product with "
        "float multiply-adds, not tensor-core instructions (wmma, mma) or another type.");
  return ffma_ok && tensor_ok;
}

}  // namespace

grade_report grade_regtile(const result_row& ex, const std::vector<result_row>& references) {
  grade_sheet g(ex,
                "The product is wrong. n is odd: tile elements past the matrix must hold 0, only "
                "outputs inside it are stored, and each thread must store every output it "
                "accumulates.");

  const figure* per_fma = find_figure("lds_per_fma");
  const std::optional<double> lds = per_fma ? per_fma->measured(ex) : std::nullopt;
  const bool lds_ok = g.line(lds && *lds <= regtile_lds_per_fma_target,
                             "LDS/FMA " + (lds ? formatted("%.3f", *lds) : std::string("n/a")) +
                                 " <= " + formatted("%.2f", regtile_lds_per_fma_target) +
                                 " (shared load instructions a multiply-add)");
  if (!lds_ok && lds)
    g.advise(
        "Each value read from shared memory feeds too few multiply-adds: give each thread "
        "several outputs (a column of 8, or an 8 x 8 block) and keep their sums and the "
        "values it reads in registers.");

  const result_row* cublas = nullptr;
  for (const auto& r : references)
    if (r.variant_name == "cublas") cublas = &r;
  const double mine = tflops(ex), roof = cublas ? tflops(*cublas) : 0;
  if (timed_under_tracer(ex)) {
    g.line(false, "speed n/a: timed under the memory tracer, which slows every kernel");
    g.advise("The speed line needs a run without the tracer: hardware counters (cudalab doctor).");
    return g.finish(false);
  }
  const bool fast = g.line(roof > 0 && mine >= regtile_cublas_fraction_target * roof,
                           "speed " +
                               formatted("%.2f TFLOP/s >= %.0f%% of cublas %.2f", mine,
                                         100 * regtile_cublas_fraction_target, roof) +
                               " (measured in this run)");
  if (!fast)
    g.advise("The kernel reaches " + formatted("%.0f%%", roof > 0 ? 100 * mine / roof : 0.0) +
             " of cuBLAS: more outputs a thread (8 x 8), 16-byte loads, and a block tile of "
             "128 x 128 let each loaded value do more work.");
  const bool arithmetic_ok = fma_pipe_lines(g, ex);
  return g.finish(g.correct() && lds_ok && fast && arithmetic_ok);
}

}  // namespace cudalab::labs
