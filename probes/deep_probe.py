# gpucheck's deep probe: run inside a user's interpreter (gpucheck probe --deep)
# with a deadline enforced by the caller. It imports the frameworks present,
# asks each for its runtime view, and prints ONE JSON object on its last line
# (the DeepProbeFacts of src/facts/facts.hpp). Safe by construction: no
# network, no files written, bounded work (one 256x256 matmul per framework).
import sys

# With `python -c`, sys.path[0] is the current directory: a stray json.py or
# torch/ there must not run or shadow the installed one, so it goes before
# the first import that searches sys.path (sys is built in).
sys.path[:] = [p for p in sys.path if p not in ("", ".")]

import json  # noqa: E402

# GPU libraries worth naming when mapped into the process.
_GPU_LIBS = ("libcuda.so", "libcudart", "libcudnn", "libnccl", "libcublas", "libcufft", "libcurand",
             "libcusparse", "libcusolver", "libnvrtc", "libnvJitLink", "libnvinfer", "libamdhip64",
             "librocblas", "libMIOpen", "librccl", "libhsa-runtime64", "libnvidia-ml")

# TF32 keeps 10 mantissa bits (unit roundoff 2^-11 ~ 4.9e-4); FP32 keeps 23
# (2^-24 ~ 6e-8). For a K=256 dot product of values in [-1, 1) the relative
# error of the result grows to about sqrt(K) * u: ~1e-3 for TF32 inputs, ~1e-6
# for FP32. 1e-4 sits a decade from both, so it separates them on any
# accumulation order.
_TF32_THRESHOLD = 1e-4
_N = 256


def _mapped_gpu_libraries():
    libs = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split()
                if len(parts) < 6:
                    continue
                path = parts[5]
                name = path.rsplit("/", 1)[-1]
                if any(name.startswith(p) for p in _GPU_LIBS) and path not in libs:
                    libs.append(path)
    except OSError:
        pass
    return sorted(libs)


def _torch():
    out = {"name": "torch"}
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any import failure is the answer
        out["import_error"] = "%s: %s" % (type(e).__name__, e)
        return out
    out["version"] = str(torch.__version__)
    try:
        out["cuda_available"] = bool(torch.cuda.is_available())
        out["device_count"] = int(torch.cuda.device_count()) if out["cuda_available"] else 0
    except Exception:  # noqa: BLE001
        out["cuda_available"] = False
    try:
        out["arch_list"] = [str(a) for a in torch.cuda.get_arch_list()]
    except Exception:  # noqa: BLE001
        pass
    try:
        v = torch.backends.cudnn.version()
        if v:
            out["cudnn_version"] = "%d.%d.%d" % (v // 10000, v // 100 % 100, v % 100) if v >= 10000 \
                else "%d.%d.%d" % (v // 1000, v // 100 % 10, v % 100)
    except Exception:  # noqa: BLE001
        pass
    try:
        if out.get("cuda_available"):
            nv = torch.cuda.nccl.version()
            out["nccl_version"] = ".".join(str(x) for x in nv) if isinstance(nv, tuple) else str(nv)
    except Exception:  # noqa: BLE001
        pass
    try:
        out["tf32_matmul"] = bool(torch.backends.cuda.matmul.allow_tf32)
        out["tf32_cudnn"] = bool(torch.backends.cudnn.allow_tf32)
    except Exception:  # noqa: BLE001
        pass
    try:
        out["float32_matmul_precision"] = str(torch.get_float32_matmul_precision())
    except Exception:  # noqa: BLE001
        pass
    if out.get("cuda_available"):
        try:
            out["bf16_supported"] = bool(torch.cuda.is_bf16_supported())
        except Exception:  # noqa: BLE001
            pass
        try:
            g = torch.Generator().manual_seed(0)
            a = torch.rand(_N, _N, generator=g, dtype=torch.float64) * 2 - 1
            b = torch.rand(_N, _N, generator=g, dtype=torch.float64) * 2 - 1
            ref = a @ b
            got = (a.float().cuda() @ b.float().cuda()).double().cpu()
            torch.cuda.synchronize()
            err = float((got - ref).norm() / ref.norm())
            out["fp32_matmul_rel_error"] = err
            out["fp32_matmul_looks_tf32"] = err > _TF32_THRESHOLD
        except Exception:  # noqa: BLE001
            pass
    return out


def _tensorflow():
    out = {"name": "tensorflow"}
    try:
        import tensorflow as tf
    except Exception as e:  # noqa: BLE001
        out["import_error"] = "%s: %s" % (type(e).__name__, e)
        return out
    out["version"] = str(tf.__version__)
    try:
        gpus = tf.config.list_physical_devices("GPU")
        out["cuda_available"] = len(gpus) > 0
        out["device_count"] = len(gpus)
    except Exception:  # noqa: BLE001
        pass
    try:
        info = tf.sysconfig.get_build_info()
        if info.get("cudnn_version"):
            out["cudnn_version"] = str(info["cudnn_version"])
        caps = info.get("cuda_compute_capabilities") or []
        out["arch_list"] = [str(c) for c in caps]
    except Exception:  # noqa: BLE001
        pass
    try:
        out["tf32_matmul"] = bool(tf.config.experimental.tensor_float_32_execution_enabled())
    except Exception:  # noqa: BLE001
        pass
    return out


def _jax():
    out = {"name": "jax"}
    try:
        import jax
    except Exception as e:  # noqa: BLE001
        out["import_error"] = "%s: %s" % (type(e).__name__, e)
        return out
    out["version"] = str(jax.__version__)
    try:
        gpus = [d for d in jax.devices() if d.platform in ("gpu", "cuda", "rocm")]
        out["cuda_available"] = len(gpus) > 0
        out["device_count"] = len(gpus)
    except Exception:  # noqa: BLE001
        out["cuda_available"] = False
        out["device_count"] = 0
    try:
        out["float32_matmul_precision"] = str(jax.config.jax_default_matmul_precision or "default")
    except Exception:  # noqa: BLE001
        pass
    return out


def _present(module):
    try:
        import importlib.util
        return importlib.util.find_spec(module) is not None
    except Exception:  # noqa: BLE001
        return False


def main():
    frameworks = []
    for module, fn in (("torch", _torch), ("tensorflow", _tensorflow), ("jax", _jax)):
        if not _present(module):
            continue
        try:
            frameworks.append(fn())
        except Exception as e:  # noqa: BLE001 - one framework's failure must not hide the others
            frameworks.append({"name": module, "import_error": "%s: %s" % (type(e).__name__, e)})
    libs = _mapped_gpu_libraries()
    for f in frameworks:
        f["loaded_libraries"] = libs
    sys.stdout.write("\n" + json.dumps({"frameworks": frameworks}) + "\n")
    sys.stdout.flush()


main()
