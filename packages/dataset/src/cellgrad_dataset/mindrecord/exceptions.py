"""Mirrors `mindspore.mindrecord.common.exceptions`: MindRecord's error classes, codes and
messages (`str(e)` is "[ClassName]: message")."""

EXCEPTIONS = {  # class name -> [exception number, base message]
    "UnknownError": [0, "Unknown Error."],
    "ParamTypeError": [1, "Param type is error."],
    "ParamValueError": [2, "Param value is error."],
    "ParamMissError": [3, "Param missing."],
    "PathNotExistsError": [4, "Path does not exist."],
    "DbConnectionError": [5, "Db connection is error."],
    "MRMOpenError": [100, "MindRecord could not open."],
    "MRMOpenForAppendError": [101, "MindRecord could not open for append."],
    "MRMInvalidPageSizeError": [102, "Failed to set page size."],
    "MRMInvalidHeaderSizeError": [103, "Failed to set header size."],
    "MRMSetHeaderError": [104, "Failed to set header."],
    "MRMWriteDatasetError": [105, "Failed to write dataset."],
    "MRMCommitError": [107, "Failed to commit."],
    "MRMLaunchError": [108, "Failed to launch."],
    "MRMFinishError": [109, "Failed to finish."],
    "MRMCloseError": [110, "Failed to close."],
    "MRMAddSchemaError": [111, "Failed to add schema."],
    "MRMAddIndexError": [112, "Failed to add index field."],
    "MRMBuildSchemaError": [113, "Failed to build schema."],
    "MRMGetMetaError": [114, "Failed to get meta info."],
    "MRMIndexGeneratorError": [115, "Failed to create index generator."],
    "MRMGenerateIndexError": [116, "Failed to generate index."],
    "MRMInitSegmentError": [117, "Failed to initialize segment."],
    "MRMFetchCandidateFieldsError": [118, "Failed to fetch candidate category fields."],
    "MRMReadCategoryInfoError": [119, "Failed to read category information."],
    "MRMFetchDataError": [120, "Failed to fetch data by category."],
    "MRMInvalidSchemaError": [200, "Schema is error."],
    "MRMValidateDataError": [201, "Raw data is valid."],
    "MRMDefineIndexError": [202, "Index field is error."],
    "MRMDefineBlobError": [203, "Blob field is error."],
    "MRMUnsupportedSchemaError": [204, "Schema is not supported."],
    "MRMDefineCategoryError": [205, "Category field is error."],
}

SYS_ID = 0b00101010
_RT_HOST, _ERROR_CODE, _COMMON_LEVEL = 0b01, 0b01, 0b000


class MindRecordException(Exception):
    """MindRecord base error class."""

    def __init__(self):
        super().__init__()
        number, self._error_msg = EXCEPTIONS.get(type(self).__name__, EXCEPTIONS["UnknownError"])
        self._error_code = MindRecordException.transform_error_code(number)

    def __str__(self):
        return f"[{type(self).__name__}]: {self._error_msg}"

    @property
    def error_msg(self):
        """The description of this error."""
        return self._error_msg

    @error_msg.setter
    def error_msg(self, msg):
        self._error_msg = msg

    @property
    def error_code(self):
        """The unique error number of this error."""
        return self._error_code

    @staticmethod
    def transform_error_code(exception_no):
        """MindSpore's error code of exception number `exception_no`."""
        mod_id = exception_no // 100 + 1
        return ((0xFF & _RT_HOST) << 30 | (0xFF & _ERROR_CODE) << 28
                | (0xFF & _COMMON_LEVEL) << 25 | (0xFF & SYS_ID) << 17 | (0xFF & mod_id) << 12
                | (0x0FFF & exception_no))


def _detailed(name, template, doc):
    def __init__(self, detail):
        MindRecordException.__init__(self)
        self.error_msg = template.format(detail)
    return type(name, (MindRecordException,), {"__init__": __init__, "__doc__": doc,
                                               "__module__": __name__})


def _fixed(name, message=None, doc=None):
    def __init__(self):
        MindRecordException.__init__(self)
        if message is not None:
            self.error_msg = message
    return type(name, (MindRecordException,), {"__init__": __init__, "__module__": __name__,
                                               "__doc__": doc or f"MindRecord error {name}."})


class UnknownError(MindRecordException):
    """Raised when an unknown error occurs."""


class ParamTypeError(MindRecordException):
    """Request param type error."""

    def __init__(self, param_name, expected_type):
        super().__init__()
        self.error_msg = f"Invalid parameter type. '{param_name}' expect {expected_type} type."


class ParamMissError(MindRecordException):
    """Missing param error."""

    def __init__(self, param_name):
        super().__init__()
        self.error_msg = f"Param missing. '{param_name}' is required."


ParamValueError = _detailed("ParamValueError", "Invalid parameter value. {}",
                            "Request param value error.")
PathNotExistsError = _detailed("PathNotExistsError", "Invalid path. {}", "Invalid path.")
DbConnectionError = _detailed("DbConnectionError", "Db connection is error. Detail: {}",
                              "Database connection error.")
MRMOpenError = _fixed("MRMOpenError", "MindRecord File could not open successfully.")
MRMOpenForAppendError = _fixed("MRMOpenForAppendError",
                               "MindRecord File could not open successfully for append.")
MRMInvalidSchemaError = _detailed("MRMInvalidSchemaError",
                                  "Schema format is error. Detail: {}", "Invalid schema.")
MRMValidateDataError = _detailed("MRMValidateDataError",
                                 "Raw data do not match the schema. Detail: {}",
                                 "Raw data do not match the schema.")
MRMDefineIndexError = _detailed("MRMDefineIndexError",
                                "Failed to define index field. Detail: {}", "Bad index field.")
MRMDefineBlobError = _detailed("MRMDefineBlobError",
                               "Failed to define blob field. Detail: {}", "Bad blob field.")
MRMUnsupportedSchemaError = _detailed("MRMUnsupportedSchemaError",
                                      "Schema is not supported. Detail: {}",
                                      "Unsupported schema.")
MRMDefineCategoryError = _detailed("MRMDefineCategoryError",
                                   "Failed to define category field. Detail: {}",
                                   "Bad category field.")
for _name in ("MRMInvalidPageSizeError", "MRMInvalidHeaderSizeError", "MRMSetHeaderError",
              "MRMWriteDatasetError", "MRMCommitError", "MRMLaunchError", "MRMFinishError",
              "MRMCloseError", "MRMAddSchemaError", "MRMAddIndexError", "MRMBuildSchemaError",
              "MRMGetMetaError", "MRMIndexGeneratorError", "MRMGenerateIndexError",
              "MRMInitSegmentError", "MRMFetchCandidateFieldsError", "MRMReadCategoryInfoError",
              "MRMFetchDataError"):
    globals()[_name] = _fixed(_name)
del _name
