// `cudalab check 04-coalescing`: grades the learner's float3 kernel by its measured counters.
//
// The exercise and the fixed references (staged, float4, SoA) run at the same size with the
// same counters. PASS needs all four lines:
//   1. correct        the in-place update and the copy match the CPU bit for bit;
//   2. ld sect/req    measured load sectors per request <= the best (lowest) fixed reference's;
//   3. st sect/req    the same for stores;
//   4. total sectors  measured ld + st sectors <= the ideal: every buffer's useful bytes in
//                     whole 32-byte sectors (ceil(12n/32) read, 2 ceil(12n/32) written).
// Line 4 alone cannot be met without coalescing: a correct kernel must read 12n bytes and write
// 24n, so it passes only if no sector it touches is partly wasted. Lines 2-3 hold the learner to
// the references' 4-byte coalesced pattern: a kernel that issues fewer, wider requests but still
// spreads each over 12 sectors fails both.
#include "lab04.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

namespace cudalab::labs {
namespace {

constexpr const char* ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* st_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";

std::optional<double> total(const result_row& row, const char* cupti_name) {
  if (!row.counters.available) return std::nullopt;
  const auto it = row.counters.totals.find(cupti_name);
  if (it == row.counters.totals.end()) return std::nullopt;
  return it->second;
}

std::optional<double> per_request(const result_row& row, const char* sectors, const char* requests) {
  const auto s = total(row, sectors), r = total(row, requests);
  if (!s || !r || *r <= 0) return std::nullopt;
  return *s / *r;
}

std::string fmt(const char* f, double a, double b = 0) {
  char buf[128];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

std::string verdict(bool ok) { return ok ? "  ok" : "  FAIL"; }

// One sectors-per-request line against the best reference.
bool per_request_line(grade_report& g, const result_row& ex, const std::vector<result_row>& refs,
                      const char* side, const char* sectors, const char* requests, std::string& hint) {
  const std::optional<double> mine = per_request(ex, sectors, requests);
  double best = std::numeric_limits<double>::infinity();
  std::string best_name, all;
  for (const auto& r : refs) {
    const auto v = per_request(r, sectors, requests);
    if (!v) continue;
    all += (all.empty() ? "" : ", ") + r.variant_name + " " + fmt("%.2f", *v);
    if (*v < best) {
      best = *v;
      best_name = r.variant_name;
    }
  }
  const std::string label = std::string(side) + " sectors/request ";
  if (best_name.empty()) {
    g.lines.push_back(label + "n/a: no reference has counters" + verdict(false));
    return false;
  }
  if (!mine) {
    g.lines.push_back(label + "n/a: the exercise issued no global " + side + " requests" + verdict(false));
    hint += std::string(" The kernel issued no global ") + (side[0] == 'l' ? "loads" : "stores") + ".";
    return false;
  }
  const bool ok = *mine <= best + 1e-9;
  g.lines.push_back(label + fmt("%.2f <= %.2f", *mine, best) + " (best fixed: " + best_name +
                    "; references: " + all + ")" + verdict(ok));
  if (!ok)
    hint += std::string(" Each warp-level ") + (side[0] == 'l' ? "load" : "store") + " touches " +
            fmt("%.1f", *mine) + " sectors: its 32 lanes are spread over " +
            fmt("%.0f", *mine * 32) +
            " bytes. Make lane k of a warp touch the float next to lane k-1's (read and write the "
            "float3 array as plain floats, staged through shared memory).";
  return ok;
}

}  // namespace

grade_report grade_coalescing(const result_row& ex, const std::vector<result_row>& refs) {
  grade_report g;
  std::string hint;

  const bool correct = ex.check.ok;
  g.lines.push_back("correct: " + ex.check.detail + verdict(correct));
  if (!correct)
    hint += " The result is wrong: every component of every number needs v added once, in place "
            "and in out. Mind the tail block when n is not a multiple of the block, and "
            "__syncthreads() between filling the tile and using it.";

  if (!ex.counters.available) {
    g.lines.push_back("counters: n/a (" + ex.counters.reason + ")" + verdict(false));
    g.passed = false;
    g.hint = "Grading needs hardware counters; cudalab doctor explains how to enable them.";
    return g;
  }

  const bool ld_ok = per_request_line(g, ex, refs, "ld", ld_sectors, ld_requests, hint);
  const bool st_ok = per_request_line(g, ex, refs, "st", st_sectors, st_requests, hint);

  const std::size_t n = ex.config.size;
  const double ideal_ld = static_cast<double>(float3_ideal_ld_sectors(n));
  const double ideal_st = static_cast<double>(float3_ideal_st_sectors(n));
  const auto ld = total(ex, ld_sectors), st = total(ex, st_sectors);
  bool sectors_ok = false;
  if (ld && st) {
    sectors_ok = *ld + *st <= ideal_ld + ideal_st;
    g.lines.push_back("sectors ld+st " + fmt("%.0f + %.0f", *ld, *st) + " <= ideal " +
                      fmt("%.0f + %.0f", ideal_ld, ideal_st) +
                      " (12n bytes read, 24n written, in 32-byte sectors)" + verdict(sectors_ok));
    if (!sectors_ok)
      hint += " The kernel moves " + fmt("%.2f", (*ld + *st) / (ideal_ld + ideal_st)) +
              "x the sectors the data needs: part of every sector it touches is wasted.";
  } else {
    g.lines.push_back("sectors ld+st n/a: the sector counters are missing" + verdict(false));
  }

  g.passed = correct && ld_ok && st_ok && sectors_ok;
  if (!g.passed) g.hint = hint.empty() ? "" : hint.substr(1);
  return g;
}

}  // namespace cudalab::labs
