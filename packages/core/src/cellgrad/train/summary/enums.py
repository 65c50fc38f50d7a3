"""Mirrors `mindspore.train.summary.enums`: the summary's plugin and mode names."""

from enum import Enum


class BaseEnum(Enum):
    """Mirrors `enums.BaseEnum`: an Enum listing its values."""

    @classmethod
    def to_list(cls):
        """The members' values, in order."""
        return [member.value for member in cls.__members__.values()]


class PluginEnum(BaseEnum):
    """Mirrors `enums.PluginEnum`: the kinds of data a summary holds."""

    GRAPH = "graph"
    SCALAR = "scalar"
    IMAGE = "image"
    TENSOR = "tensor"
    HISTOGRAM = "histogram"
    TRAIN_LINEAGE = "train_lineage"
    EVAL_LINEAGE = "eval_lineage"
    CUSTOM_LINEAGE_DATA = "custom_lineage_data"
    DATASET_GRAPH = "dataset_graph"
    EXPLAINER = "explainer"
    LANDSCAPE = "landscape"


class WriterPluginEnum(Enum):
    """Mirrors `enums.WriterPluginEnum`: the summary writers."""

    EXPORTER = "exporter"
    EXPLAINER = "explainer"
    SUMMARY = "summary"
    LINEAGE = "lineage"


class ModeEnum(BaseEnum):
    """Mirrors `enums.ModeEnum`: the phases a summary records (`cb_params.mode`)."""

    TRAIN = "train"
    EVAL = "eval"
