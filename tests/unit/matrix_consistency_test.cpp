// One truth: the matrix's tables agree with each other. A CUDA version an
// NGC or framework entry names is one cuda.json knows (else its driver
// floor would be judged from nothing), no container claims to run below
// its CUDA family's minor-version floor, a toolkit's driver is never below
// that floor, and every compute capability an entry names is a known
// architecture.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "gpucheck_run.hpp"
#include "test_support.hpp"

#include "matrix/lookup.hpp"
#include "matrix/matrix_load.hpp"
#include "util/version.hpp"

using namespace gpucheck;

namespace {

const Matrix& embedded() {
  static const Matrix m = load_embedded_matrix().value();
  return m;
}

Version v(const std::string& s) { return Version::parse(s).value(); }

std::set<std::string> known_compute_capabilities() {
  std::set<std::string> out;
  for (const auto& a : embedded().arch_precisions) out.insert(a.compute_capability.text());
  for (const auto& g : embedded().gpus)
    if (g.compute_capability) out.insert(g.compute_capability->text());
  return out;
}

}  // namespace

TEST_CASE("every CUDA version the NGC and framework tables name is in cuda.json", "[matrix][consistency]") {
  const auto& m = embedded();
  for (const auto& n : m.ngc) {
    if (!n.cuda) continue;
    INFO("NGC " << n.framework << " " << n.tag << ": CUDA " << n.cuda->text());
    CHECK(find_cuda_release(m, *n.cuda) != nullptr);
    CHECK(find_cuda_family(m, static_cast<int>(n.cuda->major())) != nullptr);
  }
  for (const auto& f : m.frameworks) {
    if (!f.cuda) continue;
    INFO(f.framework << " " << f.version.text() << " " << f.variant << ": CUDA " << f.cuda->text());
    CHECK(find_cuda_release(m, *f.cuda) != nullptr);
  }
}

TEST_CASE("every torch release a framework build pins has a torch build, its PyPI default among them", "[matrix][consistency]") {
  // vLLM 0.33 pins torch==2.14.0: the matrix knows the torch it runs on,
  // and which build pip brings with it.
  const auto& m = embedded();
  int pins = 0;
  for (const auto& f : m.frameworks) {
    if (!f.torch) continue;
    ++pins;
    INFO(f.framework << " " << f.version.text() << " pins torch " << f.torch->text());
    CHECK(find_pypi_default(m, "torch", f.torch->text(), std::nullopt) != nullptr);
  }
  CHECK(pins > 0);
}

TEST_CASE("no driver floor is below its CUDA family's minor-version floor", "[matrix][consistency]") {
  const auto& m = embedded();
  for (const auto& n : m.ngc) {
    if (!n.cuda) continue;
    const auto* fam = find_cuda_family(m, static_cast<int>(n.cuda->major()));
    if (!fam || !fam->minor_compat_min_driver) continue;
    INFO("NGC " << n.framework << " " << n.tag << ": driver " << n.min_driver.text() << ", CUDA " << n.cuda->text() << " floor "
                << fam->minor_compat_min_driver->text());
    CHECK(v(fam->minor_compat_min_driver->text().substr(0, 3)) <= n.min_driver);
  }
  // A later release of a major never needs an older driver (CUDA 11.0 came
  // before minor-version compatibility, so a toolkit's driver may be below
  // its family's floor).
  std::map<int, Version> last;
  for (const auto& r : m.cuda_releases) {
    if (!r.min_driver_linux) {
      CHECK(r.note);  // absent only with the reason
      continue;
    }
    const auto& ver = r.version;
    INFO("CUDA " << r.version.text() << ": driver " << r.min_driver_linux->text());
    if (auto it = last.find(static_cast<int>(ver.major())); it != last.end()) CHECK(it->second <= *r.min_driver_linux);
    last.insert_or_assign(static_cast<int>(ver.major()), *r.min_driver_linux);
  }
}

TEST_CASE("every compute capability an NGC or framework entry names is a known architecture", "[matrix][consistency]") {
  const auto known = known_compute_capabilities();
  const auto& m = embedded();
  for (const auto& n : m.ngc)
    if (n.min_compute_capability) {
      INFO("NGC " << n.framework << " " << n.tag);
      CHECK(known.count(n.min_compute_capability->text()) == 1);
    }
  for (const auto& f : m.frameworks) {
    INFO(f.framework << " " << f.version.text() << " " << f.variant);
    for (const auto& cc : f.arch_list) CHECK(known.count(cc.text()) == 1);
    for (const auto* cc : {&f.min_compute_capability, &f.max_compute_capability, &f.ptx})
      if (*cc) CHECK(known.count((*cc)->text()) == 1);
  }
}

// A GPU whose architecture has no row has no precisions: its kernel checks
// and --require would judge it from nothing.
TEST_CASE("every NVIDIA GPU model's compute capability has an architecture row", "[matrix][consistency]") {
  const auto& m = embedded();
  for (const auto& g : m.gpus)
    if (g.compute_capability) {
      INFO(g.id << " " << g.compute_capability->text());
      CHECK(find_arch_precisions(m, g.compute_capability->text()) != nullptr);
    }
}

TEST_CASE("recommend never states a driver floor below cuda.json's without naming cuda.json's", "[matrix][consistency][cli]") {
  // NGC's release notes often state minor-version compatibility's floor
  // (25.03: 560); cuda.json holds CUDA 12.8.1's own driver (570.124.06).
  // Advice that gave only the first would contradict what check judges by.
  const auto& m = embedded();
  namespace fs = std::filesystem;
  int judged = 0;
  for (const auto& e : fs::directory_iterator(gpucheck::test::source_path("tests/fixtures/hosts"))) {
    if (!e.is_directory()) continue;  // each fixture's notes sit beside it
    const auto r = nlohmann::json::parse(gpucheck::test::run_gpucheck({"--root", e.path().string(), "recommend", "--json"}).out);
    for (const auto& fw : r["recommendations"]["frameworks"])
      for (const char* kind : {"native", "forward_compat"}) {
        if (fw[kind].is_null()) continue;
        const std::string detail = fw[kind]["detail"];
        const std::string release = fw[kind]["release"];
        INFO(e.path().filename().string() << " " << fw["framework"] << " " << release << ": " << detail);
        for (const auto& n : m.ngc) {
          if (n.framework != fw["framework"] || n.release.text() != release || !n.cuda) continue;
          const auto* rel = find_cuda_release(m, *n.cuda);
          if (!rel || !rel->min_driver_linux || !(n.min_driver < *rel->min_driver_linux)) continue;
          CHECK_THAT(detail, Catch::Contains(rel->min_driver_linux->text()));
          ++judged;
        }
      }
  }
  CHECK(judged > 0);
}
