// sysfs PCI values, pci.ids, os-release, kernel log Xids, dpkg status, library names.
#include <catch2/catch.hpp>

#include "matrix/platform_knowledge.hpp"
#include "parse/dpkg_status.hpp"
#include "parse/kernel_log.hpp"
#include "parse/library_name.hpp"
#include "parse/os_release.hpp"
#include "parse/pci.hpp"
#include "test_support.hpp"
#include "util/strings.hpp"

using namespace gpucheck;
using gpucheck::test::data;

TEST_CASE("sysfs link speeds map to PCIe generations", "[pci]") {
  // The matrix's table (matrix/pcie.json), as the PCI probe passes it.
  const auto& rates = pcie_transfer_rates();
  CHECK(pcie_gen_from_speed("2.5 GT/s PCIe", rates) == 1);
  CHECK(pcie_gen_from_speed("5.0 GT/s PCIe", rates) == 2);
  CHECK(pcie_gen_from_speed("8.0 GT/s PCIe\n", rates) == 3);
  CHECK(pcie_gen_from_speed("16.0 GT/s PCIe", rates) == 4);
  CHECK(pcie_gen_from_speed("32.0 GT/s PCIe", rates) == 5);
  CHECK(pcie_gen_from_speed("64.0 GT/s PCIe", rates) == 6);
  CHECK(pcie_gen_from_speed("128.0 GT/s PCIe", rates) == 7);
  CHECK(pcie_gen_from_speed("2.5 GT/s", rates) == 1);  // kernels before 4.20 omit "PCIe"
  CHECK_FALSE(pcie_gen_from_speed("20.0 GT/s PCIe", rates));  // no generation's rate
  CHECK_FALSE(pcie_gen_from_speed("Unknown", rates));
  CHECK_FALSE(pcie_gen_from_speed("Unknown speed", rates));
  CHECK_FALSE(pcie_gen_from_speed("", rates));
}

TEST_CASE("the PCIe parser knows only the rates it is given", "[pci]") {
  const std::map<int, double> two{{1, 2.5}, {2, 5.0}};
  CHECK(pcie_gen_from_speed("5.0 GT/s PCIe", two) == 2);
  CHECK(pcie_gen_from_speed("5.05 GT/s PCIe", two) == 2);  // within 0.1 GT/s
  CHECK_FALSE(pcie_gen_from_speed("8.0 GT/s PCIe", two));
  CHECK_FALSE(pcie_gen_from_speed("2.5 GT/s PCIe", {}));
}

TEST_CASE("link widths", "[pci]") {
  CHECK(parse_link_width("16\n") == 16);
  CHECK(parse_link_width("x8") == 8);
  CHECK(parse_link_width("16x") == 16);
  CHECK(parse_link_width("0") == 0);
  CHECK_FALSE(parse_link_width("255"));
  CHECK_FALSE(parse_link_width("wide"));
}

TEST_CASE("hex ids", "[pci]") {
  CHECK(parse_hex_id("0x10de\n", 4) == "10de");
  CHECK(parse_hex_id("0x030200", 6) == "030200");
  CHECK(parse_hex_id("0x2330", 4) == "2330");
  CHECK(parse_hex_id("0xA", 4) == "000a");
  CHECK_FALSE(parse_hex_id("0x12345", 4));
  CHECK_FALSE(parse_hex_id("zz", 4));
  CHECK_FALSE(parse_hex_id("", 4));
}

TEST_CASE("pci.ids lookups", "[pci]") {
  const char* db =
      "# comment\n"
      "10de  NVIDIA Corporation\n"
      "\t2330  GH100 [H100 SXM5 80GB]\n"
      "\t\t10de 16c1  H100 SXM5 80GB\n"
      "\t2684  AD102 [GeForce RTX 4090]\n"
      "10df  Emulex Corporation\n"
      "\t2330  Not this one\n"
      "C 03  Display controller\n";
  CHECK(pci_ids_name(db, "10de", "2330") == "GH100 [H100 SXM5 80GB]");
  CHECK(pci_ids_name(db, "10de", "2330", "10de", "16c1") == "H100 SXM5 80GB");
  CHECK(pci_ids_name(db, "10de", "2330", "1028", "0000") == "GH100 [H100 SXM5 80GB]");
  CHECK(pci_ids_name(db, "10de", "2684") == "AD102 [GeForce RTX 4090]");
  CHECK_FALSE(pci_ids_name(db, "10de", "ffff"));
  CHECK_FALSE(pci_ids_name(db, "1002", "74a1"));
}

TEST_CASE("the real pci.ids of this machine, when present", "[pci]") {
  std::string db;
  try {
    db = gpucheck::test::read_file("/usr/share/misc/pci.ids");
  } catch (...) {
    WARN("no /usr/share/misc/pci.ids here (pciutils not installed)");
    return;
  }
  // NVIDIA's vendor block exists in every pci.ids release; 10de:1db4 is Tesla V100 PCIe 16GB.
  auto name = pci_ids_name(db, "10de", "1db4");
  REQUIRE(name);
  CHECK_THAT(*name, Catch::Contains("V100"));
}

TEST_CASE("os-release", "[os_release]") {
  auto r = parse_os_release(
      "PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\n"
      "VERSION_CODENAME=jammy\nID=ubuntu\n# comment\nBAD LINE\n");
  CHECK(r.id == "ubuntu");
  CHECK(r.version_id == "22.04");
  CHECK(r.pretty_name == "Ubuntu 22.04.4 LTS");
  CHECK(r.version_codename == "jammy");
  CHECK_FALSE(parse_os_release("").id);
  CHECK(parse_os_release("ID='rhel'\n").id == "rhel");
}

