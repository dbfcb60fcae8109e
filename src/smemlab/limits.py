"""Which limit binds each variant's time, from what the record already holds.

Three limits, each as the share of the variant's measured time that it alone would take:
- DRAM: the bytes Nsight Compute saw cross DRAM (read + written) at the run's ceiling, which is
  cudaMemcpyAsync device to device measured by the run's benchmark (DESIGN.md: the ceiling is
  cudaMemcpy, not a kernel of ours), or the runner's copy where the record has no benchmark
  (cudaMemcpyAsync too; the package's copy kernel in a record from before);
- shared memory: the shared wavefronts (loads and stores; atomics are not among the counters) at
  one wavefront per SM per cycle, the rate of the 32 banks of 4 bytes, so SMs x clock a second;
- launch: the launch floor, an empty launch (one warp, no work) timed in the same run as the
  variants are (launches back to back: the rate at which they reach the GPU); in a record from
  before it was measured, the shortest kernel timed and profiled in the run.
The largest binds where it takes at least half of the time; below that none of the three does
(latency, atomics, stores that stay in L2 and instruction issue are not among them). A share is
computed from the record's figures only; where one is missing (no counters, no clock) it is left
out and the ceilings say why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smemlab import datasheet
from smemlab.counters import dram_bytes, shared_wavefronts

if TYPE_CHECKING:  # pragma: no cover
    from smemlab.records import RunRecord, VariantRecord

BINDS = 0.5  # the share of the time from which a limit is said to bind
NOT_MEASURED = "not measured"
SHARE_OF = {"DRAM": "dram_share", "shared memory": "smem_share", "launch": "launch_share"}


def ceilings(run: "RunRecord") -> dict[str, Any]:
    """What the run's variants are set against, each with where it comes from (`*_source`)."""
    gpu = run.provenance.get("gpu", {})
    out: dict[str, Any] = {"sms": gpu.get("sms")}
    out.update(_dram_ceiling(run))
    out.update(_launch_floor(run))
    out.update(_clock(gpu))
    return out


def _dram_ceiling(run: "RunRecord") -> dict[str, Any]:
    memcpy = [r for r in run.bench if r.impl == "cudaMemcpy" and r.ok and r.gbps]
    if memcpy:
        # the largest copy: the small ones fit in L2 and would set the ceiling at L2's bandwidth
        largest = max(memcpy, key=lambda r: (r.bytes or 0, r.gbps))
        return {"dram_gbps": largest.gbps,
                "dram_source": f"cudaMemcpyAsync device to device in smemlab bench, {(largest.bytes or 0) / 1e9:.2f} "
                               f"GB read + written ({largest.op} {largest.case}), the largest copy it timed"}
    if run.copy_gbps:
        if run.copy_by == "cudaMemcpy":
            return {"dram_gbps": run.copy_gbps,
                    "dram_source": "cudaMemcpyAsync device to device, timed by the runner of this run (no benchmark in "
                                   "the record)"}
        return {"dram_gbps": run.copy_gbps, "dram_source": "the copy kernel of this run (no cudaMemcpyAsync in the record)"}
    return {"dram_gbps": None, "dram_source": NOT_MEASURED}


def _launch_floor(run: "RunRecord") -> dict[str, Any]:
    if run.launch_floor_ms:
        return {"launch_floor_ms": run.launch_floor_ms,
                "launch_floor_source": "an empty launch (one warp of the copy kernel over no elements), timed as "
                                       "the variants are in this run"}
    timed = [(v.median_ms, e.name, v) for e in run.experiments for v in e.variants if v.ok and v.counters and v.median_ms]
    if not timed:
        return {"launch_floor_ms": None, "launch_floor_source": "no kernel was both timed and profiled in this run"}
    ms, exp, v = min(timed, key=lambda t: t[0])
    return {"launch_floor_ms": ms,
            "launch_floor_source": f"{exp}/{v.variant}, {v.launch_shape}: the shortest kernel timed and profiled in this run"}


def _clock(gpu: dict[str, Any]) -> dict[str, Any]:
    if gpu.get("sm_clock_mhz"):
        return {"sm_clock_mhz": gpu["sm_clock_mhz"], "sm_clock_source": "recorded (the device's clock-rate attribute)"}
    found = datasheet.lookup(gpu.get("name", ""), "boost_mhz")
    if found:
        part, mhz = found
        return {"sm_clock_mhz": mhz,
                "sm_clock_source": f"not recorded in this run: the {part}'s datasheet boost clock"}
    return {"sm_clock_mhz": None, "sm_clock_source": "not recorded in this run, and no datasheet clock for this GPU"}


