// `cudalab check 02-memory-spaces`: grades the learner's kernel by its measured local-memory
// traffic against the registers variant's, which the access model computes for the size.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::labs {

// The targets at size n with `block` threads a block: the registers kernel's local load and
// store sectors (the model's figures: none) and its global sectors (x read once, out written
// once).
struct memory_targets {
  std::uint64_t local_ld_sectors = 0;
  std::uint64_t local_st_sectors = 0;
  std::uint64_t global_sectors = 0;  // loads and stores
};
memory_targets memory_grade_targets(std::size_t n, unsigned block);

// PASS needs four lines:
//   1. correct           the sums match the double reference;
//   2. local st sectors  measured local store sectors <= the registers target;
//   3. local ld sectors  measured local load sectors <= the registers target;
//   4. global sectors    measured global load + store sectors <= the registers target: the array
//                        moved to a global scratch buffer is still memory traffic.
grade_report grade_memory(const result_row& exercise, const std::vector<result_row>& references);

}  // namespace cudalab::labs
