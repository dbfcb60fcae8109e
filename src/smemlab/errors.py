"""Errors a user can cause. The command line prints these as one clear line, never a traceback."""


class UserError(Exception):
    """Bad input from the user: an argument, an expression, an array. Exit status 2."""

    exit_status = 2


class NoGPU(UserError):
    """No usable CUDA GPU (no driver, no device, or the index asked for does not exist)."""

    exit_status = 1


class KernelError(RuntimeError):
    """A CUDA error raised by one kernel launch, named with the kernel and its launch shape."""

    def __init__(self, kernel: str, shape: str, cause: BaseException):
        super().__init__(f"kernel {kernel} {shape}: {cause}")
        self.kernel = kernel
        self.shape = shape
        self.cause = cause
