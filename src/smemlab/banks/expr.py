"""A small, safe parser and vectorised evaluator for shared-array subscripts.

Accepted access forms: `tile[ty][tx]` (CUDA C), `s[tx, ty]` (Python), and mixes of both. The index
language is C's integer arithmetic: `+ - * / % ^ & | << >>`, unary `- + ~` and parentheses, where
`/` truncates toward zero and `%` takes the sign of the dividend. Values are 32-bit `int` or
`unsigned int`, typed as C types them: a literal with a `u` suffix (or a hex literal above INT_MAX)
is unsigned, `threadIdx.x/y/z` and `blockDim.x/y/z` are unsigned (CUDA declares them so), and the
short names `tx ty tz bdx bdy bdz lane warp` are int (as after `int tx = threadIdx.x;`). C's usual
arithmetic conversions apply: an operation with an unsigned operand is unsigned and wraps modulo
2^32, so `(tx - 1u) % 32` is 31 for thread 0. A signed overflow is an error (undefined in C), not a
wrap. Conditions (`--active`) add `< <= > >= == !=`, `&& || !`, with C's short-circuit: the right
side of `&&` is evaluated only for threads where the left side is true, so `tx > 0 && 64 / tx > 2`
raises nothing for thread 0.

Only ASCII digits and names are accepted; `long` suffixes (`l`, `ll`), digit separators and
floating-point literals are refused with the column of the offending character.

User text is tokenised and parsed here, never handed to `eval`. Every mistake raises `UserError`
with one line that quotes the expression and the column of the offending text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

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

# a global access (smemlab.banks.sectors) may also name the block's coordinates, where a shared one
# may not: they move every warp's addresses alike, which banks never see
BLOCK_NAMES = {**NAMES, "bx": "bx", "by": "by", "bz": "bz", "blockIdx.x": "bx", "blockIdx.y": "by", "blockIdx.z": "bz"}
BLOCK_NAME_LIST = NAME_LIST.replace(" (or", ", bx by bz (or").replace("blockDim.x/y/z)", "blockDim.x/y/z, blockIdx.x/y/z)")

UNSIGNED_NAMES = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y", "blockDim.z",
                  "blockIdx.x", "blockIdx.y", "blockIdx.z"}

INT_MAX = 2**31 - 1  # indices are C ints: leaving this range is an overflow in CUDA too
UINT_MAX = 2**32 - 1
MAX_TEXT = 2000
MAX_DEPTH = 60  # nesting depth; deeper text is a typo, and would exhaust Python's stack
MAX_HEIGHT = 256  # operations on one path of the tree (a chain a+b+c+... is that many deep)

# ASCII only: Python's \d and \w would also take other scripts' digits and letters
_TOKEN = re.compile(
    r"[ \t\r\n\f\v]*(?:"
    r"(?P<num>[0-9][0-9A-Za-z_.]*)"  # a C preprocessing number; checked in _number
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<op><<|>>|<=|>=|==|!=|&&|\|\||[-+*/%^&|~!<>()\[\],])"
    r")",
    re.ASCII,
)
_NUMBER = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uU]?)", re.ASCII)

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
    unsigned: bool = False  # C type of the value: unsigned int, else int
    height: int = 1  # longest path to a leaf
    span: tuple = (0, 0)  # [start, end) of the node's text, parentheses around it included


@dataclass(frozen=True)
class Access:
    """`name[i0][i1]...`: the array name and each index as a tree and as the text the user wrote."""

    array: str
    indices: tuple[Node, ...]
    texts: tuple[str, ...]


def quote(text: str, limit: int = 60) -> str:
    """The user's text in an error message: repr, shortened in the middle when long."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[: limit - 20]) + " ... " + repr(text[-15:])


class _Tok:
    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos


