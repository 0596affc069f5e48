// An image's NVIDIA_REQUIRE_* judged as libnvidia-container judges it at
// start (src/cli/dsl.c): spaces separate alternatives, commas conditions
// that must all hold; versions by their numbers; brands as words; what the
// host does not know holds; a malformed condition is what the toolkit
// calls an invalid expression.
#include <catch2/catch.hpp>

#include "rules/container_require.hpp"

using namespace gpucheck;

namespace {

RequireValues host(const char* cuda, const char* driver, const char* arch = nullptr, const char* brand = nullptr) {
  RequireValues v;
  if (cuda) v.cuda = Version::parse(cuda);
  if (driver) v.driver = Version::parse(driver);
  if (arch) v.arch = Version::parse(arch);
  if (brand) v.brand = brand;
  return v;
}

// The value of NVIDIA_REQUIRE_CUDA in nvidia/cuda:12.4.1 images (its first
// alternatives), as the reference notes quote it.
constexpr const char* kCuda124 =
    "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 brand=tesla,driver>=535,driver<536";

}  // namespace

TEST_CASE("NVIDIA_REQUIRE_CUDA: a driver whose CUDA is new enough meets it", "[container]") {
  CHECK_FALSE(unmet_requirement(kCuda124, host("12.4", "550.54.15")));
  CHECK_FALSE(unmet_requirement(kCuda124, host("12.6", "560.35.03")));
  CHECK_FALSE(unmet_requirement("cuda>=12.2", host("12.2.0", "535.104.05")));  // 12.2 == 12.2.0
}

TEST_CASE("NVIDIA_REQUIRE_CUDA: an older driver meets it only through a forward-compatible alternative", "[container]") {
  // 535 on a Tesla: the third alternative holds.
  CHECK_FALSE(unmet_requirement(kCuda124, host("12.2", "535.104.05", "9.0", "Tesla")));
  // The same driver on a GeForce: none holds, and the first is named.
  auto why = unmet_requirement(kCuda124, host("12.2", "535.104.05", "8.9", "GeForce"));
  REQUIRE(why);
  CHECK(*why == "cuda>=12.4 (the driver's CUDA is 12.2)");
  // 545 is in no alternative.
  CHECK(unmet_requirement(kCuda124, host("12.3", "545.23.08", "9.0", "Tesla")));
}

TEST_CASE("NVIDIA_REQUIRE_*: unknown values hold, keys and brands in any case, bad expressions refused", "[container]") {
  // No GPU given (arch, brand unknown): the toolkit takes them as met.
  CHECK_FALSE(unmet_requirement("arch>=9.0 brand=tesla", host("12.4", "550.54.15")));
  CHECK_FALSE(unmet_requirement("BRAND=TESLA", host("12.4", "550.54.15", "9.0", "Tesla")));
  CHECK(unmet_requirement("arch>=9.0", host("12.4", "550.54.15", "8.0", "Tesla")).value() ==
        "arch>=9.0 (the GPU's compute capability is 8.0)");
  CHECK_THAT(unmet_requirement("cuda>>12", host("12.4", "550.54.15")).value(), Catch::Contains("invalid expression"));
  CHECK_THAT(unmet_requirement("colour=blue", host("12.4", "550.54.15")).value(), Catch::Contains("invalid expression"));
  CHECK_THAT(unmet_requirement("brand>tesla", host("12.4", "550.54.15")).value(), Catch::Contains("invalid expression"));
  CHECK_FALSE(unmet_requirement("", host("12.4", "550.54.15")));
}

TEST_CASE("brands as libnvidia-container names them", "[container]") {
  CHECK(container_brand("Tesla") == "Tesla");
  CHECK(container_brand("GeForce") == "GeForce");
  CHECK(container_brand("NVIDIA") == "Unknown");
  CHECK(container_brand("NVIDIA RTX") == "Unknown");
  CHECK(container_brand("Titan") == "TITAN");
}
