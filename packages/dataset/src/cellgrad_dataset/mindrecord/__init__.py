"""`cellgrad.mindrecord`, mirroring `mindspore.mindrecord`: MindRecord files, read and written
in MindSpore 2.10's own format (files each side writes, the other reads).

`FileWriter` (schema, index fields, shards, append), `FileReader` and `MindPage`; `MindDataset` (in
`cellgrad.dataset`) reads them into a pipeline and `Dataset.save` writes one out.
"""

import enum

from cellgrad_dataset.mindrecord.exceptions import (  # noqa: F401 - MindSpore exports them all
    EXCEPTIONS,
    SYS_ID,
    DbConnectionError,
    MindRecordException,
    MRMAddIndexError,
    MRMAddSchemaError,
    MRMBuildSchemaError,
    MRMCloseError,
    MRMCommitError,
    MRMDefineBlobError,
    MRMDefineCategoryError,
    MRMDefineIndexError,
    MRMFetchCandidateFieldsError,
    MRMFetchDataError,
    MRMFinishError,
    MRMGenerateIndexError,
    MRMGetMetaError,
    MRMIndexGeneratorError,
    MRMInitSegmentError,
    MRMInvalidHeaderSizeError,
    MRMInvalidPageSizeError,
    MRMInvalidSchemaError,
    MRMLaunchError,
    MRMOpenError,
    MRMOpenForAppendError,
    MRMReadCategoryInfoError,
    MRMSetHeaderError,
    MRMUnsupportedSchemaError,
    MRMValidateDataError,
    MRMWriteDatasetError,
    ParamMissError,
    ParamTypeError,
    ParamValueError,
    PathNotExistsError,
    UnknownError,
)
from cellgrad_dataset.mindrecord.filereader import FileReader
from cellgrad_dataset.mindrecord.filewriter import FileWriter
from cellgrad_dataset.mindrecord.mindpage import MindPage


class MSRStatus(enum.IntEnum):
    """MindRecord's status codes (`SUCCESS`, `FAILED`)."""

    SUCCESS = 0
    FAILED = 1


SUCCESS = MSRStatus.SUCCESS
FAILED = MSRStatus.FAILED

__all__ = ["FileWriter", "FileReader", "MindPage", "SUCCESS", "FAILED", "Cifar10ToMR",
           "Cifar100ToMR", "MnistToMR", "CsvToMR", "ImageNetToMR"]


def __getattr__(name):  # the converters import after SUCCESS exists (they return it)
    if name in ("Cifar10ToMR", "Cifar100ToMR", "MnistToMR", "CsvToMR", "ImageNetToMR"):
        from cellgrad_dataset.mindrecord import tools

        return getattr(tools, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
