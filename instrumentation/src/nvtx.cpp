// The cudalab NVTX domain's registries: each message is registered once and each lab's
// category is named once, both for the life of the process, because tools keep the handles.
// With a tool attached the cost per range is a map lookup and one push/pop call; with none,
// one branch (tool_attached). instrumentation/tests/nvtx captures these ranges through CUPTI.
#include "cudalab/nvtx.hpp"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

namespace cudalab::nvtx {

const nvtx3::registered_string_in<domain>& registered(std::string_view message) {
  // Registered strings live for the whole process: NVTX tools keep their handles.
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<nvtx3::registered_string_in<domain>>, std::less<>>
      strings;
  std::lock_guard<std::mutex> guard(lock);
  auto it = strings.find(message);
  if (it == strings.end()) {
    std::string key(message);
    auto handle = std::make_unique<nvtx3::registered_string_in<domain>>(key.c_str());
    it = strings.emplace(std::move(key), std::move(handle)).first;
  }
  return *it->second;
}

nvtx3::category lab_category(std::string_view lab_id) {
  // "04-coalescing" -> 4; an id without a leading number gets category 0 (none).
  const std::string id(lab_id);
  const auto number = static_cast<uint32_t>(std::strtoul(id.c_str(), nullptr, 10));
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<nvtx3::named_category_in<domain>>> named;
  std::lock_guard<std::mutex> guard(lock);
  auto& category = named[id];
  if (!category) category = std::make_unique<nvtx3::named_category_in<domain>>(number, id.c_str());
  return *category;
}

namespace {
// On Linux an NVTX tool (nsys, ncu, CUPTI) attaches only through NVTX_INJECTION64_PATH, read
// once when the process starts using NVTX. Without it every NVTX call is a no-op, so the
// range skips even the registry lookups: one branch per range.
bool tool_attached() {
  static const bool attached = std::getenv("NVTX_INJECTION64_PATH") != nullptr;
  return attached;
}
}  // namespace

scoped_range::scoped_range(std::string_view message, std::string_view lab_id)
    : m_active(tool_attached()) {
  if (!m_active) return;
  if (lab_id.empty()) {
    nvtx3::event_attributes attributes{registered(message)};
    nvtxDomainRangePushEx(nvtx3::domain::get<domain>(), attributes.get());
  } else {
    nvtx3::event_attributes attributes{registered(message), lab_category(lab_id)};
    nvtxDomainRangePushEx(nvtx3::domain::get<domain>(), attributes.get());
  }
}

scoped_range::~scoped_range() {
  if (m_active) nvtxDomainRangePop(nvtx3::domain::get<domain>());
}

std::string variant_range_name(std::string_view lab_id, std::string_view variant) {
  std::string name(lab_id);
  name += '/';
  name += variant;
  return name;
}

}  // namespace cudalab::nvtx
