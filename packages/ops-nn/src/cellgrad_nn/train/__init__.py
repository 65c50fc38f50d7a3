"""`cellgrad.train`: `Model`, callbacks and metrics (MindSpore's high-level training API).

In cellgrad-ops-nn because `Model` builds on its losses, optimizers and training wrappers.
Read by `cellgrad_nn.plugin` without importing the modules below.
"""

OP_MODULES: tuple = ()

_CALLBACKS = ("Callback", "RunContext", "LossMonitor", "TimeMonitor", "History",
              "LambdaCallback")
_METRICS = ("Metric", "Accuracy", "Loss", "Precision", "Recall", "F1", "Fbeta",
            "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
            "ConfusionMatrix")
_METRICS_SELECT = ("get_metric_fn", "names")
# metrics_more.py: regression, segmentation, curve and text metrics
_METRICS_MORE = ("MAE", "MSE", "Dice", "Perplexity", "CosineSimilarity", "ROC", "auc",
                 "BleuScore", "HausdorffDistance", "MeanSurfaceDistance",
                 "RootMeanSquareDistance", "ConfusionMatrixMetric", "OcclusionSensitivity",
                 "rearrange_inputs")
_SUMMARY_OPS = ("ScalarSummary", "ImageSummary", "TensorSummary", "HistogramSummary")
_LOSS_SCALE = ("LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager")
_WHERE = {"Model": "model", "data_sink": "data_sink", "ModelCheckpoint": "checkpoint",
          "CheckpointConfig": "checkpoint",
          "EarlyStopping": "plateau", "ReduceLROnPlateau": "plateau", "ProgressBar": "progress",
          "SummaryRecord": "summary_record", "SummaryCollector": "summary_collector",
          "SummaryLandscape": "summary_landscape",
          "DatasetHelper": "dataset_helper", "LearningRateScheduler": "lr_scheduler",
          "connect_network_with_dataset": "dataset_helper",
          "OnRequestExit": "callbacks_exit", "BackupAndRestore": "callbacks_backup",
          "FlopsUtilizationCollector": "flops_collector",
          **{n: "callbacks" for n in _CALLBACKS}, **{n: "metrics" for n in _METRICS},
          **{n: "metrics_more" for n in _METRICS_MORE},
          **{n: "metrics_select" for n in _METRICS_SELECT},
          **{n: "loss_scale_manager" for n in _LOSS_SCALE}}

# As in MindSpore, every name is in mindspore.train and at the top level; metrics also in nn.
EXPORTS: dict = {
    **{f"train.{n}": f"{m}:{n}" for n, m in _WHERE.items()},
    **{n: f"{m}:{n}" for n, m in _WHERE.items() if n != "ProgressBar"},
    **{f"nn.{n}": f"metrics:{n}" for n in _METRICS},
    **{f"nn.{n}": f"metrics_more:{n}" for n in _METRICS_MORE},
    **{f"nn.{n}": f"metrics_select:{n}" for n in _METRICS_SELECT},
    # the summary ops are Primitives of `ops`, queuing values for SummaryRecord (issue 27)
    **{f"ops.{n}": f"summary_ops:{n}" for n in _SUMMARY_OPS},
    "nn.get_metrics": "metrics_select:get_metrics",
    # MindSpore's train.callback re-exports these as _CallbackManager/_InternalCallbackParam
    "train.callback._callback.CallbackManager": "callbacks:CallbackList",
    "train.callback._callback.InternalCallbackParam": "callbacks:CallbackParams",
}
