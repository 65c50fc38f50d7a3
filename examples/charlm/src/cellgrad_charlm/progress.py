"""A progress bar: tqdm when it is installed, else a plain one on stderr."""

import sys


class _Plain:
    def __init__(self, total, desc, file):
        self.total, self.desc, self.file, self.n, self.postfix = total, desc, file, 0, ""
        self.every = max(1, total // 20)  # about 20 redraws an epoch, cheap in logs

    def set_postfix_str(self, text, refresh=False):
        self.postfix = text

    def update(self, n=1):
        self.n += n
        if self.n % self.every == 0 or self.n == self.total:
            filled = 30 * self.n // self.total
            self.file.write(f"\r{self.desc} [{'#' * filled}{'.' * (30 - filled)}] "
                            f"{self.n}/{self.total} {self.postfix}")
            self.file.flush()

    def close(self):
        self.file.write("\n")
        self.file.flush()


def bar(total, desc, file=None):
    file = file or sys.stderr
    try:
        from tqdm import tqdm
    except ImportError:
        return _Plain(total, desc, file)
    return tqdm(total=total, desc=desc, file=file, unit="step", dynamic_ncols=True, leave=True)
