"""Records `inspect.signature` of every public name of MindSpore 2.10's `mint.distributed` (the
shared fixture tests/signatures/mindspore-2.10.json does not hold that namespace), in the
fixture's form. Run under MindSpore: `GLOG_v=3 python record_mint_distributed.py`."""

import inspect
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "signatures"))

from normalize import describe  # noqa: E402


def main():
    import mindspore.mint.distributed as dist

    names = {}
    for name in sorted(n for n in getattr(dist, "__all__", dir(dist)) if not n.startswith("_")):
        obj = getattr(dist, name)
        if inspect.ismodule(obj) or not (inspect.isclass(obj) or callable(obj)):
            continue
        names[name] = describe(obj)
    target = HERE / "mint_distributed_signatures.json"
    target.write_text(json.dumps(names, indent=0, sort_keys=True) + "\n")
    print(f"wrote {target} ({len(names)} names)")


if __name__ == "__main__":
    main()
