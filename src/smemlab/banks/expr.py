"""A small, safe parser and vectorised evaluator for shared-array subscripts.

Accepted access forms: `tile[ty][tx]` (CUDA C), `s[tx, ty]` (Python), and mixes of both. The index
language is C's integer arithmetic: `+ - * / % ^ & | << >>`, unary `- + ~` and parentheses, where
`/` truncates toward zero and `%` takes the sign of the dividend, values being 32-bit ints (an
overflow is an error, not a wrap). Conditions (`--active`) add `< <= > >= == !=`, `&& || !`, with C's
short-circuit: the right side of `&&` is evaluated only for threads where the left side is true,
so `tx > 0 && 64 / tx > 2` raises nothing for thread 0.

Names: tx ty tz (threadIdx.x/y/z), bdx bdy bdz (blockDim.x/y/z), lane, warp.

User text is tokenised and parsed here, never handed to `eval`. Every mistake raises `UserError`
with one line that quotes the expression and the column of the offending text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from smemlab.errors import UserError

NAMES = {
    "tx": "tx", "ty": "ty", "tz": "tz",
    "threadIdx.x": "tx", "threadIdx.y": "ty", "threadIdx.z": "tz",
    "bdx": "bdx", "bdy": "bdy", "bdz": "bdz",
    "blockDim.x": "bdx", "blockDim.y": "bdy", "blockDim.z": "bdz",
    "lane": "lane", "warp": "warp",
}
NAME_LIST = "tx ty tz bdx bdy bdz lane warp (or threadIdx.x/y/z, blockDim.x/y/z)"

INT_MAX = 2**31 - 1  # indices are C ints: leaving this range is an overflow in CUDA too
MAX_TEXT = 2000
MAX_DEPTH = 60  # nesting depth; deeper text is a typo, and would exhaust Python's stack

_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<num>0[xX][0-9a-fA-F]+|\d+)(?P<suffix>[uUlL]*)(?![\w.])"
    r"|(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"
    r"|(?P<op><<|>>|<=|>=|==|!=|&&|\|\||[-+*/%^&|~!<>()\[\],])"
    r")"
)

# binary operators, loosest first (C precedence); the last two levels of comparisons and the
# logical operators exist only in conditions
_LEVELS = [["||"], ["&&"], ["|"], ["^"], ["&"], ["==", "!="], ["<", "<=", ">", ">="], ["<<", ">>"],
           ["+", "-"], ["*", "/", "%"]]
_CONDITION_ONLY = {"||", "&&", "==", "!=", "<", "<=", ">", ">=", "!"}


@dataclass(frozen=True)
class Node:
    kind: str  # "num", "name", "unary", "binary"
    pos: int  # column (0-based) of the token that names the node, for error messages
    value: object = None  # number, name key, or operator
    args: tuple = ()


@dataclass(frozen=True)
class Access:
    """`name[i0][i1]...`: the array name and each index as a tree and as the text the user wrote."""

    array: str
    indices: tuple[Node, ...]
    texts: tuple[str, ...]


class _Tok:
    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos


def _tokenize(text: str) -> list[_Tok]:
    if len(text) > MAX_TEXT:
        raise UserError(f"expression is {len(text)} characters long; the limit is {MAX_TEXT}")
    toks, i = [], 0
    while i < len(text):
        if text[i:].strip() == "":
            break
        m = _TOKEN.match(text, i)
        if not m or m.end() == i:
            j = i + len(text[i:]) - len(text[i:].lstrip())
            raise UserError(f"{text!r}: unexpected {text[j]!r} at column {j + 1}"
                            f" (allowed: integers, names, + - * / % ^ & | << >> ( ) [ ] ,)")
        start = m.start(m.lastgroup) if m.lastgroup != "suffix" else m.start("num")
        if m.group("num") is not None:
            toks.append(_Tok("num", m.group("num"), m.start("num")))
        elif m.group("name") is not None:
            toks.append(_Tok("name", m.group("name"), start))
        else:
            toks.append(_Tok("op", m.group("op"), start))
        i = m.end()
    toks.append(_Tok("end", "", len(text)))
    return toks


class _Parser:
    def __init__(self, text: str, condition: bool):
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0
        self.condition = condition
        self.depth = 0

    # -- helpers
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def fail(self, msg: str, pos: int | None = None):
        pos = self.tok.pos if pos is None else pos
        near = self.text[pos:pos + 12]
        where = f"at column {pos + 1} (near {near!r})" if near else "at the end"
        raise UserError(f"{self.text!r}: {msg} {where}")

    def take(self, op: str) -> bool:
        if self.tok.kind == "op" and self.tok.text == op:
            self.i += 1
            return True
        return False

    def expect(self, op: str):
        if not self.take(op):
            got = "the end of the expression" if self.tok.kind == "end" else repr(self.tok.text)
            self.fail(f"expected {op!r}, found {got}")

    # -- grammar
    def expression(self, level: int = 0) -> Node:
        if level == len(_LEVELS):
            return self.unary()
        left = self.expression(level + 1)
        while self.tok.kind == "op" and self.tok.text in _LEVELS[level]:
            op = self.tok
            if op.text in _CONDITION_ONLY and not self.condition:
                self.fail(f"{op.text!r} is a condition operator; it belongs in --active, not in an index", op.pos)
            self.i += 1
            right = self.expression(level + 1)
            left = Node("binary", op.pos, op.text, (left, right))
        return left

    def unary(self) -> Node:
        t = self.tok
        if t.kind == "op" and t.text in ("-", "+", "~", "!"):
            if t.text == "!" and not self.condition:
                self.fail("'!' is a condition operator; it belongs in --active, not in an index", t.pos)
            self.i += 1
            return Node("unary", t.pos, t.text, (self.nested(self.unary),))
        return self.primary()

    def nested(self, fn):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"nesting deeper than {MAX_DEPTH} levels")
        try:
            return fn()
        finally:
            self.depth -= 1

    def primary(self) -> Node:
        t = self.tok
        if t.kind == "num":
            self.i += 1
            if len(t.text) > 1 and t.text[0] == "0" and t.text[1] not in "xX":
                self.fail(f"{t.text} looks like a C octal literal; write it in decimal or hex", t.pos)
            v = int(t.text, 0)
            if v > INT_MAX:
                self.fail(f"{t.text} does not fit a 32-bit int", t.pos)
            return Node("num", t.pos, v)
        if t.kind == "name":
            if t.text not in NAMES:
                self.fail(f"unknown name {t.text!r} (names: {NAME_LIST})", t.pos)
            self.i += 1
            return Node("name", t.pos, NAMES[t.text])
        if self.take("("):
            node = self.nested(self.expression)
            self.expect(")")
            return node
        if t.kind == "end":
            self.fail("the expression ends too early")
        self.fail(f"unexpected {t.text!r}")

    def access(self) -> Access:
        t = self.tok
        if t.kind != "name" or "." in t.text:
            self.fail("expected the array name, as in tile[ty][tx] or s[tx, ty]", t.pos)
        if t.text in NAMES:
            self.fail(f"{t.text!r} is a thread index, not an array; write the access as NAME[index], e.g. s[{t.text}]",
                      t.pos)
        self.i += 1
        indices, texts = [], []
        if not (self.tok.kind == "op" and self.tok.text == "["):
            self.fail(f"expected '[' after the array name {t.text!r}")
        while self.take("["):
            while True:
                start = self.tok.pos
                indices.append(self.expression())
                texts.append(self.text[start:self.tok.pos].strip())
                if not self.take(","):
                    break
            self.expect("]")
        if self.tok.kind != "end":
            self.fail(f"unexpected {self.tok.text!r} after the subscript")
        return Access(t.text, tuple(indices), tuple(texts))

    def condition_only(self) -> Node:
        node = self.expression()
        if self.tok.kind != "end":
            self.fail(f"unexpected {self.tok.text!r}")
        return node


def parse_access(text: str) -> Access:
    """Parse `name[i][j]` / `name[i, j]`; raises UserError with the column of any mistake."""
    if not isinstance(text, str) or not text.strip():
        raise UserError("the access expression is empty; write it like tile[ty][tx]")
    return _Parser(text, condition=False).access()


def parse_condition(text: str) -> Node:
    """Parse an --active condition (index arithmetic plus comparisons and && || !)."""
    if not isinstance(text, str) or not text.strip():
        raise UserError("the --active condition is empty; write it like 'tx < 64'")
    return _Parser(text, condition=True).condition_only()


# ---------------------------------------------------------------------------------------------
# evaluation over all threads of a block at once


class Evaluator:
    """Evaluates trees over a block: `env` maps each name to an int64 array (one value per thread).

    `describe(i)` names thread i in error messages. Only threads in `mask` are evaluated in the C
    sense: errors (division by zero, overflow, bad shifts) are reported for them alone.
    """

    def __init__(self, text: str, env: dict[str, np.ndarray], describe):
        self.text = text
        self.env = env
        self.n = len(env["tx"])
        self.describe = describe

    def _fail(self, node: Node, what: str, bad: np.ndarray):
        first = int(np.flatnonzero(bad)[0])
        raise UserError(f"{self.text!r}: {what} at column {node.pos + 1} for {self.describe(first)}")

    def _check(self, node: Node, v: np.ndarray, mask: np.ndarray) -> np.ndarray:
        bad = mask & ((v > INT_MAX) | (v < -INT_MAX - 1))
        if bad.any():
            self._fail(node, "the value overflows a 32-bit int", bad)
        return v

    def eval(self, node: Node, mask: np.ndarray) -> np.ndarray:
        k = node.kind
        if k == "num":
            return np.full(self.n, node.value, dtype=np.int64)
        if k == "name":
            return self.env[node.value]
        if k == "unary":
            v = self.eval(node.args[0], mask)
            if node.value == "-":
                return self._check(node, -v, mask)
            if node.value == "~":
                return ~v
            if node.value == "!":
                return (v == 0).astype(np.int64)
            return v
        op = node.value
        a = self.eval(node.args[0], mask)
        if op in ("&&", "||"):  # short-circuit: the right side runs only where it decides
            a_true = a != 0
            b = self.eval(node.args[1], mask & (a_true if op == "&&" else ~a_true))
            r = (a_true & (b != 0)) if op == "&&" else (a_true | (b != 0))
            return r.astype(np.int64)
        b = self.eval(node.args[1], mask)
        if op in ("/", "%"):
            zero = mask & (b == 0)
            if zero.any():
                self._fail(node, "division by zero" if op == "/" else "remainder by zero", zero)
            safe = np.where(b == 0, 1, b)
            q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)  # C: truncate toward zero
            return self._check(node, q, mask) if op == "/" else a - q * safe
        if op in ("<<", ">>"):
            bad = mask & ((b < 0) | (b > 31))
            if bad.any():
                self._fail(node, f"shift count outside 0..31", bad)
            s = np.clip(b, 0, 31)
            if op == ">>":
                return a >> s
            return self._check(node, a << s, mask)
        if op == "+":
            return self._check(node, a + b, mask)
        if op == "-":
            return self._check(node, a - b, mask)
        if op == "*":
            return self._check(node, a * b, mask)  # |a|,|b| < 2^31: the int64 product is exact
        if op == "^":
            return a ^ b
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        cmp = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
               "==": np.equal, "!=": np.not_equal}[op]
        return cmp(a, b).astype(np.int64)
