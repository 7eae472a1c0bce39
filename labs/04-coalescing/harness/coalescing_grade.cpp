// `cudalab check 04-coalescing`: grades the learner's float3 kernel by its measured counters.
//
// The exercise and the fixed references (staged, float4, SoA) run at the same size with the
// same counters. PASS needs all five lines:
//   1. correct        the in-place update and the copy match the CPU bit for bit;
//   2. ld sect/req    each load request (LDG, and LDGSTS: a cp.async reads global memory too)
//                     touches no more sectors than the bytes its lanes asked
//                     for fill: sectors/request <= (requested bytes/request) / 32, so 4 for
//                     4-byte loads, 16 for 16-byte loads. Requested bytes come from
//                     smsp__sass_data_bytes_mem_global_op_ld.sum plus the cp.async bytes (exact);
//   3. st sect/req    the same for stores;
//   4. total sectors  measured ld + st sectors <= the ideal: every buffer's bytes in whole
//                     32-byte sectors (ceil(12n/32) read, 2 ceil(12n/32) written for the
//                     float3 array; a padded layout's own bytes for the others);
//   5. requests       ld + st requests <= the ideal sectors / 4 of each buffer: a request
//                     carries on average at least a full warp of 4-byte words (128 bytes).
// Lines 2-3 are the coalescing rule of one instruction, whatever its width: the naive kernel's
// 4-byte loads touch 12 sectors for 128 bytes and fail, a kernel that reads the float3 array
// as float4s (16 sectors for 512 bytes) passes. Line 4 is the traffic rule: no sector moved
// twice or partly wasted, which a correct kernel cannot meet without coalescing. Line 5 is
// the width rule that char_per_thread teaches: a kernel that moves the array a byte a lane
// (a warp's 32 bytes fill one sector exactly, so lines 2-4 hold) needs four times the
// requests of one that moves it a float a lane.
#include "coalescing_lab.hpp"

#include "cudalab/format_text.hpp"
#include "cudalab/grade.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