def shares(v: "VariantRecord", ceil: dict[str, Any]) -> dict[str, Any]:
    """The variant's shares of its time and the limit that binds; {} where it has no time."""
    t = v.median_ms
    if not t or not v.ok:
        return {}
    if not v.counters:
        return {"binding": NOT_MEASURED}
    out: dict[str, Any] = {}
    dram = dram_bytes(v.counters)
    if dram is not None and ceil.get("dram_gbps"):
        out["dram_ms"] = dram / (ceil["dram_gbps"] * 1e9) * 1e3
        out["dram_share"] = out["dram_ms"] / t
    wavefronts = shared_wavefronts(v.counters)
    if wavefronts is not None and ceil.get("sms") and ceil.get("sm_clock_mhz"):
        out["smem_ms"] = wavefronts / (ceil["sms"] * ceil["sm_clock_mhz"] * 1e6) * 1e3
        out["smem_share"] = out["smem_ms"] / t
    if ceil.get("launch_floor_ms"):
        out["launch_floor_ms"] = ceil["launch_floor_ms"]
        out["launch_share"] = ceil["launch_floor_ms"] / t
    named = {limit: out[key] for limit, key in SHARE_OF.items() if key in out}
    if not named:
        out["binding"] = NOT_MEASURED
        return out
    largest = max(named, key=lambda limit: named[limit])
    out["largest"] = largest
    out["binding"] = largest if named[largest] >= BINDS else "none"
    return out


def _us(ms: float) -> str:
    return f"{ms * 1e3:.1f} us"


def _grid(v: "VariantRecord") -> str:
    """The grid part of a launch shape ("grid (4096, 1, 1)"): the bank model's predictions are per block."""
    return v.launch_shape.split(" block")[0]


def predicted_wavefronts(v: "VariantRecord") -> int:
    """Shared wavefronts the bank model predicts for one block of the variant (loads and stores)."""
    return sum(a.predicted_wavefronts for a in v.accesses)


def time_against_wavefronts(label: str, fast: "VariantRecord", slow: "VariantRecord") -> str | None:
    """A note setting the time ratio of two variants beside their shared-wavefront ratio (the bank
    model's and Nsight Compute's), and saying from the variants' limits why the two differ; None
    where either variant has no time."""
    ta, tb = fast.median_ms, slow.median_ms
    if not (fast.ok and slow.ok and ta and tb):
        return None
    line = f"{label}: {slow.variant} takes {tb / ta:.2f}x the time of {fast.variant}"
    pa, pb = predicted_wavefronts(fast), predicted_wavefronts(slow)
    predicted = pb / pa if pa and pb and _grid(fast) == _grid(slow) else None
    ma, mb = shared_wavefronts(fast.counters), shared_wavefronts(slow.counters)
    measured = mb / ma if ma and mb else None
    if predicted is None and measured is None:
        return line
    said = []
    if predicted is not None:
        said.append(f"the bank model predicts {predicted:.3g}x the shared wavefronts")
    if measured is not None:
        said.append(f"Nsight Compute counts {measured:.3g}x at this size")
    line += "; " + ", ".join(said)
    wave = measured if measured is not None else predicted
    if abs(wave - 1) < 0.1:
        return line + ": the same shared-memory work, so the difference in time is not a shared-memory cost"
    if abs((tb / ta) / wave - 1) < 0.25:
        return line + ": the time follows the wavefronts"
    sa, sb = fast.limits.get("smem_ms"), slow.limits.get("smem_ms")
    if sa is None or sb is None:
        return line + ("; how much of each time the wavefronts take is not known (no counters, or no SM count or "
                       "clock in the record)")
    parts = []
    if fast.limits.get("launch_floor_ms"):
        parts.append(f"the launch floor is {_us(fast.limits['launch_floor_ms'])}")
    if fast.limits.get("dram_ms") is not None:
        parts.append(f"its DRAM traffic at the ceiling {_us(fast.limits['dram_ms'])}")
    parts.append(f"its wavefronts at one per SM per cycle {_us(sa)}")
    line += (f". Of {fast.variant}'s {_us(ta)}, " + ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "")
             + parts[-1] + f"; {slow.variant}'s wavefronts take {_us(sb)} of its {_us(tb)}. ")
    if tb / ta >= wave:
        return line + "The time grows more than the wavefronts: something besides shared memory grows too"
    # What the fast variant spends beyond its wavefronts (the launch, latency, barriers, global memory),
    # paid by the slow one too: added to the slow one's wavefronts, the time ratio it leaves
    other = max(ta - sa, 0.0)
    additive = (other + sb) / ta
    said = (f"With the {_us(other)} of {fast.variant}'s time that is not its wavefronts paid by both, the "
            f"wavefronts give {additive:.2f}x")
    if abs((tb / ta) / additive - 1) < 0.1:
        return line + said + ": that time, which both pay, hides most of the wavefront ratio"
    if tb / ta < additive:
        return line + (said + f", more than measured: {fast.variant} is not bound by shared memory, and some of "
                       f"{slow.variant}'s extra wavefronts overlap the time it spends waiting")
    return line + said + ", less than measured: something besides shared memory grows too"
