"""The benchmark's goals: what smemlab must reach against what users have, judged in the same run.

A goal sits on the row of the implementation it judges (`impl`) and compares it with the rows of
the same case named in `vs`:
- "ceiling": its bandwidth over cudaMemcpy's on the same bytes, at least `want`;
- "throughput": the best (least) back-to-back time of `vs` over its own, at least `want`
  (3.0: three times as fast as the best of them);
- "latency": its one-call-alone latency over the best of `vs`, at most `want` (1.25: at most a
  quarter slower than the baseline; 1.0: no slower).

A goal is judged only against baselines that ran and verified. If one of them failed its check
(or did not run), the goal is "not judged", never "met" on what is left; if the judged row itself
failed, the goal is "missed". Pure Python: the CPU tests check every rule.
"""

from __future__ import annotations

from typing import Any, Iterable

KINDS = ("ceiling", "throughput", "latency")


def goal(impl: str, kind: str, vs: str | Iterable[str], want: float) -> dict[str, Any]:
    """One goal: `impl` against `vs` (one implementation or several: the best of them)."""
    if kind not in KINDS:
        raise ValueError(f"goal kind {kind!r}: one of {', '.join(KINDS)}")
    names = [vs] if isinstance(vs, str) else list(vs)
    return {"impl": impl, "kind": kind, "vs": names, "want": float(want), "got": None, "status": "not judged",
            "why": "not evaluated"}


def attach(rows: list, specs: list[dict[str, Any]]) -> None:
    """Put each goal on the row of its `impl` (a goal whose implementation did not run, e.g. torch
    not installed, is dropped: there is nothing to judge)."""
    for spec in specs:
        for r in rows:
            if r.impl == spec["impl"]:
                r.targets.append(dict(spec, vs=list(spec["vs"])))


def field(row: Any, key: str):
    """A field of a row, whether a Row or its dict (records hold dicts)."""
    return row.get(key) if isinstance(row, dict) else getattr(row, key)


def evaluate(rows: list) -> None:
    """Fill in `got`, `status` ("met", "missed", "not judged") and `why` of every goal, from the
    rows of its case (Row objects or their dicts)."""
    for r in rows:
        for t in field(r, "targets") or []:
            t["got"], t["status"], t["why"] = None, "not judged", ""
            same = [o for o in rows if field(o, "op") == field(r, "op") and field(o, "case") == field(r, "case")]
            named = {n: [o for o in same if field(o, "impl") == n] for n in t["vs"]}
            absent = [n for n, found in named.items() if not found]
            failed = [n for n, found in named.items() if found and not all(field(o, "ok") for o in found)]
            if failed or absent:
                t["why"] = "; ".join(([f"{', '.join(failed)} failed its check"] if failed else [])
                                     + ([f"{', '.join(absent)} did not run"] if absent else []))
                continue
            if not field(r, "ok"):
                t["status"], t["why"] = "missed", "its output failed the check"
                continue
            others = [o for found in named.values() for o in found]
            if t["kind"] == "ceiling":
                mine, base = field(r, "gbps"), max(field(o, "gbps") or 0 for o in others)
                t["got"] = mine / base if mine and base else None
            elif t["kind"] == "throughput":
                t["got"] = min(field(o, "median_ms") for o in others) / field(r, "median_ms")
            else:
                t["got"] = field(r, "latency_us") / min(field(o, "latency_us") for o in others)
            if t["got"] is None:
                t["why"] = "no bandwidth to compare"
                continue
            met = t["got"] <= t["want"] if t["kind"] == "latency" else t["got"] >= t["want"]
            t["status"] = "met" if met else "missed"


def status_of(t: dict[str, Any]) -> str:
    """A goal's status; records written before goals had one kept a `met` flag."""
    if "status" in t:
        return t["status"]
    return "met" if t.get("met") else "missed"


def text(t: dict[str, Any]) -> str:
    """One goal in words: 'latency 1.08x torch's (at most 1.25x): met'."""
    names = [t["vs"]] if isinstance(t["vs"], str) else t["vs"]
    vs = names[0] if len(names) == 1 else "the best of " + ", ".join(names)
    got = "-" if t.get("got") is None else f"{t['got']:.2f}"
    if t.get("kind", "ceiling" if names == ["copy"] else "throughput") == "ceiling":
        what = f"{got} of {vs} (at least {t['want']:.2f})"
    elif t.get("kind", "throughput") == "throughput":
        what = f"{got}x {vs} (at least {t['want']:g}x)"
    else:
        what = f"latency {got}x {vs}'s (at most {t['want']:g}x)"
    status = status_of(t)
    return f"{what}: {status}" + (f" ({t['why']})" if status == "not judged" and t.get("why") else "")


def tally(rows: Iterable) -> dict[str, int]:
    """{"met": n, "missed": n, "not judged": n} over every goal of the rows."""
    out = {"met": 0, "missed": 0, "not judged": 0}
    for r in rows:
        for t in field(r, "targets") or []:
            out[status_of(t)] += 1
    return out


def blocked_by_failure(rows: Iterable) -> list[str]:
    """The goals left "not judged" because a baseline they name failed its check: the benchmark
    exits non-zero on any (a failed baseline is never quietly dropped)."""
    return [f"{field(r, 'op')} {field(r, 'case')} {field(r, 'impl')}: {text(t)}" for r in rows
            for t in field(r, "targets") or [] if t.get("status") == "not judged" and "failed" in (t.get("why") or "")]


LARGE = 1 << 20  # from this many elements on, smemlab must be no slower than the baselines, per call
SMALL_SLACK = 1.25  # below it, where the host path decides: at most this much slower


def per_call(size: int, torch_vs: str | Iterable[str] | None, cupy_vs: str | Iterable[str] | None,
             large: int = LARGE) -> list[dict[str, Any]]:
    """The per-call goals of one size of a sweep: smemlab called on torch tensors against the torch
    baseline(s), and on CuPy arrays against the CuPy one(s), one call at a time: at most 1.25x their
    latency below `large` elements, no slower from it on."""
    want = SMALL_SLACK if size < large else 1.0
    out = []
    if torch_vs:
        out.append(goal("smemlab (torch)", "latency", torch_vs, want))
    if cupy_vs:
        out.append(goal("smemlab (cupy)", "latency", cupy_vs, want))
    return out
