"""The experiments' global-memory predictions: a declared global access priced by the sector rules
(smemlab.banks.sectors over smemlab.banks.coalescing), the runner's per-variant records, their
JSON, and the report's predicted-beside-measured columns with (!) where they disagree."""

import json

import pytest

from smemlab.banks.sectors import analyze_global
from smemlab.counters import (GLOBAL_LD_REQUESTS, GLOBAL_LD_SECTORS, GLOBAL_ST_REQUESTS, GLOBAL_ST_SECTORS,
                              global_mismatch, predicted_global_per_request)
from smemlab.errors import UserError
from smemlab.lab.base import GlobalAccess, Variant
from smemlab.records import ExperimentRecord, GlobalAccessRecord, RunRecord, VariantRecord
from smemlab.render import report
from smemlab.runner import predict_global


def test_coalesced_row_is_four_sectors_a_warp():
    g = analyze_global("in[by * 16 + ty][bx * 32 + tx]", (64, 64), "float", (32, 16), block_index=(1, 2))
    assert (g.requests, g.sectors, g.ideal_sectors, g.sectors_per_request) == (16, 64, 64, 4.0)


def test_strided_lanes_touch_a_sector_each():
    g = analyze_global("x[tx * 2]", (64,), "float", (32,))
    assert (g.sectors, g.ideal_sectors) == (8, 4)  # 256 bytes spanned, 128 read
    g = analyze_global("x[tx * 8]", (256,), "float", (32,))
    assert (g.sectors, g.ideal_sectors) == (32, 4)


def test_transposed_column_store_is_32_sectors_a_request():
    """The naive transpose's store: lanes walk down a column of a 4096-wide matrix."""
    g = analyze_global("out[bx * 32 + tx][by * 16 + ty]", (4096, 4096), "float", (32, 16), op="store", block_index=(3, 5))
    assert g.op == "store" and g.sectors_per_request == 32.0 and g.ideal_sectors == 16 * 4


def test_float4_is_sixteen_sectors_and_no_excess():
    g = analyze_global("v[bx * 32 + tx]", (64,), "float4", (32,), block_index=(1,))
    assert (g.requests, g.sectors, g.ideal_sectors) == (1, 16, 16)


def test_partial_warp_and_idle_warps():
    g = analyze_global("x[tx]", (128,), "int", (128,), active="tx < 40")
    assert g.requests == 2  # warps 2 and 3 make no request
    assert g.per_warp[:2] == [(4, 4), (1, 1)] and g.per_warp[2:] == [(0, 0), (0, 0)]
    g = analyze_global("x[tx + 4]", (64,), "float", (32,))  # a halo read 16 bytes off a sector
    assert (g.sectors, g.ideal_sectors) == (5, 4)


def test_block_names_only_in_global_subscripts():
    from smemlab.banks import analyze

    with pytest.raises(UserError, match="unknown name 'bx'"):
        analyze("tile[bx]", (32,), "float", (32,))
    with pytest.raises(UserError, match="outside 0..63"):
        analyze_global("x[blockIdx.x * 32 + tx]", (64,), "float", (32,), block_index=(2,))


def test_runner_weighs_each_access_by_its_repetitions():
    v = Variant("k", "", "k", (32, 1, 1), gmem=(
        GlobalAccess("row", "x[tx]", (32,), "float", per_warp=3),
        GlobalAccess("broadcast", "x[0]", (32,), "float"),
        GlobalAccess("store", "y[tx * 32]", (1024,), "float", "store")))
    recs = predict_global(v)
    assert [(r.op, r.predicted_requests, r.predicted_sectors, r.ideal_sectors) for r in recs] == [
        ("load", 3, 12, 12), ("load", 1, 1, 1), ("store", 1, 32, 4)]
    rec = VariantRecord("k", "", True, global_accesses=recs)
    assert predicted_global_per_request(rec, "load") == 13 / 4
    assert predicted_global_per_request(rec, "store") == 32.0


def _variant(name, ld, st, counters, incomplete=None):
    recs = [GlobalAccessRecord("ld", "x[tx]", "load", 1, ld, 4), GlobalAccessRecord("st", "y[tx]", "store", 1, st, 4)]
    return VariantRecord(name, "", True, median_ms=1.0, min_ms=1.0, max_ms=1.0, global_accesses=recs,
                         global_incomplete=incomplete, counters=counters)


def _counters(ld, st):
    return {GLOBAL_LD_SECTORS: 100.0 * ld, GLOBAL_LD_REQUESTS: 100.0, GLOBAL_ST_SECTORS: 100.0 * st,
            GLOBAL_ST_REQUESTS: 100.0}