namespace cudalab::labs {
namespace {

// One side of the traffic, by catalogue short names (metrics.hpp): its requests, sectors and
// the bytes the lanes asked for. The L1's load counters count the asynchronous copies (LDGSTS,
// cp.async) with the loads, through L1 or past it, but the SASS-level load bytes count none of
// them: their bytes are added (async_bytes), so that a tile filled by cp.async is held to the
// coalescing rule of one filled by LDG.
struct traffic_side {
  const char* requests;
  const char* sectors;
  const char* bytes;
  const char* async_bytes = nullptr;
};
const traffic_side loads{"ld_requests", "ld_sectors", "ld_bytes", "ldgsts_bytes"};
const traffic_side stores{"st_requests", "st_sectors", "st_bytes"};

// A side's bytes with its asynchronous copies'. Those count 0 where the counter is missing:
// the chips without it (before Ampere) have no LDGSTS to count.
std::optional<double> side_total(const result_row& row, const char* counter, const char* async) {
  const std::optional<double> plain = counter_total(row, counter);
  if (!plain || async == nullptr) return plain;
  return *plain + counter_total(row, async).value_or(0);
}

std::optional<double> side_per_request(const result_row& row, const traffic_side& side,
                                       bool bytes) {
  const auto amount =
      bytes ? side_total(row, side.bytes, side.async_bytes) : counter_total(row, side.sectors);
  const auto requests = counter_total(row, side.requests);
  if (!amount || !requests || *requests <= 0) return std::nullopt;
  return *amount / *requests;
}

// One sectors-per-request line: the sectors a request touched against the sectors its
// requested bytes fill. The references' values are printed beside it for comparison.
void per_request_line(grade_sheet& g, const result_row& ex, const std::vector<result_row>& refs,
                      const std::string& side_name, const traffic_side& side) {
  const bool is_load = side_name == "ld";
  std::string all;
  for (const auto& r : refs)
    if (const auto v = side_per_request(r, side, false))
      all += (all.empty() ? "" : ", ") + r.variant_name + " " + formatted("%.2f", *v);
  const std::string key = side_name + "_sectors_per_request";
  const std::string label = side_name + " sectors/request";
  const std::optional<double> mine = side_per_request(ex, side, false);
  const std::optional<double> asked = side_per_request(ex, side, true);
  if (!mine || !asked) {
    const bool none = counter_total(ex, side.requests).value_or(0) <= 0;
    g.line(key, false,
           label + (none ? " n/a: the exercise issued no global " + side_name + " requests"
                         : std::string(" n/a: a counter is missing")));
    g.advise(none ? std::string("The kernel issued no global ") + (is_load ? "loads" : "stores") +
                        "."
                  : std::string("Grading needs the SASS-level byte counters (cudalab doctor)."));
    return;
  }
  const double needed = *asked / 32.0;
  if (!g.bounded(key, label, mine, bound_kind::at_most, needed,
                 formatted("%.0f", *asked) + " bytes asked a request fill " +
                     formatted("%.2f", needed) +
                     " sectors; references: " + (all.empty() ? std::string("n/a") : all),
                 "%.2f"))
    g.advise(std::string("Each warp-level ") + (is_load ? "load" : "store") + " touches " +
             formatted("%.1f", *mine) + " sectors for " + formatted("%.0f", *asked) +
             " bytes: its lanes' addresses are spread out. Make lane k of a warp touch the bytes "
             "next to lane k-1's (read and write the float3 array as plain floats, staged "
             "through shared memory, or as float4s).");
}

}  // namespace

grade_report grade_coalescing(const result_row& ex, const std::vector<result_row>& refs) {
  grade_sheet g(ex,
                "The result is wrong: every component of every number needs v added once, in "
                "place and in out. Mind the tail block when n is not a multiple of the block, and "
                "__syncthreads() between filling the tile and using it.");
  if (g.counters_missing(ex)) return g.report();

  per_request_line(g, ex, refs, "ld", loads);
  per_request_line(g, ex, refs, "st", stores);

  // The float3 array's sectors, scaled to the variant's own layout (aos_float4 moves 16 bytes
  // a number): the exercise's layout is the float3 array, so for it the factor is 1.
  const std::size_t n = ex.config.size;
  const double layout = ex.ideal.payload() > 0 ? ex.ideal.bytes / ex.ideal.payload() : 1.0;
  const double buffer_sectors =
      std::ceil(static_cast<double>(float3_ideal_ld_sectors(n)) * layout - 1e-6);
  const double ideal_ld = buffer_sectors, ideal_st = 2 * buffer_sectors;
  const auto ld = counter_total(ex, loads.sectors), st = counter_total(ex, stores.sectors);
  const std::optional<double> sectors = ld && st ? std::optional<double>(*ld + *st) : std::nullopt;
  if (!g.bounded("sectors", "sectors ld+st", sectors, bound_kind::at_most, ideal_ld + ideal_st,
                 "the ideal: " + formatted("%.0f + %.0f", ideal_ld, ideal_st) +
                     ", 12n bytes read and 24n written in 32-byte sectors") &&
      sectors)
    g.advise("The kernel moves " + formatted("%.2f", *sectors / (ideal_ld + ideal_st)) +
             "x the sectors the data needs: part of every sector it touches is wasted.");

  // Whole sectors per buffer, four a request: the requests of 32 lanes loading a float each.
  const double ideal_requests = 3 * std::ceil(buffer_sectors / 4);
  const auto ld_req = counter_total(ex, loads.requests);
  const auto st_req = counter_total(ex, stores.requests);
  const std::optional<double> requests =
      ld_req && st_req ? std::optional<double>(*ld_req + *st_req) : std::nullopt;
  if (!g.bounded("requests", "requests ld+st", requests, bound_kind::at_most, ideal_requests,
                 "a warp's 32 floats, 128 bytes, or more a request") &&
      requests && sectors)
    g.advise("Its requests carry " + formatted("%.1f", 32 * *sectors / *requests) +
             " bytes on average where 32 lanes moving a float each carry 128: moving the array "
             "a byte a lane, or with few lanes of each warp, multiplies the requests.");
  return g.report();
}

std::vector<std::string> coalescing_grade_metrics() {
  return {loads.bytes, stores.bytes, loads.async_bytes};
}

}  // namespace cudalab::labs
