#include "cudalab/trace/trace_record.hpp"

#include "cudalab/check.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace cudalab::trace {
namespace {

using json = nlohmann::json;

std::uint64_t count(const json& j, const char* key) {
  if (!j.contains(key)) return 0;
  // A count is a whole number from 0 (JSON keeps those unsigned): a negative one is refused too.
  if (!j.at(key).is_number_unsigned())
    throw error(std::string("trace: '") + key + "' is not a count");
  return j.at(key).get<std::uint64_t>();
}

}  // namespace

traced_launch parse_traced_launch(const std::string& line) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {
    throw error(std::string("trace: a line is not JSON (") + e.what() + ")");
  }
  if (!j.is_object() || !j.contains("label") || !j.at("label").is_string())
    throw error("trace: a line has no label");
  traced_launch out;
  try {
    out.label = j.at("label").get<std::string>();
    out.kernel = j.value("kernel", std::string());
    out.cubin = j.value("cubin", std::string());
    out.error = j.value("error", std::string());
    out.function_pc = count(j, "function_pc");
    out.function_size = count(j, "function_size");
    out.dropped = count(j, "dropped");
    out.launches = j.contains("launches") ? count(j, "launches") : 1;
    out.nvtx = j.value("nvtx", std::string());
    out.nanoseconds = count(j, "nanoseconds");
    if (j.contains("range_counts")) {
      const json& counts = j.at("range_counts");
      if (!counts.is_object()) throw error("trace: range_counts is not an object");
      for (const auto& [column, value] : counts.items())
        out.range_counts[column] = count(counts, column.c_str());
    }
    for (auto [key, dims] : {std::pair{"grid", &out.grid}, std::pair{"block", &out.block}}) {
      if (!j.contains(key)) continue;
      const json& d = j.at(key);
      if (!d.is_array() || d.size() != 3)
        throw error(std::string("trace: ") + key + " is not 3 numbers");
      for (std::size_t i = 0; i < 3; ++i) {
        if (!d[i].is_number_unsigned() || d[i].get<std::uint64_t>() == 0)
          throw error(std::string("trace: ") + key + " has a dimension that is no positive count");
        (*dims)[i] = d[i].get<unsigned>();
      }
    }
    if (j.contains("pcs")) {
      for (const json& p : j.at("pcs")) {
        traced_pc pc;
        pc.offset = count(p, "offset");
        const std::string space = p.at("space").get<std::string>();
        if (space != "global" && space != "shared")
          throw error("trace: space '" + space + "' is neither global nor shared");
        pc.space = space == "shared" ? model::memory_space::shared : model::memory_space::global;
        const std::string kind = p.at("kind").get<std::string>();
        if (kind == "load")
          pc.kind = traced_kind::load;
        else if (kind == "store")
          pc.kind = traced_kind::store;
        else if (kind == "atomic")
          pc.kind = traced_kind::atomic;
        else
          throw error("trace: kind '" + kind + "' is not load, store or atomic");
        pc.width = static_cast<unsigned>(count(p, "width"));
        pc.instructions = count(p, "instructions");
        pc.sectors = count(p, "sectors");
        pc.bytes = count(p, "bytes");
        pc.wavefronts = count(p, "wavefronts");
        pc.ideal = count(p, "ideal");
        if (pc.ideal > pc.wavefronts)
          throw error("trace: a pc has more ideal wavefronts than wavefronts");
        out.pcs.push_back(pc);
      }
    }
  } catch (const json::exception& e) {
    throw error(std::string("trace: malformed line (") + e.what() + ")");
  }
  return out;
}

std::uintmax_t trace_file_end(const std::string& path) {
  std::error_code e;
  const std::uintmax_t size = std::filesystem::file_size(path, e);
  return e ? 0 : size;
}

std::vector<traced_launch> read_trace_file(const std::string& path, std::uintmax_t from) {
  std::ifstream in(path);
  if (!in) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) return {};  // nothing was traced
    throw error("trace: cannot read " + path);
  }
  in.seekg(static_cast<std::streamoff>(from));
  std::vector<traced_launch> out;
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos)
      out.push_back(parse_traced_launch(line));
  return out;
}

model::access_counts traced_counts(const std::vector<traced_launch>& launches) {
  model::access_counts c;
  for (const traced_launch& l : launches)
    for (const traced_pc& p : l.pcs) {
      if (p.kind == traced_kind::atomic) continue;
      const bool load = p.kind == traced_kind::load;
      if (p.space == model::memory_space::global) {
        (load ? c.global_ld_requests : c.global_st_requests) += p.instructions;
        (load ? c.global_ld_sectors : c.global_st_sectors) += p.sectors;
        (load ? c.global_ld_bytes : c.global_st_bytes) += p.bytes;
      } else {
        (load ? c.shared_ld_instructions : c.shared_st_instructions) += p.instructions;
        (load ? c.shared_ld_wavefronts : c.shared_st_wavefronts) += p.wavefronts;
        (load ? c.shared_ld_conflicts : c.shared_st_conflicts) += p.conflicts();
      }
    }
  return c;
}

}  // namespace cudalab::trace
