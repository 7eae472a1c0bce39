#include "reduction_instruction_model.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/model/sass_program.hpp"

#include <array>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace cudalab::labs::reduction_model {

// Defined in the source the build generates (cudalab_embed_sass in CMakeLists.txt).
extern const std::string_view embedded_sass;
extern const std::string_view embedded_sass_unavailable;

namespace {

namespace sass = model::sass;
using sass::instruction_counts;

enum class site { skip_tree, tree_back, skip_call, skip_loads, loads_back, exit_unless };
enum class survivor { thread0, first_warp };  // which lanes an exit_unless keeps

struct site_rule {
  site kind;
  survivor keeps = survivor::thread0;
};

struct kernel_shape {
  const char* name;  // as in the mangled symbol: reduce_sequential_kernel
  std::vector<site_rule> sites;
};

kernel_shape shape_of(kernel k) {
  using s = site;
  const site_rule exit_thread0{s::exit_unless, survivor::thread0};
  switch (k) {
    case kernel::interleaved_divergent:
      return {"reduce_interleaved_divergent_kernel",
              {{s::skip_tree}, {s::skip_call}, {s::tree_back}, exit_thread0}};
    case kernel::interleaved_strided:
      return {"reduce_interleaved_strided_kernel", {{s::skip_tree}, {s::tree_back}, exit_thread0}};
    case kernel::sequential:
      return {"reduce_sequential_kernel", {{s::skip_tree}, {s::tree_back}, exit_thread0}};
    case kernel::first_add:
      return {"reduce_first_add_kernel", {{s::skip_tree}, {s::tree_back}, exit_thread0}};
    case kernel::warp_shuffle:
      return {
          "reduce_warp_shuffle_kernel",
          {{s::skip_tree}, {s::tree_back}, {s::exit_unless, survivor::first_warp}, exit_thread0}};
    case kernel::finish:
      return {"reduce_finish_kernel",
              {{s::skip_loads}, {s::loads_back}, {s::skip_tree}, {s::tree_back}, exit_thread0}};
    case kernel::grid_stride:
      return {
          "reduce_grid_stride_kernel",
          {{s::skip_loads}, {s::loads_back}, {s::exit_unless, survivor::first_warp}, exit_thread0}};
  }
  throw usage_error("instruction model: unknown kernel");
}

std::string mangled(const char* name, bool integers) {
  const std::string n(name);
  return "_ZN7cudalab9reduction" + std::to_string(n.size()) + n + (integers ? "IiE" : "IfE") +
         "EvPKT_PS2_j";
}

unsigned log2_of(unsigned power_of_two) {
  unsigned l = 0;
  while ((1u << l) < power_of_two) ++l;
  return l;
}

// Steps of the shared-memory tree loop of a block of `block` threads.
unsigned tree_steps(kernel k, unsigned block) {
  if (k == kernel::warp_shuffle) return block >= 128 ? log2_of(block) - 6 : 0;  // s > 32 only
  return log2_of(block);
}

// One warp's context: what the lanes' answers depend on.
struct warp_context {
  unsigned first_tid = 0;                 // threadIdx.x of lane 0
  unsigned steps = 0;                     // tree loop steps
  std::array<std::uint32_t, 32> loads{};  // per lane: iterations of the load loop
};

sass::lane_decision decisions(const kernel_shape& shape, const warp_context& w) {
  return [&shape, &w](std::size_t index, unsigned lane, std::uint32_t visit) {
    const site_rule& rule = shape.sites[index];
    const unsigned tid = w.first_tid + lane;
    switch (rule.kind) {
      case site::skip_tree:
        return w.steps == 0;
      case site::tree_back:
        return visit + 1 < w.steps;
      case site::skip_call:  // step `visit` has stride 2^visit
        return !reduction::interleaved_divergent_active(tid, 1u << visit);
      case site::skip_loads:
        return w.loads[lane] == 0;
      case site::loads_back:
        return visit + 1 < w.loads[lane];
      case site::exit_unless:
        return rule.keeps == survivor::thread0 ? tid != 0 : reduction::warp_of(tid) != 0;
    }
    return false;
  };
}

struct parsed_sass {
  sass::program program;
  std::string error;
};

const parsed_sass& embedded_program() {
  static const parsed_sass parsed = [] {
    parsed_sass p;
    if (!embedded_sass_unavailable.empty()) {
      p.error = std::string(embedded_sass_unavailable);
      return p;
    }
    try {
      p.program = sass::program::parse(embedded_sass);
    } catch (const std::exception& e) {
      p.error = std::string("the embedded SASS could not be read: ") + e.what();
    }
    return p;
  }();
  return parsed;
}

// Per-lane load-loop trips: the number of k with first + k * stride < count.
std::uint32_t trips(std::uint64_t first, std::uint64_t stride, std::uint64_t count) {
  return first < count ? static_cast<std::uint32_t>((count - first - 1) / stride + 1) : 0;
}

// A warp of these kernels runs at most a few hundred instructions plus about ten a load-loop
// trip (8,192 trips at most): far more means the answers do not fit the code (a -G build).
constexpr std::uint64_t max_warp_instructions = std::uint64_t{1} << 20;

// Walks every warp of a grid of `blocks` blocks; warps with the same context are walked once.
template <typename fill_loads>
instruction_counts walk_grid(const sass::function& f, const kernel_shape& shape, kernel k,
                             unsigned blocks, unsigned block, fill_loads&& loads_of) {
  std::map<std::pair<unsigned, std::array<std::uint32_t, 32>>, std::uint64_t> warps;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned first = 0; first < block; first += 32) {
      std::array<std::uint32_t, 32> loads{};
      loads_of(b, first, loads);
      ++warps[{first, loads}];
    }
  instruction_counts total;
  for (const auto& [key, count] : warps) {
    warp_context w{key.first, tree_steps(k, block), key.second};
    total +=
        sass::walk_warp(f, 0xffffffffu, decisions(shape, w), max_warp_instructions).scaled(count);
  }
  return total;
}

