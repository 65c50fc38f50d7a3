"""Internal names of MindSpore 2.10 that its own tests import (`_checkparam.check_input_format`,
`common.parameter._is_parameter_generated`, `_c_expression.security`), with MindSpore's
behaviour."""

import pytest

from cellgrad import _checkparam


def test_check_input_format_accepts_only_nchw():
    assert _checkparam.check_input_format("NCHW") == "NCHW"
    with pytest.raises(ValueError, match="^The data format must be NCHW, but got NHWC.$"):
        _checkparam.check_input_format("NHWC")


def test_unnamed_parameters_are_recognised_as_generated():
    import numpy as np

    from cellgrad import Parameter, Tensor
    from cellgrad.common.parameter import _is_parameter_generated

    unnamed = Parameter(Tensor(np.ones(2, np.float32)))
    named = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    assert unnamed.name.startswith("Parameter#") and _is_parameter_generated(unnamed.name)
    assert not _is_parameter_generated(named.name)
    assert not _is_parameter_generated(None) and not _is_parameter_generated(3)
    assert not _is_parameter_generated("Parameter")


def test_train_summary_paths_hold_summary_record():
    pytest.importorskip("cellgrad_nn")
    import cellgrad
    from cellgrad.train.summary import SummaryRecord, summary_record

    assert SummaryRecord is summary_record.SummaryRecord is cellgrad.train.SummaryRecord
    assert "SummaryRecord" in dir(summary_record)


def test_common_generator_holds_the_random_state_functions():
    import cellgrad
    from cellgrad.common import generator

    assert generator.Generator is cellgrad.Generator
    for name in ("get_rng_state", "set_rng_state", "seed", "manual_seed", "initial_seed"):
        assert getattr(generator, name) is getattr(cellgrad, name), name
    state = generator.get_rng_state()
    first = generator.default_generator.manual_seed(7).initial_seed()
    assert first == 7 and generator.initial_seed() == 7
    generator.set_rng_state(state)


def test_dataset_helper_and_comm_helper_paths():
    pytest.importorskip("cellgrad_nn")
    import cellgrad
    from cellgrad.train.dataset_helper import DatasetHelper, connect_network_with_dataset

    assert DatasetHelper is cellgrad.train.DatasetHelper
    assert connect_network_with_dataset is cellgrad.train.connect_network_with_dataset
    pytest.importorskip("cellgrad_distributed")
    from cellgrad.communication._comm_helper import GlobalComm

    assert GlobalComm is cellgrad.communication.GlobalComm


def test_summary_enums_and_export_options():
    from cellgrad.train.summary.enums import ModeEnum, PluginEnum
    from cellgrad.train.summary.summary_record import _DEFAULT_EXPORT_OPTIONS

    assert ModeEnum.to_list() == ["train", "eval"] and ModeEnum.TRAIN.value == "train"
    assert PluginEnum.HISTOGRAM.value == "histogram" and len(PluginEnum.to_list()) == 11
    assert _DEFAULT_EXPORT_OPTIONS == {"tensor_format": {"npy", None}}
