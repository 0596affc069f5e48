#!/usr/bin/env python3
"""Writes the kernel-check PTX files (src/kernels/ptx/*.ptx) and their
embedded copy (src/kernels/ptx_catalog.cpp). Run by hand when a kernel
changes; the build never runs it and never needs a CUDA toolkit.

Each kernel declares the lowest .target and .version that express it. They
are not guessed: this script asks ptxas (CUDA 13) for the lowest target that
accepts the instruction, then the lowest ISA version at that target, so old
drivers still load the file. tests/ptx re-checks both against ptxas.

  python3 src/kernels/ptx/gen_ptx.py [--ptxas /usr/local/cuda/bin/ptxas]
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# PTX ISA versions, oldest first (PTX ISA reference, "Release notes").
VERSIONS = ["3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.1", "6.2", "6.3", "6.4",
            "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2",
            "8.3", "8.4", "8.5", "8.6", "8.7", "8.8", "9.0"]
# "sm_90a" is Hopper's arch-specific target (wgmma): code for it runs on
# compute capability 9.0 only, so it claims no other target.
# "sm_120f" is the Blackwell GeForce/workstation family target (PTX 8.8):
# code for it runs on compute capability 12.x, which "sm_120a" (PTX 8.7) does
# not promise beyond 12.0, so the family target comes first.
TARGETS = ["sm_20", "sm_30", "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90",
           "sm_90a", "sm_100", "sm_120", "sm_120f", "sm_120a"]
# The real GPU targets CUDA 13's ptxas builds for (ptxas --help), which the
# test assembles each file for, from its declared target up.
PTXAS_TARGETS = ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103",
                 "sm_110", "sm_120", "sm_121"]

CHAINS_MMA = 8   # independent accumulators per warp: enough to keep the tensor pipe busy
CHAINS_FMA = 8
UNROLL_FMA = 4   # FMAs per chain per loop trip, so the loop's own instructions stay small


def mma(precision, entry, instr, m, n, k, na, nb, nd, acc):
    return dict(kind="mma", precision=precision, entry=entry, instruction=instr, shape=f"m{m}n{n}k{k}",
                na=na, nb=nb, nd=nd, elem_bytes=4, acc=acc, chains=CHAINS_MMA, unroll=1,
                flops_per_op=2 * m * n * k)


# wgmma (Hopper): one warpgroup (4 warps) per tile computes m64 x n256, A
# from registers, B from shared memory through a matrix descriptor. N = 256
# is the widest shape, so each instruction does the most work per issue.
WGMMA_N = 256
WGMMA_UNROLL = 4  # instructions per loop trip, one commit group per trip
WGMMA_B_BYTES = WGMMA_N * 32  # every input type has k * element size = 32 bytes


def wgmma(precision, entry, ty, acc, k, args):
    instr = f"wgmma.mma_async.sync.aligned.m64n{WGMMA_N}k{k}.{acc}.{ty}.{ty}"
    # flops_per_op counts per warp: a quarter of the warpgroup's instruction.
    return dict(kind="wgmma", precision=precision, entry=entry, instruction=instr, shape=f"m64n{WGMMA_N}k{k}",
                na=4, nb=WGMMA_B_BYTES // 4, nd=WGMMA_N // 2, elem_bytes=4, acc=acc, chains=1,
                unroll=WGMMA_UNROLL, flops_per_op=2 * 64 * WGMMA_N * k // 4, args=args)


def fma(precision, entry, ty):
    size = 8 if ty == "f64" else 4
    return dict(kind="fma", precision=precision, entry=entry, instruction=f"fma.rn.{ty}", shape="thread",
                na=1, nb=1, nd=1, elem_bytes=size, acc=ty, chains=CHAINS_FMA, unroll=UNROLL_FMA,
                flops_per_op=2 * 32)  # one FMA per lane of the warp


KERNELS = [
    fma("fp64", "gpucheck_fma_f64", "f64"),
    fma("fp32", "gpucheck_fma_f32", "f32"),
    mma("fp16", "gpucheck_mma_f16_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 16, 8, 8, 2, 1, 4, "f32"),
    mma("fp16", "gpucheck_mma_f16_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, 8, 16, 4, 2, 4, "f32"),
    mma("bf16", "gpucheck_mma_bf16_m16n8k16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 8, 16, 4, 2, 4, "f32"),
    mma("tf32", "gpucheck_mma_tf32_m16n8k8", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8, 8, 4, 2, 4, "f32"),
    mma("int8", "gpucheck_mma_s8_m8n8k16", "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", 8, 8, 16, 1, 1, 2, "s32"),
    mma("int8", "gpucheck_mma_s8_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 16, 8, 32, 4, 2, 4, "s32"),
    mma("fp8_e4m3", "gpucheck_mma_e4m3_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 16, 8, 32, 4, 2, 4, "f32"),
    mma("fp8_e5m2", "gpucheck_mma_e5m2_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 16, 8, 32, 4, 2, 4, "f32"),
    # FP4 and FP6 (mma with .kind::f8f6f4, sm_120 family): each element in a
    # byte of its own, so the fragments are m16n8k32 .e4m3's (PTX ISA,
    # "Matrix Data-types" and mma's ".kind::f8f6f4").
    mma("fp4", "gpucheck_mma_e2m1_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32", 16, 8, 32, 4, 2, 4, "f32"),
    mma("fp6_e3m2", "gpucheck_mma_e3m2_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e3m2.e3m2.f32", 16, 8, 32, 4, 2, 4, "f32"),
    mma("fp6_e2m3", "gpucheck_mma_e2m3_m16n8k32", "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m3.e2m3.f32", 16, 8, 32, 4, 2, 4, "f32"),
]
# The same three at .target sm_120a, which PTX 8.7 already expresses (CUDA
# 12.8, driver r570, where sm_120f needs 8.8, r575: PTX ISA release notes):
# what a 12.0 GPU loads when its driver's JIT refuses the sm_120f files.
KERNELS += [dict(k, entry=k["entry"] + "_sm120a", target="sm_120a") for k in KERNELS if k["precision"] in ("fp4", "fp6_e3m2", "fp6_e2m3")]
KERNELS += [
    # The immediates after scale-d: imm-scale-a, imm-scale-b (1: not negated)
    # and, for 16-bit inputs, imm-trans-b (0: B is K-major); integer wgmma has none.
    wgmma("fp16", "gpucheck_wgmma_f16_m64n256k16", "f16", "f32", 16, "1, 1, 0"),
    wgmma("bf16", "gpucheck_wgmma_bf16_m64n256k16", "bf16", "f32", 16, "1, 1, 0"),
    wgmma("tf32", "gpucheck_wgmma_tf32_m64n256k8", "tf32", "f32", 8, "1, 1"),
    wgmma("int8", "gpucheck_wgmma_s8_m64n256k32", "s8", "s32", 32, ""),
    wgmma("fp8_e4m3", "gpucheck_wgmma_e4m3_m64n256k32", "e4m3", "f32", 32, "1, 1"),
    wgmma("fp8_e5m2", "gpucheck_wgmma_e5m2_m64n256k32", "e5m2", "f32", 32, "1, 1"),
]
COPY = dict(kind="copy", precision="copy", entry="gpucheck_copy_b128", instruction="ld.global.v4.u32/st.global.v4.u32",
            shape="grid-stride", na=0, nb=0, nd=0, elem_bytes=16, acc="b32", chains=1, unroll=1, flops_per_op=0)


# The parameters of every mma/fma/wgmma kernel (catalog.hpp), and the
# prologue that loads them: pointers made global in %rd1..%rd4, iters in %r7,
# tiles in %r8, this thread's index in the grid in %r4.
PARAMS = ("  .param .u64 p_a,\n  .param .u64 p_b,\n  .param .u64 p_c,\n  .param .u64 p_d,\n"
          "  .param .u32 p_iters,\n  .param .u32 p_tiles")
PROLOGUE = [
    "  ld.param.u64 %rd1, [p_a];",
    "  ld.param.u64 %rd2, [p_b];",
    "  ld.param.u64 %rd3, [p_c];",
    "  ld.param.u64 %rd4, [p_d];",
    "  cvta.to.global.u64 %rd1, %rd1;",
    "  cvta.to.global.u64 %rd2, %rd2;",
    "  cvta.to.global.u64 %rd3, %rd3;",
    "  cvta.to.global.u64 %rd4, %rd4;",
    "  ld.param.u32 %r7, [p_iters];",
    "  ld.param.u32 %r8, [p_tiles];",
    "  mov.u32 %r1, %tid.x;",
    "  mov.u32 %r2, %ctaid.x;",
    "  mov.u32 %r3, %ntid.x;",
    "  mad.lo.u32 %r4, %r2, %r3, %r1;   // this thread in the grid",
]


def body_common(k):
    """Loads the operands of this warp's tile; the accumulators of each chain."""
    eb, acc = k["elem_bytes"], k["acc"]
    ld = {"f32": "ld.global.f32", "f64": "ld.global.f64", "s32": "ld.global.s32"}[acc]
    opty = "b64" if k["kind"] == "fma" and acc == "f64" else "b32"
    if k["kind"] == "fma":
        opty = {"f64": "f64", "f32": "f32"}[acc]
    accty = {"f32": "f32", "f64": "f64", "s32": "s32"}[acc]
    nacc = k["chains"] * k["nd"]
    lines = [
        f"  .reg .pred %p;",
        f"  .reg .b32 %r<16>;",
        f"  .reg .b64 %rd<16>;",
        f"  .reg .{opty} %a<{k['na']}>;",
        f"  .reg .{opty} %b<{k['nb']}>;",
        f"  .reg .{accty} %c<{nacc}>;",
    ] + PROLOGUE + [
        "  shr.u32 %r5, %r4, 5;             // this warp in the grid",
        "  and.b32 %r6, %r1, 31;            // lane",
        "  rem.u32 %r9, %r5, %r8;           // the tile this warp works on",
        "  mad.lo.u32 %r10, %r9, 32, %r6;   // tile * 32 + lane",
        f"  mul.wide.u32 %rd5, %r10, {k['na'] * k['elem_bytes'] if k['kind'] == 'fma' else k['na'] * 4};",
        "  add.u64 %rd6, %rd1, %rd5;",
        f"  mul.wide.u32 %rd7, %r10, {k['nb'] * k['elem_bytes'] if k['kind'] == 'fma' else k['nb'] * 4};",
        "  add.u64 %rd8, %rd2, %rd7;",
    ]
    sa = eb if k["kind"] == "fma" else 4
    ldop = f"ld.global.{opty}"
    for i in range(k["na"]):
        lines.append(f"  {ldop} %a{i}, [%rd6+{i * sa}];")
    for i in range(k["nb"]):
        lines.append(f"  {ldop} %b{i}, [%rd8+{i * sa}];")
    # Chain j of lane l in tile t: element ((t * chains + j) * 32 + l) * nd.
    lines += [
        f"  mul.lo.u32 %r11, %r9, {k['chains'] * 32};",
        "  add.u32 %r11, %r11, %r6;",
        f"  mul.wide.u32 %rd9, %r11, {k['nd'] * eb};",
        "  add.u64 %rd10, %rd3, %rd9;",
        "  add.u64 %rd11, %rd4, %rd9;",
    ]
    for j in range(k["chains"]):
        for i in range(k["nd"]):
            lines.append(f"  {ld} %c{j * k['nd'] + i}, [%rd10+{(j * 32 * k['nd'] + i) * eb}];")
    return lines, accty


