"""Struct fields by name (`--arg params.x=float32[4096] --arg params.n=4096`): where each field sits in a
parameter passed by value, found by the compiler itself.

A probe after the user's file asks the compiler for each named field's offset, size and kind, as
constants of a `__device__` array that the PTX then holds with their values; the parameter's type comes
from the kernel's own signature (through the kernel expression), so nested fields (`params.strides.x`),
type aliases and templates are laid out exactly as the kernel sees them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from smemlab.errors import UserError

_HEAD = """
#include <cstddef>
#include <tuple>
#include <type_traits>
template <class> struct __smemlab_sig;
template <class... A> struct __smemlab_sig<void (*)(A...)> { using args = std::tuple<A...>; };
"""


@dataclass(frozen=True)
class Field:
    offset: int  # bytes from the start of the parameter
    size: int
    pointer: bool
    floating: bool
    signed: bool


def dotted(arg_texts: list[str]) -> list[str]:
    """The `NAME.FIELD...` names among --arg texts."""
    out = []
    for t in arg_texts:
        name = t.partition("=")[0].strip()
        if "." in name:
            out.append(name)
    return out


def check_name(name: str) -> None:
    if not re.match(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$", name):
        raise UserError(f"--arg {name}: write a struct field as PARAM.FIELD (nested: PARAM.FIELD.SUBFIELD)")


def probe_code(kernel_expr: str, fields: list[tuple[int, str]]) -> str:
    """C++ that makes the PTX hold, for each (parameter index, 'field.sub') of the kernel, its layout."""
    address = kernel_expr if kernel_expr.lstrip().startswith(("&", "static_cast")) else f"&{kernel_expr}"
    lines = [_HEAD]
    for i, (index, path) in enumerate(fields):
        t = f"__smemlab_p{i}"
        m = f"((({t} *)0)->{path})"
        lines.append(f"using {t} = std::remove_cv_t<std::tuple_element_t<{index}, "
                     f"typename __smemlab_sig<decltype({address})>::args>>;\n"
                     f"__device__ unsigned long long __smemlab_field_{i}[5] = {{offsetof({t}, {path}), sizeof{m}, "
                     # a `T *__restrict__` field is no std::is_pointer to every front end; it converts to void*
                     f"std::is_convertible_v<std::remove_reference_t<decltype{m}>, const volatile void *>, "
                     f"std::is_floating_point_v<std::remove_reference_t<decltype{m}>>, "
                     f"std::is_signed_v<std::remove_reference_t<decltype{m}>>}};\n")
    return "".join(lines)


def read(module, count: int) -> list[Field]:
    """The layouts the probes left in the module's globals, in the order they were asked for."""
    by_name = {v.name: v for v in module.variables}
    out = []
    for i in range(count):
        var = by_name.get(f"__smemlab_field_{i}")
        raw = bytearray(var.init or b"") if var is not None else bytearray()
        raw += bytes(40 - len(raw))
        vals = np.frombuffer(bytes(raw[:40]), dtype="<u8")
        out.append(Field(int(vals[0]), int(vals[1]), bool(vals[2]), bool(vals[3]), bool(vals[4])))
    return out