TEST_CASE("a number read from text is range-checked into its int, never wrapped", "[kernel_log][bad-input]") {
  CHECK(parse_int_in("79", 0, 1 << 20) == 79);
  CHECK_FALSE(parse_int_in("4294967375", 0, 1 << 20));  // 2^32 + 79
  CHECK_FALSE(parse_int_in("99999999999999999999", 0, 1 << 20));
  CHECK_FALSE(parse_int_in("-1", 0, 1 << 20));
  // A crafted kernel log cannot pass 2^32 + 79 off as Xid 79.
  const auto wrapped = parse_xid_events("[171167.6] NVRM: Xid (PCI:0009:01:00): 4294967375, pid=1, fallen off the bus\n"
                                        "[171167.7] NVRM: Xid (PCI:0009:01:00): 79, pid=1, GPU has fallen off the bus\n");
  REQUIRE(wrapped.size() == 1);
  CHECK(wrapped[0].xid == 79);
  CHECK(wrapped[0].seconds_since_boot == Approx(171167.7));
}

TEST_CASE("the driver's 'fallen off the bus' without an Xid number is Xid 79, once per GPU", "[kernel_log]") {
  // as NVSentinel#155's kernel log prints it at probe time, over three lines
  const std::string words =
      "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
      "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
      "               NVRM: fallen off the bus and is not responding to commands.\n";
  const auto ev = parse_xid_events(words);
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].xid == 79);
  CHECK(ev[0].pci_bus_id == "0000:b3:00.0");
  // beside the Xid 79 line of the same GPU, it is that event, not a second one
  const auto both = parse_xid_events("[1.0] NVRM: Xid (PCI:0000:b3:00): 79, pid=1, GPU has fallen off the bus.\n" + words);
  REQUIRE(both.size() == 1);
  CHECK(both[0].seconds_since_boot == Approx(1.0));
}

TEST_CASE("Xid events from dmesg text (real gpud fixtures)", "[kernel_log]") {
  auto ev = parse_xid_events(data("kmsg/dmesg_xid149-xid154_lines-from-test.txt"));
  REQUIRE(ev.size() >= 9);
  CHECK(ev[0].xid == 149);
  CHECK(ev[0].pci_bus_id == "0009:01:00.0");
  CHECK(ev[0].seconds_since_boot == Approx(171167.620236));
  CHECK_THAT(ev[0].message, Catch::StartsWith("NETIR_LINK_EVT"));
  CHECK(ev[1].xid == 154);
  auto iso = parse_xid_events(data("kmsg/dmesg_xid13-xid43_iso-timestamps.log"));
  REQUIRE_FALSE(iso.empty());
  CHECK(iso[0].xid == 13);
  CHECK(iso[0].pci_bus_id == "0000:38:00.0");
  CHECK_FALSE(iso[0].seconds_since_boot);  // wall-clock format: no uptime
  bool has43 = false;
  for (auto& e : iso) has43 |= e.xid == 43;
  CHECK(has43);
  auto gsp = parse_xid_events(data("kmsg/dmesg_xid119-gsp-rpc-timeout.log"));
  REQUIRE_FALSE(gsp.empty());
  CHECK(gsp[0].xid == 119);
}

TEST_CASE("kmsg records without Xids give none", "[kernel_log]") {
  CHECK(parse_xid_events(data("kmsg/kmsg_nvswitch-open.log")).empty());
  auto ev = parse_xid_events("4,1234,5678901234,-;NVRM: Xid (PCI:0000:18:00): 79, pid=1, GPU has fallen off the bus.\n");
  REQUIRE(ev.size() == 1);
  CHECK(ev[0].xid == 79);
  CHECK(ev[0].seconds_since_boot == Approx(5678.901234));
  CHECK(parse_xid_events("NVRM: Xid (PCI:0000:18:00): notanumber, x\nNVRM: Xid (\n").empty());
}

TEST_CASE("dpkg status", "[dpkg]") {
  const char* status =
      "Package: nvidia-fabricmanager-535\nStatus: deinstall ok config-files\nVersion: 535.104.05-1\n\n"
      "Package: nvidia-fabricmanager-550\nStatus: install ok installed\nVersion: 550.54.15-1\n\n"
      "Package: zlib1g\nStatus: install ok installed\nVersion: 1:1.2.13\n";
  auto p = find_installed_package(status, "nvidia-fabricmanager");
  REQUIRE(p);
  CHECK(p->name == "nvidia-fabricmanager-550");
  CHECK(p->version == "550.54.15-1");
  CHECK_FALSE(find_installed_package(status, "nvidia-compute-utils"));
  CHECK_FALSE(find_installed_package("", "x"));
}

TEST_CASE("library versions from file names", "[library_name]") {
  CHECK(library_version_from_name("/usr/lib/x86_64-linux-gnu/libcuda.so.550.90.07", "libcuda.so") == "550.90.07");
  CHECK(library_version_from_name("libnvidia-ml.so.535.104.05", "libnvidia-ml.so") == "535.104.05");
  CHECK_FALSE(library_version_from_name("/usr/lib/libcuda.so.1", "libcuda.so"));
  CHECK_FALSE(library_version_from_name("/usr/local/cuda/lib64/stubs/libcuda.so", "libcuda.so"));
  CHECK_FALSE(library_version_from_name("libcudart.so.12.2.140", "libcuda.so"));
  CHECK(is_stub_library_path("/usr/local/cuda-12.4/lib64/stubs/libcuda.so"));
  CHECK_FALSE(is_stub_library_path("/usr/lib/x86_64-linux-gnu/libcuda.so.1"));
  CHECK(is_compat_library_path("/usr/local/cuda-12.4/compat/libcuda.so.550.54.15"));
}
