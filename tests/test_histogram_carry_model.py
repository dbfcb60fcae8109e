"""The narrow counters' carry scheme of ops/histogram/histogram.cu (ctr_wrapped, ctr_add, CtrAdder), as a
model: one shared 32-bit word of 8- or 16-bit digits, several threads, every atomic a point where another
thread may run, take-backs held back as long as possible so that several threads' carries are in flight at
once. The CPU emulation in test_ops_histogram.py runs the kernels themselves but in one order; this runs the
same steps in adversarial orders. The final digits plus the moves must be the exact counts, and with 16-bit
counters no negative move may land on an even bin (the 64-bit merge of two bins relies on it)."""

from __future__ import annotations

import random

import pytest

MASK = 0xFFFFFFFF


class Word:
    """One word of counters in shared memory, and the output the moves go to (exact integers)."""

    def __init__(self, bits: int, init: int, nloc: int):
        self.bits, self.digits, self.top, self.m = bits, 32 // bits, (1 << bits) - 1, 1 << bits
        self.init, self.nloc = init, nloc
        self.word = sum(init << (bits * d) for d in range(self.digits))
        self.out = [0] * self.digits
        self.negative_even = False

    def digit(self, w: int, d: int) -> int:
        return (w >> (self.bits * d)) & self.top

    def atomic(self, v: int) -> int:  # atomicAdd(word, v): the old word
        old, self.word = self.word, (self.word + v) & MASK
        return old

    def move(self, l: int, v: int) -> None:  # ctr_move: bins past nloc are dropped
        if l < self.nloc:
            v = v - (1 << 32) if v & 0x80000000 else v
            self.out[l] += v
            self.negative_even |= v < 0 and l % 2 == 0


def ctr_wrapped(w: Word, l: int, old: int):
    """The kernel's ctr_wrapped, yielding before each atomic on the word."""
    d, m = l % w.digits, w.m
    base = l - d
    if w.digits == 2:
        w.move(l, m)
        if d == 1:
            return
        if w.digit(old, 1) == w.top:
            w.move(base + 1, m)
        yield "take back"
        if w.digit(w.atomic((0 - m) & MASK), 1) == 0:
            w.move(base + 1, (0 - m) & MASK)
        return
    owed = [0] * (w.digits + 1)

    def wrapped_from(k: int, o: int, up: bool) -> None:
        for i in range(k, w.digits):
            w.move(base + i, m if up else (0 - m) & MASK)
            owed[i + 1] += -1 if up else 1
            if i + 1 == w.digits or w.digit(o, i + 1) != (w.top if up else 0):
                break

    wrapped_from(d, old, True)
    for k in range(1, w.digits):
        while owed[k]:
            up = owed[k] > 0
            owed[k] += -1 if up else 1
            yield "take back"
            o = w.atomic((1 << (w.bits * k)) if up else (0 - (1 << (w.bits * k))) & MASK)
            if w.digit(o, k) == (w.top if up else 0):
                wrapped_from(k, o, up)


def ctr_add(w: Word, adds):
    """ctr_add: adds of c (1 to 32), each wrap handled at once. Yields "add" before an add."""
    for l, c in adds:
        yield "add"
        old = w.atomic(c << (w.bits * (l % w.digits)))
        if w.digit(old, l % w.digits) + c > w.top:
            yield from ctr_wrapped(w, l, old)


def ctr_adder(w: Word, adds, batch: int = 8):
    """CtrAdder: a batch of +1 adds back to back, old words kept, the wraps handled after the batch."""
    for s in range(0, len(adds), batch):
        olds = []
        for l, _ in adds[s:s + batch]:
            yield "add"
            olds.append(w.atomic(1 << (w.bits * (l % w.digits))))
        for (l, _), o in zip(adds[s:s + batch], olds):
            bits = (w.top << (w.bits * (l % w.digits))) & MASK
            if o & bits == bits:
                yield from ctr_wrapped(w, l, o)


def run(seed: int):
    rnd = random.Random(seed)
    bits = rnd.choice([8, 8, 16])
    digits, top = 32 // bits, (1 << bits) - 1
    nloc = rnd.randint(1, digits)
    w = Word(bits, rnd.choice([top, top, top - 1, top - 3, 0, 1, rnd.randrange(top + 1)]), nloc)
    adder = rnd.random() < 0.5
    hot = rnd.randrange(nloc) if rnd.random() < 0.5 else None
    maxc = 1 if adder else rnd.choice([1, 1, 32])
    counts, threads = [0] * digits, []
    for _ in range(rnd.randint(2, 6)):
        adds = [(hot if hot is not None and rnd.random() < 0.9 else rnd.randrange(nloc), rnd.randint(1, maxc))
                for _ in range(rnd.randint(5, 600 if bits == 8 else 40))]
        for l, c in adds:
            counts[l] += c
        threads.append(ctr_adder(w, adds) if adder else ctr_add(w, adds))
    step = {t: next(t, "done") for t in threads}  # each thread's next atomic: "add" or "take back"
    while any(s != "done" for s in step.values()):
        adds = [t for t in step if step[t] == "add"]
        t = rnd.choice(adds if adds and rnd.random() < 0.97 else [t for t in step if step[t] != "done"])  # take-backs held back
        step[t] = next(t, "done")
    got = [w.out[b] + w.digit(w.word, b) - w.init for b in range(nloc)]
    return bits, w, got, counts[:nloc]


@pytest.mark.parametrize("chunk", range(4))
def test_counts_exact_in_adversarial_orders(chunk):
    for seed in range(chunk * 300, chunk * 300 + 300):
        bits, w, got, want = run(seed)
        assert got == want, f"seed {seed}, {bits}-bit: {got} != {want}"
        if bits == 16 and w.init == 0:
            assert not w.negative_even, f"seed {seed}: a negative move on an even bin"


def test_the_model_catches_a_missing_take_back(monkeypatch):
    """The model has teeth: without the take-back of a carry that did not wrap, counts go wrong."""
    def no_owed(w, l, old):
        w.move(l, w.m)
        yield from ()

    monkeypatch.setitem(globals(), "ctr_wrapped", no_owed)
    results = [run(seed) for seed in range(200)]
    assert any(got != want for _, _, got, want in results)
