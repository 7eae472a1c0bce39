#include "cudalab/model/sass_warp_walk.hpp"

#include <array>
#include <bitset>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudalab::model::sass {

instruction_counts& instruction_counts::operator+=(const instruction_counts& other) {
  warp_instructions += other.warp_instructions;
  thread_instructions += other.thread_instructions;
  uniform_branches += other.uniform_branches;
  divergent_branches += other.divergent_branches;
  return *this;
}

instruction_counts instruction_counts::scaled(std::uint64_t times) const {
  return {warp_instructions * times, thread_instructions * times, uniform_branches * times,
          divergent_branches * times};
}

double instruction_counts::threads_per_instruction() const {
  return warp_instructions == 0
             ? 0.0
             : static_cast<double>(thread_instructions) / static_cast<double>(warp_instructions);
}

double instruction_counts::branch_uniformity_pct() const {
  const std::uint64_t all = uniform_branches + divergent_branches;
  return all == 0 ? 0.0 : 100.0 * static_cast<double>(uniform_branches) / static_cast<double>(all);
}

namespace {

constexpr std::size_t no_site = static_cast<std::size_t>(-1);

bool is_site(const instruction& inst) {
  const auto op = inst.base_opcode();
  return inst.conditional() && (op == "BRA" || op == "EXIT");
}

int lanes_in(std::uint32_t mask) { return static_cast<int>(std::bitset<32>(mask).count()); }

// Where a part of the warp stopped: at the BSYNC it was told to wait at, or at its end.
struct stop {
  std::size_t after_bsync = 0;  // index of the instruction after that BSYNC
  std::uint32_t lanes = 0;      // lanes still alive there
};

class warp_walk {
 public:
  warp_walk(const function& f, const lane_decision& takes, std::uint64_t max_instructions)
      : m_f(f), m_takes(takes), m_max(max_instructions), m_site(f.code.size(), no_site) {
    std::size_t sites = 0;
    for (std::size_t i = 0; i < f.code.size(); ++i)
      if (is_site(f.code[i])) m_site[i] = sites++;
    m_visits.resize(sites);
  }

  instruction_counts run(std::uint32_t lanes) {
    std::vector<std::size_t> returns;
    std::vector<std::string> barriers;
    run_part(0, lanes, returns, barriers, "");
    return m_counts;
  }

 private:
  // Runs `lanes` from instruction `pc`. With `wait_at` set (a barrier register such as "B0"),
  // stops after executing BSYNC of it; otherwise runs until every lane has exited.
  stop run_part(std::size_t pc, std::uint32_t lanes, std::vector<std::size_t> returns,
                std::vector<std::string> barriers, const std::string& wait_at) {
    while (lanes != 0) {
      if (pc >= m_f.code.size())
        throw std::runtime_error(m_f.name + ": the walk ran past the last instruction");
      const instruction& inst = m_f.code[pc];
      if (++m_counts.warp_instructions > m_max)
        throw std::runtime_error(m_f.name + ": the walk passed " + std::to_string(m_max) +
                                 " warp instructions (a loop the model never ends?)");
      m_counts.thread_instructions += static_cast<std::uint64_t>(lanes_in(lanes));
      const auto op = inst.base_opcode();

      if (op == "EXIT") {
        const std::uint32_t leaving = inst.conditional() ? decide(pc, lanes) : lanes;
        lanes &= ~leaving;
        ++pc;
      } else if (op == "BSSY") {
        barriers.push_back(first_operand(inst));
        ++pc;
      } else if (op == "BSYNC") {
        const std::string reg = first_operand(inst);
        if (!wait_at.empty() && reg == wait_at) return {pc + 1, lanes};
        if (!barriers.empty() && barriers.back() == reg) barriers.pop_back();
        ++pc;
      } else if (op == "CALL") {
        ++m_counts.uniform_branches;
        returns.push_back(pc + 1);
        pc = m_f.index_of(*inst.target);
      } else if (op == "RET") {
        ++m_counts.uniform_branches;
        if (returns.empty()) throw std::runtime_error(m_f.name + ": RET with no CALL");
        pc = returns.back();
        returns.pop_back();
      } else if (op == "BRA") {
        const std::size_t target = m_f.index_of(*inst.target);
        if (target == pc)
          throw std::runtime_error(m_f.name + ": reached the BRA-to-itself after the last EXIT");
        const std::uint32_t taken = inst.conditional() ? decide(pc, lanes) : lanes;
        if (taken == lanes || taken == 0) {
          ++m_counts.uniform_branches;
          pc = taken == 0 ? pc + 1 : target;
          continue;
        }
        ++m_counts.divergent_branches;
        const std::uint32_t falling = lanes & ~taken;
        if (barriers.empty()) {
          // No convergence barrier: each part runs to its end.
          run_part(pc + 1, falling, returns, barriers, "");
          run_part(target, taken, returns, barriers, "");
          return {};
        }
        const std::string reg = barriers.back();
        const stop a = run_part(pc + 1, falling, returns, barriers, reg);
        const stop b = run_part(target, taken, returns, barriers, reg);
        if (a.lanes != 0 && b.lanes != 0 && a.after_bsync != b.after_bsync)
          throw std::runtime_error(m_f.name + ": the two sides of a branch met different BSYNCs");
        barriers.pop_back();
        pc = a.lanes != 0 ? a.after_bsync : b.after_bsync;
        lanes = a.lanes | b.lanes;
      } else {
        ++pc;
      }
    }
    return {pc, 0};
  }

  std::uint32_t decide(std::size_t pc, std::uint32_t lanes) {
    auto& visits = m_visits[m_site[pc]];
    std::uint32_t taken = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
      if ((lanes >> lane & 1u) == 0) continue;
      if (m_takes(m_site[pc], lane, visits[lane])) taken |= 1u << lane;
      ++visits[lane];
    }
    return taken;
  }

  static std::string first_operand(const instruction& inst) {
    return inst.operands.substr(0, inst.operands.find_first_of(", "));
  }

  const function& m_f;
  const lane_decision& m_takes;
  std::uint64_t m_max;
  std::vector<std::size_t> m_site;                        // instruction index -> site or no_site
  std::vector<std::array<std::uint32_t, 32>> m_visits{};  // site -> visits of each lane
  instruction_counts m_counts;
};

}  // namespace

std::size_t conditional_sites(const function& f) {
  std::size_t sites = 0;
  for (const auto& inst : f.code) sites += is_site(inst) ? 1 : 0;
  return sites;
}

instruction_counts walk_warp(const function& f, std::uint32_t active_lanes,
                             const lane_decision& takes, std::uint64_t max_instructions) {
  return warp_walk(f, takes, max_instructions).run(active_lanes);
}

}  // namespace cudalab::model::sass
