"""Every name cellgrad provides that MindSpore 2.10 has takes the same parameters: names,
order, kinds and defaults (recorded from MindSpore itself in `mindspore-2.10.json` by
`tests/core/ms_programs/record_signatures.py`). Covers whatever packages are installed."""

import importlib.metadata
import inspect

import check
import pytest
from allowed import ALLOWED
from normalize import describe

from cellgrad import plugins


@pytest.fixture(scope="module")
def report():
    return check.mismatches()


def test_signatures_match_mindspore(report, capsys):
    with capsys.disabled():  # shown in every run, -q included
        print(f"\nsignature check: {len(report.checked)} mirrored names compared with MindSpore "
              f"2.10 ({len(report.checked) - len(report.differ)} match, {len(report.differ)} "
              f"differ, of which {len(set(report.differ) & set(ALLOWED))} on purpose; "
              f"{len(report.unverifiable)} not "
              f"inspectable in MindSpore)")
    wrong = [msg for name, msg in sorted(report.differ.items()) if name not in ALLOWED]
    assert not wrong, (f"{len(wrong)} signatures differ from MindSpore 2.10 (fix them, or "
                       f"allow-list them with a reason in allowed.py):\n" + "\n".join(wrong))


def test_the_check_covers_the_core_and_installed_packages(report):
    assert len(report.checked) > 300  # the core alone provides over 300 of them
    for name in ("Tensor.astype", "Parameter", "ops.matmul", "grad", "nn.Cell"):
        assert name in report.checked
    for plugin in plugins.get_plugins():
        assert not plugin.problems, f"{plugin.label}: {plugin.problems}"
        for qualname in plugin.names:
            module_name, _, name = f"cellgrad.{qualname}".rpartition(".")
            ns = module_name[len("cellgrad."):] if module_name != "cellgrad" else ""
            if name in check.FIXTURE["namespaces"].get(ns, {}):
                assert qualname in report.checked or qualname in report.unverifiable, qualname


def _provider_installed(qualname):
    """Whether the distribution that provides `qualname` (the core when none) is installed."""
    from cellgrad import _first_party

    dist = _first_party.provider(qualname)
    if dist is None:
        return True
    try:
        importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_allow_list_entries_are_current(report):
    stale = [name for name in ALLOWED if _provider_installed(name) and name not in report.differ]
    assert not stale, f"allow-listed names that now match or are not provided: {stale}"


def test_a_wrong_signature_is_reported():
    def dense(in_channels, out_channel, weight_init=None):  # a typo'd parameter name
        return None

    recorded = {"kind": "function", "params": [
        ["in_channels", "positional_or_keyword", None],
        ["out_channels", "positional_or_keyword", None],
        ["weight_init", "positional_or_keyword", "None"]]}
    report = check.Report()
    check._compare(report, "fake.dense", recorded, dense)
    assert list(report.differ) == ["fake.dense"]
    assert "out_channels" in report.differ["fake.dense"]


def test_defaults_compare_by_meaning():
    import cellgrad

    def f(dtype=cellgrad.float32, shape=(1, 2), init="normal"):
        return None

    assert describe(f)["params"] == [["dtype", "positional_or_keyword", "dtype:Float32"],
                                     ["shape", "positional_or_keyword", "(1, 2)"],
                                     ["init", "positional_or_keyword", "'normal'"]]
    assert inspect.signature(f)  # plain functions stay inspectable
