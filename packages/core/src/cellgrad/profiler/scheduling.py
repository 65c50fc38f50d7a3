"""`mindspore.profiler.schedule`: which steps a profiler records."""

from enum import Enum

from cellgrad import log as logger

__all__ = ["ProfilerAction", "Schedule"]


class ProfilerAction(Enum):
    """What the profiler does during one step."""

    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @staticmethod
    def get_by_value(value):
        """The member whose value is `value`, or None."""
        return {action.value: action for action in ProfilerAction}.get(value, None)


class Schedule:
    """Mirrors `mindspore.profiler.schedule(*, wait, active, warmup=0, repeat=0, skip_first=0)`.

    Skip `skip_first` steps, then cycle: `wait` steps idle, `warmup` steps warming up, `active`
    steps recorded (the last one RECORD_AND_SAVE); `repeat` cycles (0: until the run ends).
    Invalid values are reset with a warning, as MindSpore does.
    """

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0,
                 skip_first: int = 0) -> None:
        self.wait = wait
        self.active = active
        self.warmup = warmup
        self.repeat = repeat
        self.skip_first = skip_first
        self._check_params()

    def __call__(self, step: int) -> ProfilerAction:
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        num_steps = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / num_steps:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < self.wait:
            return ProfilerAction.NONE
        if mod_step < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else \
            ProfilerAction.RECORD_AND_SAVE

    def __repr__(self):
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, "
                f"warmup={self.warmup!r}, repeat={self.repeat!r}, "
                f"skip_first={self.skip_first!r})")

    def _check_params(self):
        for name, least in (("wait", 0), ("warmup", 0), ("active", 1), ("repeat", 0),
                            ("skip_first", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                logger.warning(f"Parameter '{name}' should be of type int, but got "
                               f"{type(value).__name__}. reset to int {least}.")
                setattr(self, name, least)
        if self.warmup == 0:
            logger.warning("Profiler won't be using warmup, this can skew profiler results")

    def to_dict(self):
        """The schedule's parameters as a dict."""
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup,
                "repeat": self.repeat, "skip_first": self.skip_first}


def default_schedule(_step):
    """Without a schedule every step is recorded."""
    return ProfilerAction.RECORD
