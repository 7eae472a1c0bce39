// Computes count results on worker threads, in index order, while the caller does other work.
//
// The runner uses it for the model's predictions: they run on the other cores while the GPU
// runs the variants, and take(i) waits only if point i is not done yet. A run's predictions
// are bounded before they start (model_budget.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <functional>
#include <future>
#include <thread>
#include <vector>

namespace cudalab {

template <class T>
class background_results {
 public:
  background_results(std::size_t count, std::function<T(std::size_t)> compute,
                     unsigned workers = std::max(1u, std::thread::hardware_concurrency()))
      : m_compute(std::move(compute)), m_promises(count) {
    for (auto& p : m_promises) m_futures.push_back(p.get_future());
    workers = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, workers), count));
    for (unsigned w = 0; w < workers; ++w) m_threads.emplace_back([this] { work(); });
  }
  // Items not yet started are abandoned; the ones running finish first.
  ~background_results() {
    m_cancel = true;
    for (auto& t : m_threads) t.join();
  }
  background_results(const background_results&) = delete;  // threads point at this object
  background_results& operator=(const background_results&) = delete;

  // Waits for item i and returns it, or rethrows what computing it threw. Once per item.
  T take(std::size_t i) { return m_futures.at(i).get(); }

 private:
  void work() {
    for (std::size_t i; !m_cancel && (i = m_next++) < m_promises.size();) {
      try {
        m_promises[i].set_value(m_compute(i));
      } catch (...) {
        m_promises[i].set_exception(std::current_exception());
      }
    }
  }

  std::function<T(std::size_t)> m_compute;
  std::vector<std::promise<T>> m_promises;
  std::vector<std::future<T>> m_futures;
  std::atomic<std::size_t> m_next{0};
  std::atomic<bool> m_cancel{false};
  std::vector<std::thread> m_threads;
};

}  // namespace cudalab
