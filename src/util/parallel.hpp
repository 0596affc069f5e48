// Independent items spread over the machine's cores, taken from one queue so
// that uneven items balance; the caller keeps results in input order by
// writing them at their index.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace gpucheck {

// Calls body(i) for every i in [0, n) on up to `max_threads` threads, the
// calling one included, and returns when all are done. A thread costs about
// what `items_per_thread` items do, so few items run on fewer threads.
template <class Body>
void parallel_for(std::size_t n, std::size_t items_per_thread, Body body, std::size_t max_threads = 16) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < n; i = next++) body(i);
  };
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t threads = std::min({cores, n / std::max<std::size_t>(items_per_thread, 1) + 1, max_threads});
  std::vector<std::jthread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
}  // the pool joins here, before anyone reads the results

}  // namespace gpucheck
