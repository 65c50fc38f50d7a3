# load_mindir/save_mindir: a MINDIR file MindSpore wrote (../fixtures/mlp.mindir) as its
# ModelProto, user_info and the graph name edited, written back (suffix added, read-only) and
# read again; the errors of bad names, missing files and non-ModelProto models.
import os
import shutil
import stat
import tempfile

import mindspore as ms

TMP = tempfile.mkdtemp()
md = ms.load_mindir(os.path.join("..", "fixtures", "mlp.mindir"))
print(type(md).__name__, md.ir_version, md.producer_name, md.model_version, dict(md.user_info))
print(md.graph.name != "", len(md.graph.node), len(md.graph.parameter), len(md.graph.input))
md.user_info["version"] = "pangu v100"
md.user_info["owner"] = "me"
target = os.path.join(TMP, "sub", "new")
ms.save_mindir(md, target)
print(sorted(os.listdir(os.path.join(TMP, "sub"))),
      oct(stat.S_IMODE(os.stat(target + ".mindir").st_mode)))
back = ms.load_mindir(target + ".mindir")
print(sorted(back.user_info.items()), back == md, len(back.SerializeToString()))
ms.save_mindir(back, target + ".mindir")
print(sorted(os.listdir(os.path.join(TMP, "sub"))))
for name in (5, "a b.mindir", "dir/", os.path.join(TMP, "nonexist.mindir")):
    try:
        ms.load_mindir(name)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).replace(TMP, "<tmp>"))
try:
    ms.save_mindir({}, os.path.join(TMP, "y.mindir"))
except TypeError as e:
    print("TypeError", e)
print(os.path.exists(os.path.join(TMP, "y.mindir")))
shutil.rmtree(TMP)
