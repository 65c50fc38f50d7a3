"""mindcv's registry models over 30M parameters (`tools/mindcv_registry.py stream`): the
streaming driver's model order and bounds, the results table, and the input size of models
whose registry config gives none."""

import argparse
import importlib.util
import json
import pathlib
import sys
import types

import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent / "tools"))
import mindcv_registry  # noqa: E402


def _sizes(tmp_path, rows):
    for row in rows:
        (tmp_path / f"{row['model']}.json").write_text(json.dumps(row))
    return tmp_path


def test_stream_takes_models_in_range_smallest_first(tmp_path):
    folder = _sizes(tmp_path, [
        {"model": "big", "params": 90e6, "skipped": "x"},
        {"model": "small", "params": 10e6},
        {"model": "mid_b", "params": 40e6, "skipped": "x"},
        {"model": "mid_a", "params": 40e6, "skipped": "x"},
        {"model": "broken", "error": "RuntimeError"},
    ])
    args = argparse.Namespace(sizes=str(folder), min_params=30e6, max_params=float("inf"),
                              models=[])
    assert mindcv_registry._sized_models(args) == [("mid_a", 40e6), ("mid_b", 40e6),
                                                   ("big", 90e6)]
    args.max_params, args.models = 50e6, ["mid_*"]
    assert [n for n, _ in mindcv_registry._sized_models(args)] == ["mid_a", "mid_b"]
    args.models = ["big"]
    assert mindcv_registry._sized_models(args) == []


def test_table_rows_by_size_with_causes(tmp_path):
    rows = [{"model": "b", "params": 50e6, "error": "build: KeyError: 'x'"},
            {"model": "a", "params": 31e6, "build": True, "forward": True, "step": True,
             "rel_diff": 2e-5, "allclose": 3e-7}]
    (tmp_path / "r.json").write_text(json.dumps(rows))
    (tmp_path / "c.json").write_text(json.dumps({"b": "needs x | y"}))
    md = tmp_path / "t.md"
    mindcv_registry.main(["table", "--json", str(tmp_path / "r.json"), "--causes",
                          str(tmp_path / "c.json"), "--md", str(md)])
    lines = md.read_text().splitlines()
    assert lines[2] == "| a | 31.0M | yes | yes | yes | 2.0e-05 | 3.0e-07 |  |"
    assert lines[3] == "| b | 50.0M | - | - | - |  |  | needs x / y |"


@pytest.mark.skipif(importlib.util.find_spec("mindcv") is None, reason="mindcv is not installed")
def test_input_size_from_the_built_model_when_the_config_has_none():
    mindcv_registry._alias_mindspore()
    mindcv_registry._import_models()
    # swinv2's configs carry no input_size; its model is built for image_size=256
    assert "input_size" not in sys.modules["mindcv.models.registry"] \
        ._model_pretrained_cfgs["swinv2_small_window8"]
    net = types.SimpleNamespace(image_size=(256, 256))
    assert mindcv_registry._input_size("swinv2_small_window8", net) == (3, 256, 256)
    net = types.SimpleNamespace(patch_embed=types.SimpleNamespace(img_size=384))
    assert mindcv_registry._input_size("swinv2_small_window8", net) == (3, 384, 384)
    assert mindcv_registry._input_size("swinv2_small_window8") == (3, 224, 224)
    assert mindcv_registry._input("swinv2_small_window8", net).shape == (2, 3, 384, 384)
    # a config's own input_size wins
    size = sys.modules["mindcv.models.registry"]._model_pretrained_cfgs["cait_s24_384"] \
        .get("input_size")
    assert size is not None
    assert mindcv_registry._input_size("cait_s24_384", net) == tuple(size)