instruction_counts walk(const sass::function& f, const kernel_shape& shape, kernel k, std::size_t n,
                        unsigned block);

}  // namespace

std::string_view reduction_sass() { return embedded_sass; }

model::access_counts with_instructions(model::access_counts counts, kernel first, std::size_t n,
                                       unsigned block, bool finish_on_gpu, bool integers) {
  auto p = predict_instructions(first, n, block, integers);
  if (p.counts && finish_on_gpu) {
    const auto finish = predict_instructions(kernel::finish, blocks_of(first, n, block),
                                             reduction::finish_block, integers);
    if (finish.counts)
      *p.counts += *finish.counts;
    else
      p.counts.reset();
  }
  counts.instructions = p.counts;
  return counts;
}

instruction_prediction predict_instructions(kernel k, std::size_t n, unsigned block,
                                            bool integers) {
  if (k != kernel::finish && !reduction::is_valid_block(block))
    throw usage_error("block " + std::to_string(block) +
                      ": the reduction kernels take a power of two in 32..1024");
  const parsed_sass& parsed = embedded_program();
  if (!parsed.error.empty()) return {std::nullopt, parsed.error};
  const kernel_shape shape = shape_of(k);
  const std::string name = mangled(shape.name, integers);
  const sass::function* f = parsed.program.find(name);
  if (f == nullptr) return {std::nullopt, "the embedded SASS has no " + name};
  if (sass::conditional_sites(*f) != shape.sites.size())
    return {std::nullopt, std::string(shape.name) + " compiled to " +
                              std::to_string(sass::conditional_sites(*f)) +
                              " conditional branches and exits; the model knows the shape with " +
                              std::to_string(shape.sites.size())};

  try {
    return {walk(*f, shape, k, n, block), {}};
  } catch (const std::exception& e) {
    // Same number of sites, other code (the -G build): no prediction rather than a wrong one.
    return {std::nullopt, std::string("the SASS of ") + shape.name +
                              " does not follow the model's shape: " + e.what()};
  }
}

namespace {

instruction_counts walk(const sass::function& f, const kernel_shape& shape, kernel k, std::size_t n,
                        unsigned block) {
  switch (k) {
    case kernel::finish: {
      const unsigned threads = reduction::finish_block;
      return walk_grid(f, shape, k, 1, threads,
                       [&](unsigned, unsigned first, std::array<std::uint32_t, 32>& loads) {
                         for (unsigned lane = 0; lane < 32; ++lane)
                           loads[lane] = trips(first + lane, threads, n);
                       });
    }
    case kernel::grid_stride: {
      const unsigned blocks = reduction::grid_stride_blocks(n, block);
      const std::uint64_t stride = std::uint64_t{blocks} * block;
      return walk_grid(f, shape, k, blocks, block,
                       [&](unsigned b, unsigned first, std::array<std::uint32_t, 32>& loads) {
                         for (unsigned lane = 0; lane < 32; ++lane)
                           loads[lane] =
                               trips(std::uint64_t{b} * block + first + lane, stride, n / 4);
                       });
    }
    default: {
      // Every block of a tree runs the same branches (its missing elements are zeros loaded
      // by a select, not absent threads): walk one block, count it once per block.
      const auto one = walk_grid(f, shape, k, 1, block,
                                 [](unsigned, unsigned, std::array<std::uint32_t, 32>&) {});
      return one.scaled(blocks_of(k, n, block));
    }
  }
  throw std::logic_error("instruction model: unhandled kernel");
}

}  // namespace
}  // namespace cudalab::labs::reduction_model