def kernel_text(k, version, target):
    if k["kind"] == "copy":
        return copy_text(k, version, target)
    if k["kind"] == "wgmma":
        return wgmma_text(k, version, target)
    lines, accty = body_common(k)
    lines += ["  mov.u32 %r12, 0;", "LOOP:"]
    for _ in range(k["unroll"]):
        for j in range(k["chains"]):
            nd = k["nd"]
            c = ", ".join(f"%c{j * nd + i}" for i in range(nd))
            if k["kind"] == "fma":
                lines.append(f"  {k['instruction']} %c{j}, %a0, %b0, %c{j};")
            else:
                a = ", ".join(f"%a{i}" for i in range(k["na"]))
                b = ", ".join(f"%b{i}" for i in range(k["nb"]))
                lines.append(f"  {k['instruction']} {{{c}}}, {{{a}}}, {{{b}}}, {{{c}}};")
    lines += [
        "  add.u32 %r12, %r12, 1;",
        "  setp.lt.u32 %p, %r12, %r7;",
        "  @%p bra LOOP;",
    ]
    st = {"f32": "st.global.f32", "f64": "st.global.f64", "s32": "st.global.s32"}[k["acc"]]
    for j in range(k["chains"]):
        for i in range(k["nd"]):
            lines.append(f"  {st} [%rd11+{(j * 32 * k['nd'] + i) * k['elem_bytes']}], %c{j * k['nd'] + i};")
    lines.append("  ret;")
    return header(k, version, target) + f".visible .entry {k['entry']}(\n{PARAMS}\n)\n{{\n" + "\n".join(lines) + "\n}\n"