def _run():
    agree = _variant("agree", 4, 32, _counters(4, 32))
    differ = _variant("differ", 4, 4, _counters(4, 32))
    partial = _variant("partial", 4, 4, _counters(5, 32), incomplete="the index loads are not declared")
    old = VariantRecord("old", "", True, median_ms=1.0, min_ms=1.0, max_ms=1.0, counters=_counters(4, 4))
    exp = ExperimentRecord("transpose", "t", "seed", [64, 64], [], [agree, differ, partial, old])
    return RunRecord(provenance={}, copy_gbps=None, experiments=[exp])


def test_render_shows_prediction_beside_measurement_with_the_mark():
    run = _run()
    header, table, flags = report.rows(run.experiments[0])
    cols = [header.index(h) for h in ("gld sectors/req pred", "gld sectors/req", "gst sectors/req pred", "gst sectors/req")]
    assert cols == sorted(cols) and cols[1] == cols[0] + 1 and cols[3] == cols[2] + 1
    cells = {row[0]: [row[c] for c in cols] for row in table}
    marks = {row[0]: [f[c] for c in cols] for row, f in zip(table, flags)}
    assert cells["agree"] == ["4", "4", "32", "32"] and not any(marks["agree"])
    assert cells["differ"] == ["4", "4", "4", "32"] and marks["differ"] == [False, False, False, True]
    assert cells["partial"] == ["-", "5", "-", "32"] and not any(marks["partial"])  # incomplete: no prediction
    assert cells["old"] == ["-", "4", "-", "4"] and not any(marks["old"])  # no declaration: no prediction
    md = report.markdown(run)
    assert "| differ | yes |" in md and "**32 (!)**" in md and "gld/gst sectors/req pred" in md
    assert "gld_pred" in report.to_csv(run).splitlines()[0]


def test_no_request_predicted_where_one_was_measured_is_a_mismatch():
    v = VariantRecord("v", "", True, global_accesses=[GlobalAccessRecord("ld", "x[tx]", "load", 1, 4, 4)],
                      counters=_counters(4, 1))
    assert not global_mismatch(v, "load") and global_mismatch(v, "store")


def test_global_predictions_round_trip_and_old_records_load(tmp_path):
    run = _run()
    run.save(tmp_path / "run.json")
    again = RunRecord.load(tmp_path / "run.json")
    assert again == run
    data = json.loads((tmp_path / "run.json").read_text())
    v = data["experiments"][0]["variants"][0]
    assert v["global_accesses"][1] == {"label": "st", "expr": "y[tx]", "op": "store", "predicted_requests": 1,
                                       "predicted_sectors": 32, "ideal_sectors": 4}
    for variant in data["experiments"][0]["variants"]:  # a record from before the fields
        variant.pop("global_accesses"), variant.pop("global_incomplete")
    old = RunRecord.from_dict(data)
    assert all(v.global_accesses == [] and predicted_global_per_request(v, "load") is None
               for v in old.experiments[0].variants)
    assert "gld sectors/req pred" not in report.rows(old.experiments[0])[0]


RECORDED = __import__("pathlib").Path(__file__).resolve().parents[1] / "results" / "run.json"


@pytest.mark.skipif(not RECORDED.exists(), reason="no recorded GPU run in results/ yet")
def test_declarations_predict_the_recorded_global_sectors():
    """Each experiment's declared global accesses, priced now, give the sectors per request Nsight
    Compute counted in the recorded run (results/run.json), loads and stores, for every variant that
    declares them; the transposes, copies, reductions, stencils, tiled matmuls and layouts do."""
    from smemlab.counters import measured_global_per_request
    from smemlab.lab import get

    run, checked, wrong = RunRecord.load(RECORDED), set(), []
    for er in run.experiments:
        if er.name not in ("transpose", "reduce", "stencil", "matmul", "layout"):
            continue
        declared = {v.name: v for v in get(er.name).variants() if v.gmem}
        for rec in er.variants:
            if rec.variant not in declared or not rec.counters:
                continue
            rec.global_accesses = predict_global(declared[rec.variant])
            checked.add(f"{er.name}/{rec.variant}")
            for op in ("load", "store"):
                if global_mismatch(rec, op):
                    wrong.append((er.name, rec.variant, op, predicted_global_per_request(rec, op),
                                  measured_global_per_request(rec, op)))
    assert {"transpose/naiveGmem", "reduce/reduceGmem", "stencil/stancliGlobal", "matmul/MatMulKernel32"} <= checked
    assert not wrong
