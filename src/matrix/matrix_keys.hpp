// What makes two matrix entries the same entry: the loader refuses a second
// one in a matrix, and a matrix layer (--matrix over the embedded one)
// replaces the one below it. One definition serves both.
#pragma once

#include <string>

#include "matrix/matrix.hpp"

namespace gpucheck {

// "12.4" and "12.4.0" are the same CUDA release, "8.0" and "8.00" the same
// architecture: versions are compared without trailing zero components.
std::string canonical_version(const Version& v);

// The identity of an entry, as "what" and "id" for messages ("CUDA
// release", "12.4"); an empty id when the entry lacks the fields (already
// reported as missing).
struct EntryKey {
  const char* what;
  std::string id;
};
EntryKey key_of(const GpuModel& g);
EntryKey key_of(const GpuId& g);
EntryKey key_of(const ArchPrecisions& a);
EntryKey key_of(const CudaRelease& c);
EntryKey key_of(const CudaFamily& f);
EntryKey key_of(const FrameworkVariant& v);
EntryKey key_of(const NgcRelease& n);
EntryKey key_of(const RocmRelease& r);
EntryKey key_of(const DriverBranch& b);
EntryKey key_of(const XidEntry& x);
EntryKey key_of(const XidRecoveryAction& a);
EntryKey key_of(const KnownModel& m);
EntryKey key_of(const SonamePrefixes& p);
EntryKey key_of(const SubLibraries& s);
EntryKey key_of(const LibraryWheels& w);
EntryKey key_of(const PcieGeneration& g);
EntryKey key_of(const CudaError& e);

}  // namespace gpucheck
