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

}  // namespace

grade_report grade_regtile(const result_row& ex, const std::vector<result_row>& references) {
  grade_sheet g(ex,
                "The product is wrong. n is odd: tile elements past the matrix must hold 0, only "
                "outputs inside it are stored, and each thread must store every output it "
                "accumulates.");

  const figure* per_fma = find_figure("lds_per_fma");
  const std::optional<double> lds = per_fma ? per_fma->measured(ex) : std::nullopt;
  if (!g.bounded("lds_per_fma", "LDS/FMA", lds, bound_kind::at_most, regtile_lds_per_fma_target,
                 "shared load instructions a multiply-add", "%.3f") &&
      lds)
    g.advise(
        "Each value read from shared memory feeds too few multiply-adds: give each thread "
        "several outputs (a column of 8, or an 8 x 8 block) and keep their sums and the "
        "values it reads in registers.");

  const result_row* cublas = nullptr;
  for (const auto& r : references)
    if (r.variant_name == "cublas") cublas = &r;
  const double mine = tflops(ex), roof = cublas ? tflops(*cublas) : 0;
  if (timed_under_tracer(ex)) {
    g.line("speed", false, "speed n/a: timed under the memory tracer, which slows every kernel");
    g.advise("The speed line needs a run without the tracer: hardware counters (cudalab doctor).");
    return g.report();
  }
  if (!g.bounded("speed", "speed", roof > 0 ? std::optional<double>(mine) : std::nullopt,
                 bound_kind::at_least, regtile_cublas_fraction_target * roof,
                 formatted("%.0f%% of cublas's %.2f TFLOP/s, measured in this run",
                           100 * regtile_cublas_fraction_target, roof),
                 "%.2f TFLOP/s"))
    g.advise("The kernel reaches " + formatted("%.0f%%", roof > 0 ? 100 * mine / roof : 0.0) +
             " of cuBLAS: more outputs a thread (8 x 8), 16-byte loads, and a block tile of "
             "128 x 128 let each loaded value do more work.");
  add_fp32_fma_lines(g, ex);
  return g.report();
}

}  // namespace cudalab::labs