def wgmma_text(k, version, target):
    """Warpgroup g of the grid works on tile g % tiles. Warp q (0..3) of the
    warpgroup holds rows 16q..16q+15 of A and of the accumulator: lane l's
    `na` A registers at a[((tile*4+q)*32+l)*na], its `nd` accumulators at
    c[((tile*4+q)*32+l)*nd] (stored at the same place in d). The tile's B,
    WGMMA_B_BYTES of shared-memory image, is at b[tile*nb]; the warpgroup
    copies it into its half of the block's shared memory, where the
    descriptor reads it."""
    nd, na = k["nd"], k["na"]
    accty = "s32" if k["acc"] == "s32" else "f32"
    # Matrix descriptor (PTX ISA "Matrix Descriptor Format",
    # https://docs.nvidia.com/cuda/archive/12.4.0/parallel-thread-execution/index.html#matrix-descriptor-format): start address,
    # leading-dimension byte offset (between core matrices adjacent in K) in
    # bits 16-29, stride-dimension byte offset (adjacent in N) in bits 32-45,
    # each >> 4; no swizzle. Core matrices of 8 rows x 16 bytes: the two along
    # K are adjacent (LBO 128), then the next 8 rows of N (SBO 256).
    desc_const = ((128 >> 4) << 16) | ((256 >> 4) << 32)
    lines = [
        "  .reg .pred %p;",
        "  .reg .pred %ps;",
        "  .reg .b32 %r<24>;",
        "  .reg .b64 %rd<24>;",
        f"  .reg .b32 %a<{na}>;",
        f"  .reg .{accty} %c<{nd}>;",
    ] + PROLOGUE + [
        "  shr.u32 %r5, %r4, 7;             // this warpgroup in the grid",
        "  and.b32 %r6, %r1, 127;           // thread in the warpgroup",
        "  rem.u32 %r9, %r5, %r8;           // the tile this warpgroup works on",
        "  // B: the tile's shared-memory image, 16 bytes a thread per pass",
        f"  mul.wide.u32 %rd5, %r9, {WGMMA_B_BYTES};",
        "  add.u64 %rd5, %rd2, %rd5;",
        "  mov.u32 %r10, gpucheck_smem;",
        "  shr.u32 %r11, %r1, 7;            // this warpgroup in the block",
        f"  mad.lo.u32 %r10, %r11, {WGMMA_B_BYTES}, %r10;",
        "  shl.b32 %r12, %r6, 4;",
    ]
    for j in range(WGMMA_B_BYTES // (128 * 16)):
        off = j * 128 * 16
        lines += [
            f"  add.u32 %r13, %r12, {off};",
            "  cvt.u64.u32 %rd6, %r13;",
            "  add.u64 %rd7, %rd5, %rd6;",
            "  ld.global.v4.u32 {%r14, %r15, %r16, %r17}, [%rd7];",
            "  add.u32 %r18, %r10, %r13;",
            "  st.shared.v4.u32 [%r18], {%r14, %r15, %r16, %r17};",
        ]
    lines += [
        "  // wgmma reads shared memory through the async proxy: make the",
        "  // generic-proxy stores above visible to it (PTX ISA, wgmma.mma_async).",
        "  fence.proxy.async.shared::cta;",
        "  bar.sync 0;",
        "  cvt.u64.u32 %rd8, %r10;",
        "  and.b64 %rd8, %rd8, 262143;",
        "  shr.u64 %rd8, %rd8, 4;",
        f"  or.b64 %rd8, %rd8, {desc_const};",
        "  // A and the accumulators: warp q of the warpgroup, lane l",
        "  shr.u32 %r19, %r4, 5;             // this warp in the grid",
        "  and.b32 %r19, %r19, 3;            // q",
        "  and.b32 %r20, %r1, 31;            // lane",
        "  mad.lo.u32 %r21, %r9, 4, %r19;",
        "  mad.lo.u32 %r21, %r21, 32, %r20;  // (tile*4+q)*32+lane",
        f"  mul.wide.u32 %rd9, %r21, {na * 4};",
        "  add.u64 %rd9, %rd1, %rd9;",
    ]
    for i in range(na):
        lines.append(f"  ld.global.b32 %a{i}, [%rd9+{i * 4}];")
    lines += [
        f"  mul.wide.u32 %rd10, %r21, {nd * 4};",
        "  add.u64 %rd11, %rd3, %rd10;",
        "  add.u64 %rd12, %rd4, %rd10;",
    ]
    ld = "ld.global.s32" if accty == "s32" else "ld.global.f32"
    for i in range(nd):
        lines.append(f"  {ld} %c{i}, [%rd11+{i * 4}];")
    d = ", ".join(f"%c{i}" for i in range(nd))
    a = ", ".join(f"%a{i}" for i in range(na))
    tail = ", %ps" + (", " + k["args"] if k["args"] else "")
    lines += [
        "  setp.eq.u32 %ps, %r7, %r7;        // scale-d: D = A*B + D",
        "  mov.u32 %r22, 0;",
        "LOOP:",
        "  // Orders the registers' earlier writes (loads, the last trip) before",
        "  // this trip's wgmma reads them; ptxas inserts it here otherwise.",
        "  wgmma.fence.sync.aligned;",
    ]
    for _ in range(k["unroll"]):
        lines.append(f"  {k['instruction']} {{{d}}}, {{{a}}}, %rd8{tail};")
    lines += [
        "  wgmma.commit_group.sync.aligned;",
        "  // Keep one group in flight: groups on the same accumulators run in order.",
        "  wgmma.wait_group.sync.aligned 1;",
        "  add.u32 %r22, %r22, 1;",
        "  setp.lt.u32 %p, %r22, %r7;",
        "  @%p bra LOOP;",
        "  wgmma.wait_group.sync.aligned 0;",
    ]
    st = "st.global.s32" if accty == "s32" else "st.global.f32"
    for i in range(nd):
        lines.append(f"  {st} [%rd12+{i * 4}], %c{i};")
    lines.append("  ret;")
    smem = f".shared .align 1024 .b8 gpucheck_smem[{2 * WGMMA_B_BYTES}];  // two warpgroups a block\n\n"
    return (header(k, version, target) + smem + f".visible .entry {k['entry']}(\n{PARAMS}\n)\n{{\n" +
            "\n".join(lines) + "\n}\n")


def copy_text(k, version, target):
    # dst[i] = src[i] for 16-byte vectors, grid-stride, so any grid covers n.
    body = """  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [p_src];
  ld.param.u64 %rd2, [p_dst];
  ld.param.u64 %rd3, [p_n];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %nctaid.x;
  mad.lo.u32 %r5, %r2, %r3, %r1;
  cvt.u64.u32 %rd4, %r5;
  mul.wide.u32 %rd5, %r3, %r4;
  setp.ge.u64 %p, %rd4, %rd3;
  @%p bra DONE;
LOOP:
  shl.b64 %rd6, %rd4, 4;
  add.u64 %rd7, %rd1, %rd6;
  add.u64 %rd8, %rd2, %rd6;
  ld.global.v4.u32 {%r0, %r1, %r2, %r6}, [%rd7];
  st.global.v4.u32 [%rd8], {%r0, %r1, %r2, %r6};
  add.u64 %rd4, %rd4, %rd5;
  setp.lt.u64 %p, %rd4, %rd3;
  @%p bra LOOP;
DONE:
  ret;
"""
    # %r1..%r3 are reused as data once the index is known; %r4/%r5 stay.
    params = "  .param .u64 p_src,\n  .param .u64 p_dst,\n  .param .u64 p_n"
    return header(k, version, target) + f".visible .entry {k['entry']}(\n{params}\n)\n{{\n{body}}}\n"


def header(k, version, target):
    claimed = claimed_targets(target)
    return (f"// gpucheck kernel check: {k['precision']} with {k['instruction']} ({k['shape']}).\n"
            f"// Generated by gen_ptx.py: do not edit. Lowest target and ISA version that ptxas accepts.\n"
            f"// gpucheck-targets: {' '.join(claimed)}\n"
            f".version {version}\n.target {target}\n.address_size 64\n\n")


def claimed_targets(target):
    if target.endswith("a"):
        return [target]
    if target.endswith("f"):  # the family: same major compute capability, this minor or later
        n = int(target[3:-1])
        return [t for t in PTXAS_TARGETS if int(t[3:]) // 10 == n // 10 and int(t[3:]) >= n]
    n = int(target[3:])
    return [t for t in PTXAS_TARGETS if int(t[3:]) >= n]


def assembles(ptxas, text, arch):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.ptx")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([ptxas, f"-arch={arch}", src, "-o", os.path.join(d, "k.cubin")],
                           capture_output=True, text=True)
        return r.returncode == 0, r.stderr


def lowest(ptxas, k):
    target = None
    for t in [k["target"]] if "target" in k else TARGETS:
        arch = t if int(t[3:].rstrip("af")) >= 75 else "sm_75"
        if assembles(ptxas, kernel_text(k, VERSIONS[-1], t), arch)[0]:
            target = t
            break
    if target is None:
        ok, err = assembles(ptxas, kernel_text(k, VERSIONS[-1], "sm_120"), "sm_120")
        sys.exit(f"{k['entry']}: no target assembles:\n{err}")
    arch = target if int(target[3:].rstrip("af")) >= 75 else "sm_75"
    for v in VERSIONS:
        if assembles(ptxas, kernel_text(k, v, target), arch)[0]:
            return v, target
    sys.exit(f"{k['entry']}: no version assembles at {target}")


def cpp_string(text):
    assert ')ptx"' not in text
    return 'R"ptx(' + text + ')ptx"'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    args = ap.parse_args()
    entries = []
    for k in KERNELS + [COPY]:
        version, target = lowest(args.ptxas, k)
        text = kernel_text(k, version, target)
        with open(os.path.join(HERE, k["entry"] + ".ptx"), "w") as f:
            f.write(text)
        entries.append((k, version, target, text))
        print(f"{k['entry']}: .version {version} .target {target}")
    out = ["// Generated by src/kernels/ptx/gen_ptx.py from the same data as the .ptx files",
           "// beside it: do not edit. tests/unit/kernels_catalog_test.cpp checks they agree.",
           '#include "kernels/catalog.hpp"', "", "namespace gpucheck::kernels {", "",
           "const std::vector<KernelSpec>& all_kernels() {",
           "  static const std::vector<KernelSpec> kernels = {"]
    for k, version, target, text in entries:
        out.append(f'      {{"{k["precision"]}", "{k["entry"]}", KernelKind::{k["kind"]}, "{k["instruction"]}", '
                   f'"{k["shape"]}", "{target}", "{version}", {k["na"]}, {k["nb"]}, {k["nd"]}, {k["elem_bytes"]}, '
                   f'{k["chains"]}, {k["unroll"]}, {k["flops_per_op"]},')
        out.append(f"       {cpp_string(text)}}},")
    out += ["  };", "  return kernels;", "}", "", "}  // namespace gpucheck::kernels", ""]
    with open(os.path.join(HERE, "..", "ptx_catalog.cpp"), "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
