"""ldmatrix executions whose fragments are never read, which ptxas removes and Nsight Compute never sees.

A tensor-core pipeline loads the next step's fragments while it multiplies this step's; its last trip
loads fragments no one reads, and ptxas, having peeled that trip off the loop, drops those LDSM. Each
execution of an ldmatrix is held back here until its lanes' destination registers are read (it
counts) or all overwritten, or the kernel ends, unread (it does not): per warp, a warp whose lanes
read none of them issued nothing. Only ldmatrix is followed (ptxas removes what is dead after its
own loop transformations; plain loads are matched to the SASS line by line instead, sass.py).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from smemlab.analyze.machine import WARP


class DeadLoads:
    def __init__(self, ledger, warps: int):
        self.ledger, self.W = ledger, warps
        self.watched: set[int] = set()  # register indices some ldmatrix writes
        self._by_reg: dict[int, list[dict]] = defaultdict(list)

    def load(self, site, offsets: np.ndarray, em: np.ndarray, lanes: np.ndarray, regs: list[int]) -> None:
        """An ldmatrix executed by `lanes` (`em`: those that gave row addresses, what it costs), its
        fragments now in registers `regs`."""
        rec = {"site": site, "off": offsets.copy(), "em": em.copy(), "read": np.zeros_like(lanes),
               "alive": {r: lanes.copy() for r in regs}, "regs": regs}  # per register: lanes still holding it
        for r in regs:
            self._by_reg[r].append(rec)

    def read(self, r: int, m: np.ndarray) -> None:
        for rec in self._by_reg.get(r, ()):
            rec["read"] |= m & rec["alive"][r]

    def write(self, r: int, m: np.ndarray) -> None:
        for rec in list(self._by_reg.get(r, ())):
            rec["alive"][r] &= ~m
            if not any(a.any() for a in rec["alive"].values()):
                self._resolve(rec)

    def _resolve(self, rec: dict) -> None:
        for r in rec["regs"]:  # by identity: the records hold arrays, which == does not compare as a whole
            self._by_reg[r] = [x for x in self._by_reg.get(r, ()) if x is not rec]
        live = np.repeat(rec["read"].reshape(self.W, WARP).any(axis=1), WARP) & rec["em"]
        if live.any():
            self.ledger.record(rec["site"], rec["off"], live, int(live.reshape(self.W, WARP).any(axis=1).sum()))

    def finish(self) -> None:
        pending = {id(rec): rec for lst in self._by_reg.values() for rec in lst}
        for rec in pending.values():
            self._resolve(rec)
