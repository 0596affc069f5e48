// Which JSON reader `gpucheck fleet` uses: one report parsed N times by
// nlohmann's SAX interface (an empty handler: the least any nlohmann reader
// costs) and by simdjson's On-Demand API (walking the top level and one
// section, as src/fleet/node_report.cpp does). docs/PERFORMANCE.md, Fleet skew.
//
//   g++ -O3 -std=c++20 bench/fleet_parsers.cpp -lsimdjson -o /tmp/fleet_parsers
//   /tmp/fleet_parsers tests/fixtures/golden/h100-sxm-8gpu.json
#include <simdjson.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct CountingSax : nlohmann::json_sax<nlohmann::json> {
  std::size_t n = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t& s) override { n += s.size(); return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t& s) override { n += s.size(); return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::ifstream in(argv[1]);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  const int n = argc > 2 ? std::atoi(argv[2]) : 1000;
  std::size_t sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    CountingSax h;
    nlohmann::json::sax_parse(s, &h);
    sink += h.n;
  }
  const auto t1 = std::chrono::steady_clock::now();
  simdjson::ondemand::parser p;
  const simdjson::padded_string padded(s);
  for (int i = 0; i < n; ++i) {
    auto doc = p.iterate(padded);
    simdjson::ondemand::object top;
    if (doc.get_object().get(top)) return 1;
    for (auto field : top) {
      std::string_view k;
      if (field.unescaped_key().get(k)) return 1;
      sink += k.size();
      if (k != "nvidia_smi") continue;
      simdjson::ondemand::object smi;
      if (field.value().get_object().get(smi)) continue;
      for (auto f2 : smi) {
        std::string_view k2;
        if (!f2.unescaped_key().get(k2)) sink += k2.size();
      }
    }
  }
  const auto t2 = std::chrono::steady_clock::now();
  const double sax = std::chrono::duration<double>(t1 - t0).count(), od = std::chrono::duration<double>(t2 - t1).count();
  std::cout << s.size() << " bytes, " << n << " times: nlohmann SAX " << sax * 1000 / n << " ms a report ("
            << s.size() * n / sax / 1e6 << " MB/s); simdjson On-Demand (" << simdjson::builtin_implementation()->name()
            << ") " << od * 1000 / n << " ms a report (" << s.size() * n / od / 1e6 << " MB/s) [" << sink << "]\n";
}