def _tokenize(text: str) -> list[_Tok]:
    if len(text) > MAX_TEXT:
        raise UserError(f"expression is {len(text)} characters long; the limit is {MAX_TEXT}")
    toks, i = [], 0
    while i < len(text):
        if text[i:].strip(" \t\r\n\f\v") == "":
            break
        m = _TOKEN.match(text, i)
        if not m:
            j = i + len(text[i:]) - len(text[i:].lstrip(" \t\r\n\f\v"))
            raise UserError(f"{quote(text)}: unexpected {text[j]!r} at column {j + 1}"
                            f" (allowed: integers, names, + - * / % ^ & | << >> ( ) [ ] ,)")
        start = m.start(m.lastgroup)
        if m.group("num") is not None:
            _check_number(text, m.group("num"), start)
            toks.append(_Tok("num", m.group("num"), start))
        elif m.group("name") is not None:
            toks.append(_Tok("name", m.group("name"), start))
        else:
            toks.append(_Tok("op", m.group("op"), start))
        i = m.end()
    toks.append(_Tok("end", "", len(text)))
    return toks


def _check_number(text: str, num: str, pos: int) -> None:
    """A C integer literal, ASCII digits, optional u suffix; else point at the first bad character."""
    if _NUMBER.fullmatch(num):
        return
    m = _NUMBER.match(num)
    bad = m.end()
    ch = num[bad]
    where = f"at column {pos + bad + 1}"
    if ch == ".":
        why = "floating-point numbers cannot index an array; write an integer"
    elif ch == "_":
        why = "digit separators are not C; write the digits together"
    elif ch in "lL" or (ch in "uU" and num[bad + 1:bad + 2] in ("l", "L")):
        why = "long literals (suffix l, ll) are not supported: indices are 32-bit; the suffix u (unsigned) is"
    elif ch in "uU":
        why = "one u suffix at most"
    else:
        why = f"unexpected {ch!r} after the number {num[:bad]!r} (the only suffix is u, for unsigned)"
    raise UserError(f"{quote(text)}: {why} {where} (near {text[pos + bad:pos + bad + 12]!r})")


class _Parser:
    def __init__(self, text: str, condition: bool, names: dict[str, str] = NAMES):
        self.names = names
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
        raise UserError(f"{quote(self.text)}: {msg} {where}")

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
            left = self.node("binary", op.pos, op.text, (left, right))
        return left

    def node(self, kind: str, pos: int, op: str, args: tuple) -> Node:
        """A unary or binary node, typed as C types it, and no taller than MAX_HEIGHT."""
        height = 1 + max(a.height for a in args)
        if height > MAX_HEIGHT:
            self.fail(f"more than {MAX_HEIGHT} operations in a row; shorten the expression", pos)
        if op in _CONDITION_ONLY:
            unsigned = False  # comparisons and logic give int
        elif op in ("<<", ">>") or kind == "unary":
            unsigned = args[0].unsigned  # a shift has its left operand's type
        else:
            unsigned = args[0].unsigned or args[1].unsigned  # the usual arithmetic conversions
        start = pos if kind == "unary" else args[0].span[0]
        return Node(kind, pos, op, args, unsigned=unsigned, height=height, span=(start, args[-1].span[1]))

    def unary(self) -> Node:
        t = self.tok
        if t.kind == "op" and t.text in ("-", "+", "~", "!"):
            if t.text == "!" and not self.condition:
                self.fail("'!' is a condition operator; it belongs in --active, not in an index", t.pos)
            self.i += 1
            return self.node("unary", t.pos, t.text, (self.nested(self.unary),))
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
            digits = t.text.rstrip("uU")
            unsigned = digits != t.text
            if len(digits) > 1 and digits[0] == "0" and digits[1] not in "xX":
                self.fail(f"{t.text} looks like a C octal literal; write it in decimal or hex", t.pos)
            v = int(digits, 16) if digits[:2] in ("0x", "0X") else int(digits)
            if v > INT_MAX and not unsigned:
                if digits[:2] in ("0x", "0X") and v <= UINT_MAX:
                    unsigned = True  # C: a hex literal that fits only unsigned int is unsigned
                elif v <= UINT_MAX:
                    self.fail(f"{t.text} does not fit a 32-bit int (write {t.text}u for unsigned)", t.pos)
            if v > UINT_MAX:
                self.fail(f"{t.text} does not fit a 32-bit int or unsigned int", t.pos)
            return Node("num", t.pos, v, unsigned=unsigned, span=(t.pos, t.pos + len(t.text)))
        if t.kind == "name":
            if t.text not in self.names:
                listed = NAME_LIST if self.names is NAMES else BLOCK_NAME_LIST
                self.fail(f"unknown name {t.text!r} (names: {listed})", t.pos)
            self.i += 1
            return Node("name", t.pos, self.names[t.text], unsigned=t.text in UNSIGNED_NAMES,
                        span=(t.pos, t.pos + len(t.text)))
        if self.take("("):
            node = self.nested(self.expression)
            close = self.tok.pos
            self.expect(")")
            return replace(node, span=(t.pos, close + 1))
        if t.kind == "end":
            self.fail("the expression ends too early")
        self.fail(f"unexpected {t.text!r}")

    def access(self) -> Access:
        t = self.tok
        if t.kind != "name" or "." in t.text:
            self.fail("expected the array name, as in tile[ty][tx] or s[tx, ty]", t.pos)
        if t.text in self.names:
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


