#!/usr/bin/env python3
"""Writes the kernel-check PTX files (src/kernels/ptx/*.ptx). Run by hand
when a kernel changes; the build never runs it and never needs a CUDA
toolkit: it embeds the committed files (cmake/embed_files.cmake), and
src/kernels/catalog.cpp reads what each kernel computes from the
"gpucheck-kernel:" and "gpucheck-instruction:" lines of its header.

Each kernel declares the lowest .target and .version that express it. They
are not guessed: this script asks ptxas for the lowest target that accepts
the instruction, then the lowest ISA version at that target, so old drivers
still load the file; PROBED_WITH records which ptxas answered. tests/ptx
re-checks both against ptxas.

  python3 src/kernels/ptx/gen_ptx.py [--ptxas /usr/local/cuda/bin/ptxas]
  python3 src/kernels/ptx/gen_ptx.py --check

--check needs no ptxas: it regenerates every kernel at the target and
version its committed file declares and fails unless the committed files
are exactly what this script writes (a CTest runs it).
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
# "sm_100f" / "sm_100a" likewise for datacenter Blackwell (10.x; 10.0 only).
TARGETS = ["sm_20", "sm_30", "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90",
           "sm_90a", "sm_100", "sm_100f", "sm_100a", "sm_120", "sm_120f", "sm_120a"]
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

# tcgen05 (datacenter Blackwell, 10.x): the instruction that reaches these
# GPUs' tensor peak, and for FP4 and FP6 the only one (ptxas refuses
# mma.sync's .kind::f8f6f4 at sm_100a). One warpgroup per tile, M = 128 x
# N = 256 x K (32 bytes of each row: K = 8, 16 or 32), A and B in shared
# memory through matrix descriptors, the accumulator in tensor memory: thread
# t of warp q holds row 32q + t, so C and D are plain row-major 128 x 256 per
# tile. One thread of the warpgroup issues the instructions.
TC_M, TC_N = 128, 256
TC_UNROLL = 4
TC_A_BYTES = TC_M * 32  # each row's K elements take 32 bytes of shared memory
TC_B_BYTES = TC_N * 32
TC_COLS = 512           # tensor-memory columns a block allocates: N for each of its two warpgroups
TC_CHUNK = 32           # accumulator columns per tcgen05.ld / tcgen05.st


def tcgen05_idesc(d_format, ab_format):
    """The instruction descriptor of tcgen05.mma (PTX ISA, "Instruction
    descriptor", https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-instuction-desc-kind-tf32-f16-f8f6f4;
    CUTLASS include/cute/arch/mma_sm100_desc.hpp @7107b05, InstrDescriptor and
    its format enums, agrees): D format in bits 4-5 (f32 1, s32 2), A and B
    formats in 7-9 and 10-12 (kind::f16: f16 0, bf16 1; kind::tf32: 2;
    kind::i8: s8 1; kind::f8f6f4: e4m3 0, e5m2 1, e2m3 3, e3m2 4, e2m1 5),
    K-major A and B (bits 15, 16 clear), N >> 3 in 17-22, M >> 4 in 24-28;
    dense, no negation or saturation. f32 += e2m1 * e2m1: 0x08401690."""
    return (d_format << 4) | (ab_format << 7) | (ab_format << 10) | ((TC_N >> 3) << 17) | ((TC_M >> 4) << 24)


def tcgen05(precision, name, kind, ab_format, k, target, suffix=""):
    acc = "s32" if kind == "i8" else "f32"
    return dict(kind="tcgen05", precision=precision, entry=f"gpucheck_tcgen05_{name}_m{TC_M}n{TC_N}k{k}{suffix}",
                target=target, instruction=f"tcgen05.mma.cta_group::1.kind::{kind} ({name})",
                shape=f"m{TC_M}n{TC_N}k{k}", na=TC_A_BYTES // 4, nb=TC_B_BYTES // 4, nd=TC_N, elem_bytes=4,
                acc=acc, chains=1, unroll=TC_UNROLL, flops_per_op=2 * TC_M * TC_N * k // 4, tc_kind=kind,
                idesc=tcgen05_idesc(2 if acc == "s32" else 1, ab_format))


# At .target sm_100f: the 10.x family (10.0, 10.3), PTX 8.8. FP4 and FP6 also
# at sm_100a (10.0 only, PTX 8.6), as for sm_120f/sm_120a: the others fall
# back to mma.sync on a driver before PTX 8.8. INT8 (.kind::i8) exists at
# sm_100a and sm_110a alone, not in the families (PTX ISA, tcgen05.mma
# "Target ISA Notes"): 10.3 runs INT8 with mma.sync.
KERNELS += [
    tcgen05("fp16", "f16", "f16", 0, 16, "sm_100f"),
    tcgen05("bf16", "bf16", "f16", 1, 16, "sm_100f"),
    tcgen05("tf32", "tf32", "tf32", 2, 8, "sm_100f"),
    tcgen05("fp8_e4m3", "e4m3", "f8f6f4", 0, 32, "sm_100f"),
    tcgen05("fp8_e5m2", "e5m2", "f8f6f4", 1, 32, "sm_100f"),
    tcgen05("int8", "s8", "i8", 1, 32, "sm_100a"),
]
for _p, _fmt, _code in (("fp4", "e2m1", 5), ("fp6_e3m2", "e3m2", 4), ("fp6_e2m3", "e2m3", 3)):
    KERNELS += [tcgen05(_p, _fmt, "f8f6f4", _code, 32, "sm_100f"),
                tcgen05(_p, _fmt, "f8f6f4", _code, 32, "sm_100a", "_sm100a")]
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
    if k["kind"] == "tcgen05":
        return tcgen05_text(k, version, target)
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


def smem_copy_lines(size, dst_off, off_reg, addr_reg, data):
    """Copies `size` bytes of a tile's image from global (%rd5) to shared
    memory (%r10 + dst_off), 16 bytes a thread of the warpgroup per pass (%r12:
    this thread's first byte). `off_reg`, `addr_reg` and the four `data`
    registers are scratch."""
    regs = "{" + ", ".join(data) + "}"
    dst = f"[{addr_reg}+{dst_off}]" if dst_off else f"[{addr_reg}]"
    lines = []
    for j in range(size // (128 * 16)):
        lines += [
            f"  add.u32 {off_reg}, %r12, {j * 128 * 16};",
            f"  cvt.u64.u32 %rd6, {off_reg};",
            "  add.u64 %rd7, %rd5, %rd6;",
            f"  ld.global.v4.u32 {regs}, [%rd7];",
            f"  add.u32 {addr_reg}, %r10, {off_reg};",
            f"  st.shared.v4.u32 {dst}, {regs};",
        ]
    return lines


def descriptor_lines(out, smem_addr, const):
    """A shared-memory matrix descriptor in `out`: the address's bits 17..4
    (start address >> 4), or'd with the constant fields."""
    return [
        f"  cvt.u64.u32 {out}, {smem_addr};",
        f"  and.b64 {out}, {out}, 262143;",
        f"  shr.u64 {out}, {out}, 4;",
        f"  or.b64 {out}, {out}, {const};",
    ]


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
    # https://docs.nvidia.com/cuda/archive/12.4.0/parallel-thread-execution/index.html#matrix-descriptor-format):
    # start address, then smem_descriptor_const's offsets.
    desc_const = smem_descriptor_const(0)
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
    lines += smem_copy_lines(WGMMA_B_BYTES, 0, "%r13", "%r18", ["%r14", "%r15", "%r16", "%r17"])
    lines += [
        "  // wgmma reads shared memory through the async proxy: make the",
        "  // generic-proxy stores above visible to it (PTX ISA, wgmma.mma_async).",
        "  fence.proxy.async.shared::cta;",
        "  bar.sync 0;",
    ] + descriptor_lines("%rd8", "%r10", desc_const) + [
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


def smem_descriptor_const(version_bits):
    """The constant part of a K-major, no-swizzle shared-memory matrix
    descriptor: core matrices of 8 rows x 16 bytes, the two along K adjacent
    (leading byte offset 128), the next 8 rows 256 bytes on (stride byte
    offset), each >> 4 in bits 16-29 and 32-45; no swizzle (0). tcgen05's
    descriptor also holds the constant 0b001 in bits 46-48 (`version_bits`,
    1 << 46; PTX ISA "Shared memory descriptor",
    https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-shared-memory-desc-layout),
    where wgmma's has 0."""
    return ((128 >> 4) << 16) | ((256 >> 4) << 32) | version_bits


def tcgen05_text(k, version, target):
    """Warpgroup g of the grid works on tile g % tiles. The tile's A image
    (TC_A_BYTES, as shared memory holds it) is at a[tile*na], B's at
    b[tile*nb]; its C and D rows at c/d[(tile*TC_M + row)*TC_N]. Warp 0
    allocates TC_COLS tensor-memory columns for the block, warpgroup w of the
    block uses TC_N of them from column w*TC_N."""
    tile_bytes = TC_A_BYTES + TC_B_BYTES
    lines = [
        "  .reg .pred %p;",
        "  .reg .pred %pi;",
        "  .reg .pred %ps;",
        "  .reg .pred %pw;",
        "  .reg .b32 %r<32>;",
        "  .reg .b64 %rd<32>;",
        f"  .reg .b32 %v<{TC_CHUNK}>;",
    ] + PROLOGUE + [
        "  shr.u32 %r5, %r4, 7;             // this warpgroup in the grid",
        "  and.b32 %r6, %r1, 127;           // thread in the warpgroup",
        "  rem.u32 %r9, %r5, %r8;           // the tile this warpgroup works on",
        "  shr.u32 %r11, %r1, 7;            // this warpgroup in the block",
        "  shr.u32 %r13, %r1, 5;            // this warp in the block",
        "  // A and B: the tile's shared-memory images, 16 bytes a thread per pass",
        "  mov.u32 %r10, gpucheck_smem;",
        f"  mad.lo.u32 %r10, %r11, {tile_bytes}, %r10;",
        "  shl.b32 %r12, %r6, 4;",
    ]
    for reg, size, dst_off in (("%rd1", TC_A_BYTES, 0), ("%rd2", TC_B_BYTES, TC_A_BYTES)):
        lines += [f"  mul.wide.u32 %rd5, %r9, {size};", f"  add.u64 %rd5, {reg}, %rd5;"]
        lines += smem_copy_lines(size, dst_off, "%r14", "%r15", ["%v0", "%v1", "%v2", "%v3"])
    lines += [
        "  // Warp 0 allocates the block's tensor memory; the address lands in gpucheck_tmem.",
        "  setp.eq.u32 %pw, %r13, 0;",
        "  @!%pw bra ALLOCATED;",
        "  mov.u32 %r16, gpucheck_tmem;",
        f"  tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r16], {TC_COLS};",
        "  tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;",
        "ALLOCATED:",
        "  // Thread 0 of the warpgroup issues the MMAs and owns its mbarrier.",
        "  setp.eq.u32 %pi, %r6, 0;",
        "  mov.u32 %r17, gpucheck_mbar;",
        "  mad.lo.u32 %r17, %r11, 8, %r17;",
        "  @%pi mbarrier.init.shared::cta.b64 [%r17], 1;",
        "  // tcgen05.mma reads shared memory and tcgen05.commit arrives on the",
        "  // mbarrier through the async proxy: make the stores and the init visible to it.",
        "  fence.mbarrier_init.release.cluster;",
        "  fence.proxy.async.shared::cta;",
        "  tcgen05.fence::before_thread_sync;",
        "  bar.sync 0;",
        "  tcgen05.fence::after_thread_sync;",
        "  ld.shared.u32 %r18, [gpucheck_tmem];",
        f"  mad.lo.u32 %r19, %r11, {TC_N}, %r18;   // this warpgroup's columns",
        "  and.b32 %r20, %r13, 3;",
        "  shl.b32 %r20, %r20, 21;           // lane 32 * (warp % 4), in bits 31..16",
        "  add.u32 %r20, %r19, %r20;         // this warp's rows",
        "  // This thread's row of C and D: (tile * 128 + 32 * (warp % 4) + lane) * N",
        "  mad.lo.u32 %r21, %r9, 128, %r6;",
        f"  mul.wide.u32 %rd8, %r21, {TC_N * 4};",
        "  add.u64 %rd9, %rd3, %rd8;",
        "  add.u64 %rd10, %rd4, %rd8;",
    ]
    regs = ", ".join(f"%v{i}" for i in range(TC_CHUNK))
    for j in range(TC_N // TC_CHUNK):
        for i in range(TC_CHUNK):
            lines.append(f"  ld.global.b32 %v{i}, [%rd9+{(j * TC_CHUNK + i) * 4}];")
        lines.append(f"  tcgen05.st.sync.aligned.32x32b.x{TC_CHUNK}.b32 [%r20+{j * TC_CHUNK}], {{{regs}}};")
    desc = smem_descriptor_const(1 << 46)
    lines += [
        "  tcgen05.wait::st.sync.aligned;",
        "  tcgen05.fence::before_thread_sync;",
        "  bar.sync 0;",
        "  tcgen05.fence::after_thread_sync;",
        "  @!%pi bra WAIT;",
    ] + descriptor_lines("%rd11", "%r10", desc) + [
        f"  add.u64 %rd12, %rd11, {TC_A_BYTES >> 4};   // B's descriptor: {TC_A_BYTES} bytes after A",
        f"  mov.b32 %r22, {k['idesc']};",
        "  setp.eq.u32 %ps, %r7, %r7;        // enable-input-d: D = A*B + D",
        "  mov.u32 %r23, 0;",
        "LOOP:",
    ]
    for _ in range(k["unroll"]):
        lines.append(f"  tcgen05.mma.cta_group::1.kind::{k['tc_kind']} [%r19], %rd11, %rd12, %r22, %ps;")
    lines += [
        "  add.u32 %r23, %r23, 1;",
        "  setp.lt.u32 %p, %r23, %r7;",
        "  @%p bra LOOP;",
        "  // Arrives on the mbarrier once every MMA this thread issued has completed.",
        "  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%r17];",
        "WAIT:",
        "  mbarrier.try_wait.parity.shared::cta.b64 %p, [%r17], 0;",
        "  @!%p bra WAIT;",
        "  bar.warp.sync -1;",
        "  tcgen05.fence::after_thread_sync;",
    ]
    for j in range(TC_N // TC_CHUNK):
        lines += [f"  tcgen05.ld.sync.aligned.32x32b.x{TC_CHUNK}.b32 {{{regs}}}, [%r20+{j * TC_CHUNK}];",
                  "  tcgen05.wait::ld.sync.aligned;"]
        for i in range(TC_CHUNK):
            lines.append(f"  st.global.b32 [%rd10+{(j * TC_CHUNK + i) * 4}], %v{i};")
    lines += [
        "  tcgen05.fence::before_thread_sync;",
        "  bar.sync 0;",
        "  @!%pw bra DONE;",
        "  tcgen05.fence::after_thread_sync;",
        f"  tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r18, {TC_COLS};",
        "DONE:",
        "  ret;",
    ]
    smem = (f".shared .align 1024 .b8 gpucheck_smem[{2 * tile_bytes}];  // two warpgroups a block\n"
            ".shared .align 8 .b64 gpucheck_mbar[2];\n"
            ".shared .align 4 .b32 gpucheck_tmem;\n\n")
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


# What src/kernels/catalog.cpp reads of each kernel (its KernelSpec), in order.
SPEC_FIELDS = ["precision", "kind", "shape", "na", "nb", "nd", "elem_bytes", "chains", "unroll", "flops_per_op"]


def header(k, version, target):
    claimed = claimed_targets(target)
    spec = " ".join(f"{f}={k[f]}" for f in SPEC_FIELDS)
    return (f"// gpucheck kernel check: {k['precision']} with {k['instruction']} ({k['shape']}).\n"
            f"// Generated by gen_ptx.py: do not edit. Lowest target and ISA version that ptxas accepts.\n"
            f"// gpucheck-targets: {' '.join(claimed)}\n"
            f"// gpucheck-kernel: {spec}\n"
            f"// gpucheck-instruction: {k['instruction']}\n"
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


PROBED_WITH = os.path.join(HERE, "PROBED_WITH")


def ptxas_version(ptxas):
    out = subprocess.run([ptxas, "--version"], capture_output=True, text=True, check=True).stdout
    return [l for l in out.splitlines() if l.startswith("Cuda compilation tools")][0]


def declared(text):
    """The .version and .target a committed file declares."""
    fields = dict(l.split(" ", 1) for l in text.splitlines() if l.startswith((".version ", ".target ")))
    return fields.get(".version"), fields.get(".target")


def check():
    """Fails unless the committed .ptx files are what this script writes."""
    problems = []
    expected = set()
    for k in KERNELS + [COPY]:
        name = k["entry"] + ".ptx"
        expected.add(name)
        path = os.path.join(HERE, name)
        if not os.path.exists(path):
            problems.append(f"{name}: missing (run gen_ptx.py)")
            continue
        with open(path) as f:
            text = f.read()
        version, target = declared(text)
        if not version or not target:
            problems.append(f"{name}: declares no .version or .target")
        elif text != kernel_text(k, version, target):
            problems.append(f"{name}: differs from what gen_ptx.py writes at .version {version} .target {target}")
    for name in sorted(set(f for f in os.listdir(HERE) if f.endswith(".ptx")) - expected):
        problems.append(f"{name}: no kernel in gen_ptx.py writes it")
    if not os.path.exists(PROBED_WITH):
        problems.append("PROBED_WITH: missing (which ptxas probed the targets)")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"{len(expected)} PTX files are what gen_ptx.py writes")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("--check", action="store_true", help="compare the committed files with what this writes (no ptxas)")
    args = ap.parse_args()
    if args.check:
        return check()
    for k in KERNELS + [COPY]:
        version, target = lowest(args.ptxas, k)
        with open(os.path.join(HERE, k["entry"] + ".ptx"), "w") as f:
            f.write(kernel_text(k, version, target))
        print(f"{k['entry']}: .version {version} .target {target}")
    with open(PROBED_WITH, "w") as f:
        f.write(ptxas_version(args.ptxas) + "\n")


if __name__ == "__main__":
    main()
