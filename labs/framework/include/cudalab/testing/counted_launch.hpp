// The labs' counter GPU tests (labs 02, 03, 05, 06): one stream and one counter session a
// test, and the counts of one launch of a variant, measured as the runner measures them (the
// inputs uploaded and reset outside the profiled range, the launch alone inside it). Include
// only from test sources (it needs GoogleTest and the counter_test fixture).
#pragma once

#include "cudalab/counters.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/stream.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cudalab::testing {

// CUPTI names of the counts the tests compare with the access model.
namespace counted {
inline constexpr const char* ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* st_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
// Shared memory: the SASS-level wavefronts and the conflicts derived from them (a derived
// metric is kept under its short name in the measured totals).
inline constexpr const char* ld_wavefronts =
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
inline constexpr const char* st_wavefronts =
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
inline constexpr const char* ld_conflicts = "shared_ld_conflicts";
inline constexpr const char* st_conflicts = "shared_st_conflicts";
}  // namespace counted

class counted_launch_test : public counter_test {
 protected:
  using totals = std::map<std::string, double>;

  // The CUPTI names the session collects.
  virtual std::vector<std::string> metrics() const = 0;

  void SetUp() override {
    counter_test::SetUp();
    if (IsSkipped()) return;
    m_stream = std::make_unique<cuda_stream>();
    m_session = std::make_unique<counter_session>(0, metrics());
  }

  // The totals of one launch of `p`, with the derived metrics added.
  totals measure_launch(prepared_variant& p) {
    p.upload(m_stream->get());
    p.reset(m_stream->get());
    m_stream->synchronize();
    const counter_result r = m_session->collect([&] {
      p.launch(m_stream->get());
      m_stream->synchronize();
    });
    totals t = r.totals;
    add_derived_metrics(t);
    return t;
  }

  // The same for variant `name` of `l` at `c`; empty (and a failure) when there is none.
  totals measure_variant(const lab& l, const std::string& name, const launch_config& c) {
    const variant* v = l.find(name);
    EXPECT_NE(v, nullptr) << name;
    if (!v) return {};
    auto p = v->prepare(c, m_stream->get());
    return measure_launch(*p);
  }

  std::unique_ptr<cuda_stream> m_stream;
  std::unique_ptr<counter_session> m_session;
};

}  // namespace cudalab::testing
