"""Check by hand that MindSpore loads what cellgrad writes (not collected by pytest).

    python tests/checkpoint/mindspore_reads_ours.py /path/to/mindspore-venv/bin/python

Writes files with cellgrad (plain with header and footer, CRC, AES-GCM with the CRC inside,
AES-CBC, SM4-CBC, safetensors with and without crc_num), has MindSpore load each in a
subprocess, and compares names, dtypes, shapes and values with what cellgrad loads. Prints one
line per file; exits 1 on any difference.
"""

import json
import os
import subprocess
import sys
import tempfile

KEY = b"0123456789abcdef"
CASES = {  # file -> load_checkpoint keyword arguments (bytes keys as latin-1 text)
    "plain.ckpt": {},
    "crc.ckpt": {"crc_check": True},
    "gcm_crc.ckpt": {"dec_key": KEY.decode(), "crc_check": True},
    "cbc.ckpt": {"dec_key": (KEY * 2).decode(), "dec_mode": "AES-CBC"},
    "sm4.ckpt": {"dec_key": KEY.decode(), "dec_mode": "SM4-CBC"},
    "st.safetensors": {"format": "safetensors"},
    "st_crc.safetensors": {"format": "safetensors", "crc_check": True},
}

_READ = """
import json, sys
import mindspore as ms
out = {}
for name, kw in json.loads(sys.argv[2]).items():
    if "dec_key" in kw:
        kw["dec_key"] = kw["dec_key"].encode("latin-1")
    try:
        loaded = ms.load_checkpoint(sys.argv[1] + "/" + name, **kw)
    except Exception as e:
        out[name] = f"{type(e).__name__}: {e}"
        continue
    out[name] = {k: v if isinstance(v, str) else
                 [str(v.dtype), list(v.shape), (v.float() if v.dtype == ms.bfloat16 else v)
                  .asnumpy().astype("float64").tolist()] for k, v in loaded.items()}
print(json.dumps(out))
"""


def write_files(directory):
    import numpy as np

    import cellgrad as ms
    from cellgrad import Parameter, Tensor

    def p(name, arr, dtype=None):
        return Parameter(Tensor(arr, dtype=dtype), name=name)

    params = {
        "f16": p("f16", np.array([[1.5, -2.25], [0.1, 65504]], np.float16)),
        "bf16": p("bf16", np.array([1.0, -3.5, 0.1], np.float32), ms.bfloat16),
        "f64": p("f64", np.array([np.pi, -1e-300])), "i8": p("i8", np.array([-128, 127], np.int8)),
        "u8": p("u8", np.array([0, 255], np.uint8)), "i64": p("i64", np.array([-2**40, 5])),
        "flag": p("flag", np.array([True, False])), "scalar": p("scalar", np.float32(2.5)),
        "empty": p("empty", np.zeros((0, 3), np.float32)),
        "w": p("w", np.arange(24, dtype=np.float32).reshape(2, 3, 4)),
    }
    extra = {"epoch": 3, "lr": 0.01}
    path = lambda name: os.path.join(directory, name)  # noqa: E731
    ms.save_checkpoint(params, path("plain.ckpt"), append_dict={**extra, "note": "héllo"})
    ms.save_checkpoint(params, path("crc.ckpt"), crc_check=True)
    ms.save_checkpoint(params, path("gcm_crc.ckpt"), enc_key=KEY, crc_check=True)
    ms.save_checkpoint(params, path("cbc.ckpt"), enc_key=KEY * 2, enc_mode="AES-CBC")
    ms.save_checkpoint(params, path("sm4.ckpt"), enc_key=KEY, enc_mode="SM4-CBC")
    ms.save_checkpoint(params, path("st.safetensors"), format="safetensors", append_dict=extra)
    no_bf16 = {k: v for k, v in params.items() if k != "bf16"}  # MindSpore cannot CRC bf16
    ms.save_checkpoint(no_bf16, path("st_crc.safetensors"), format="safetensors",
                       crc_check=True, append_dict=extra)


def ours(directory, name, kwargs):
    import numpy as np

    import cellgrad as ms

    kw = dict(kwargs)
    if "dec_key" in kw:
        kw["dec_key"] = kw["dec_key"].encode("latin-1")
    return {k: v if isinstance(v, str) else
            [str(v.dtype), list(v.shape), v.asnumpy().astype(np.float64).tolist()]
            for k, v in ms.load_checkpoint(os.path.join(directory, name), **kw).items()}


def main():
    ms_python = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        write_files(directory)
        result = subprocess.run([ms_python, "-c", _READ, directory, json.dumps(CASES)],
                                capture_output=True, text=True, env={**os.environ, "GLOG_v": "3"})
        if result.returncode:
            sys.exit(result.stderr)
        theirs = json.loads(result.stdout.strip().splitlines()[-1])
        failed = False
        for name, kwargs in CASES.items():
            same = theirs[name] == ours(directory, name, kwargs)
            failed |= not same
            got = theirs[name]
            shown = got if isinstance(got, str) else f"{len(got)} entries"
            print(f"{name:<20} MindSpore loads it: {'same values' if same else 'DIFFERENT'} "
                  f"({shown})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