def parse_access(text: str, names: dict[str, str] = NAMES) -> Access:
    """Parse `name[i][j]` / `name[i, j]`; raises UserError with the column of any mistake. `names`:
    the names it may use (BLOCK_NAMES adds the block's coordinates)."""
    if not isinstance(text, str) or not text.strip():
        raise UserError("the access expression is empty; write it like tile[ty][tx]")
    return _Parser(text, condition=False, names=names).access()


def parse_condition(text: str, names: dict[str, str] = NAMES) -> Node:
    """Parse an --active condition (index arithmetic plus comparisons and && || !)."""
    if not isinstance(text, str) or not text.strip():
        raise UserError("the --active condition is empty; write it like 'tx < 64'")
    return _Parser(text, condition=True, names=names).condition_only()


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
        raise UserError(f"{quote(self.text)}: {what} at column {node.pos + 1} for {self.describe(first)}")

    def _check(self, node: Node, v: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """A signed result must fit an int (overflow is undefined in C); an unsigned one wraps."""
        if node.unsigned:
            return v & UINT_MAX
        bad = mask & ((v > INT_MAX) | (v < -INT_MAX - 1))
        if bad.any():
            self._fail(node, "the value overflows a 32-bit int", bad)
        return v

    def eval(self, node: Node, mask: np.ndarray) -> np.ndarray:
        """Values of `node` for every thread (int64 holding the C value: unsigned ones in 0..2^32-1)."""
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
                return (~v) & UINT_MAX if node.unsigned else ~v
            if node.value == "!":
                return (v == 0).astype(np.int64)
            return v
        op = node.value
        left, right = node.args
        a = self.eval(left, mask)
        if op in ("&&", "||"):  # short-circuit: the right side runs only where it decides
            a_true = a != 0
            b = self.eval(right, mask & (a_true if op == "&&" else ~a_true))
            r = (a_true & (b != 0)) if op == "&&" else (a_true | (b != 0))
            return r.astype(np.int64)
        b = self.eval(right, mask)
        if op in ("<<", ">>"):
            bad = mask & ((b < 0) | (b > 31))
            if bad.any():
                self._fail(node, "shift count outside 0..31", bad)
            s = np.clip(b, 0, 31)
            if op == ">>":
                return a >> s  # unsigned values are never negative: a logical shift
            return self._check(node, a << s, mask)
        if left.unsigned or right.unsigned:  # the usual arithmetic conversions: both to unsigned
            a, b = a & UINT_MAX, b & UINT_MAX
        if op in ("/", "%"):
            zero = mask & (b == 0)
            if zero.any():
                self._fail(node, "division by zero" if op == "/" else "remainder by zero", zero)
            safe = np.where(b == 0, 1, b)
            q = np.abs(a) // np.abs(safe) * np.sign(a) * np.sign(safe)  # C: truncate toward zero
            return self._check(node, q, mask) if op == "/" else a - q * safe
        if op == "+":
            return self._check(node, a + b, mask)
        if op == "-":
            return self._check(node, a - b, mask)
        if op == "*":
            if node.unsigned:  # modulo 2^32; the uint64 product wraps modulo 2^64, a multiple of it
                return ((a.astype(np.uint64) * b.astype(np.uint64)) & np.uint64(UINT_MAX)).astype(np.int64)
            return self._check(node, a * b, mask)  # |a|,|b| <= 2^31: the int64 product is exact
        if op == "^":
            return a ^ b
        if op == "&":
            return a & b
        if op == "|":
            return a | b
        cmp = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
               "==": np.equal, "!=": np.not_equal}[op]
        return cmp(a, b).astype(np.int64)
