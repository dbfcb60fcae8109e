"""One truth for the experiments: every shared access an experiment declares by hand (Variant.smem,
predicted by runner.predict_accesses for the bank check) must be what `smemlab analyze` measures on
the same kernel and launch. No GPU.

Declarations have no source lines, so they are compared per operation: the declared requests,
wavefronts and ideal wavefronts of all loads (and of all stores) of one block equal analyze's, and
so do the costs per request, as multisets (each declared access against the analysed instructions
executing it, grouped by wavefronts per request).
"""

from __future__ import annotations

from collections import Counter

import pytest

from smemlab.lab.base import Variant
from smemlab.lab.launches import all_launches
from smemlab.runner import predict_accesses

DECLARED = [x for x in all_launches() if x.smem]


def _declared(launch):
    recs = predict_accesses(Variant(launch.variant, "", launch.kernel, launch.block, launch.smem))
    out = {}
    for op in ("load", "store"):
        mine = [a for a in recs if a.op == op]
        per_request = Counter()
        for a in mine:
            per_request[round(a.predicted_wavefronts_per_request, 6)] += a.predicted_requests
        out[op] = (sum(a.predicted_requests for a in mine), sum(a.predicted_wavefronts for a in mine), per_request)
    return out


def _measured(report):
    out = {}
    for op in ("load", "store"):
        sites = [s for s in report.sites if s.kind == op and s.requests]
        per_request = Counter()
        for s in sites:
            per_request[round(s.wavefronts / s.requests, 6)] += s.requests
        t = report.totals(op)
        out[op] = (t["requests"], t["wavefronts"], per_request)
    return out


def test_some_experiments_declare_accesses():
    assert {x.experiment for x in DECLARED} >= {"layout", "transpose", "reduce", "shuffle", "stencil", "matmul"}


@pytest.mark.parametrize("launch", DECLARED, ids=lambda x: f"{x.experiment}:{x.variant}")
def test_declaration_matches_analyze(launch):
    declared, measured = _declared(launch), _measured(launch.analyze())
    for op in ("load", "store"):
        d_req, d_wf, d_per = declared[op]
        m_req, m_wf, m_per = measured[op]
        assert (d_req, d_wf) == (m_req, m_wf), (
            f"{launch.experiment}:{launch.variant} {op}s: declared {d_req} requests, {d_wf} wavefronts; analyze "
            f"measures {m_req} requests, {m_wf} wavefronts")
        if len(d_per) <= 1 and len(m_per) <= 1:
            continue
        # several declared accesses may run as one PTX instruction (a loop): compare the spread of costs
        assert d_per == m_per, f"{launch.experiment}:{launch.variant} {op}s per request: {d_per} vs {m_per}"
