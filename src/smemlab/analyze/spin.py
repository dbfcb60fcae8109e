"""A loop that can make no progress, found in seconds instead of at the step limit.

The emulator is deterministic: what the block does next follows from its registers, its
reconvergence stack, the barriers' arrivals (mbarriers' included) and memory. A backward branch
reached again with all of that unchanged has entered a cycle that never ends: a spin on a flag that
no emulated thread will change (set by another block, or by the host, neither of which analyze
runs). Checking costs little: each backward branch counts its visits and only every CHECK_EVERY-th
one is looked at; the registers and the stack are hashed then, and memory only when that hash is
the one seen at the previous look (a loop that counts changes a register at every turn and never
gets that far). A cycle longer than one turn, or a loop that reads %clock, is not recognised: the
wall-clock limit stops those.

A spin is a hang only if nothing else can run: warps of one block progress independently on the GPU,
but the emulator runs the paths of a divergent branch one after the other, so a warp spinning on a
flag that a warp on the other path sets would spin here forever. The executor lets that other path
run instead, and reports the spin when no other path can run, or when the same state spins again.
"""

from __future__ import annotations

import hashlib

CHECK_EVERY = 64


class SpinWatch:
    def __init__(self, mach):
        self.mach = mach
        self.visits: dict[int, int] = {}
        self.seen: dict[int, tuple[bytes, bytes | None]] = {}  # pc -> (registers and stack, memory) at the last look

    def _threads(self, stack, arrived, warp_arrived) -> bytes:
        h = hashlib.blake2b(digest_size=16)
        for r in self.mach.R:
            h.update(r.tobytes())
        h.update(self.mach.carry.tobytes())
        for e in stack:
            h.update(repr((e.pc, e.rpc, e.waiting, e.holder)).encode())
            h.update(e.mask.tobytes())
        for key, a in sorted(arrived.items()):
            h.update(repr(key).encode() + a.tobytes())
        for key, (a, masks) in sorted(warp_arrived.items(), key=repr):
            h.update(repr(key).encode() + a.tobytes() + masks.tobytes())
        for key, bar in sorted(getattr(self.mach, "mbarriers", {}).items()):  # their phases live outside memory
            h.update(repr((key, bar.phase, bar.expected, bar.pending, bar.tx)).encode())
        return h.digest()

    def _memory(self) -> bytes:
        h = hashlib.blake2b(digest_size=16)
        for space in (self.mach.shared, self.mach.global_, self.mach.local):
            h.update(space.bytes.data)
        return h.digest()

    def stuck(self, pc: int, stack, arrived, warp_arrived) -> bytes | None:
        """At backward branch `pc`: the block's state when it is where it was at the last look, else None."""
        n = self.visits.get(pc, 0) + 1
        self.visits[pc] = n
        if n % CHECK_EVERY:
            return None
        threads = self._threads(stack, arrived, warp_arrived)
        last = self.seen.get(pc)
        if last is None or last[0] != threads:
            self.seen[pc] = (threads, None)
            return None
        memory = self._memory()
        if last[1] == memory:
            return threads + memory
        self.seen[pc] = (threads, memory)
        return None
