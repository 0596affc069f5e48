#!/bin/sh
# Builds the small synthetic shared objects the ELF and loader tests read
# (and the one committed in tests/fixtures/hosts/ld-path-shadows-cudnn/).
# Usage: build.sh CXX OUTDIR
# Each stub library is an empty object with the soname of a real one; the
# "framework" objects link them with --no-as-needed so every one becomes a
# DT_NEEDED entry, with DT_RPATH (--disable-new-dtags) or DT_RUNPATH
# (--enable-new-dtags) as the real objects have.
set -eu
cxx=$1
out=$2
mkdir -p "$out/stubs"
cd "$out"
src=stub.cpp
printf 'extern "C" int gpucheck_elf_stub(void) { return 0; }\n' > $src
# Small and reproducible: no build id, one page size, no separate code segment, stripped.
small="-Wl,--build-id=none -Wl,-z,noseparate-code -Wl,-z,max-page-size=4096 -Wl,-z,norelro -s -nostdlib"

stub() {  # soname
  "$cxx" -x c++ -shared -fPIC $small -Wl,-soname,"$1" -o "stubs/$1" $src
}

# The GPU libraries torch 2.4 (cu121) links, plus a system library.
for s in libcudart.so.12 libcublas.so.12 libcublasLt.so.12 libcudnn.so.9 libcufft.so.11 libcurand.so.10 \
         libcusparse.so.12 libnccl.so.2 libnvToolsExt.so.1 libc10_cuda.so libc10.so libtorch_cpu.so; do
  stub "$s"
done
needed() {  # the -l:NAME arguments for the stubs above, in link order
  for s in libc10_cuda.so libcudart.so.12 libcusparse.so.12 libcufft.so.11 libcurand.so.10 libcublas.so.12 \
           libcublasLt.so.12 libcudnn.so.9 libnccl.so.2 libnvToolsExt.so.1 libc10.so libtorch_cpu.so; do
    printf -- '-l:%s ' "$s"
  done
}

# DT_RPATH as torch's wheels have it: pytorch/builder manywheel/build_cuda.sh
# ("Using nvidia libs from pypi": CUDA_RPATHS, LIB_SO_RPATH=$CUDA_RPATHS:$ORIGIN,
# FORCE_RPATH=--force-rpath), see tests/fixtures/hosts/ld-path-shadows-cudnn.md.
torch_rpath='$ORIGIN/../../nvidia/cublas/lib:$ORIGIN/../../nvidia/cuda_cupti/lib:$ORIGIN/../../nvidia/cuda_nvrtc/lib:$ORIGIN/../../nvidia/cuda_runtime/lib:$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cufft/lib:$ORIGIN/../../nvidia/curand/lib:$ORIGIN/../../nvidia/cusolver/lib:$ORIGIN/../../nvidia/cusparse/lib:$ORIGIN/../../nvidia/nccl/lib:$ORIGIN/../../nvidia/nvtx/lib:$ORIGIN'
# shellcheck disable=SC2046
"$cxx" -x c++ -shared -fPIC $small -Wl,-soname,libtorch_cuda.so -o libtorch_cuda_rpath.so $src \
  -Lstubs -Wl,--no-as-needed $(needed) -Wl,--disable-new-dtags -Wl,-rpath,"$torch_rpath"
# The same with DT_RUNPATH (what a source build with the linker's default new dtags gives).
# shellcheck disable=SC2046
"$cxx" -x c++ -shared -fPIC $small -Wl,-soname,libtorch_cuda.so -o libtorch_cuda_runpath.so $src \
  -Lstubs -Wl,--no-as-needed $(needed) -Wl,--enable-new-dtags -Wl,-rpath,"$torch_rpath"
# cuDNN 9's shim as NVIDIA's wheel ships it: DT_RUNPATH $ORIGIN (readelf -d of
# nvidia-cudnn-cu12's lib/libcudnn.so.9), soname libcudnn.so.9.
"$cxx" -x c++ -shared -fPIC $small -Wl,-soname,libcudnn.so.9 -o libcudnn_shim.so $src \
  -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN'
# An object with no dynamic string references at all beyond its soname.
"$cxx" -x c++ -shared -fPIC $small -Wl,-soname,libplain.so.1 -o libplain.so $src
rm -f $src
