"""The one datasheet: NVIDIA's published figures by the device name's marketing part. Leads, not
measurements: the device facts' "% of peak" (smemlab.device) and the SM clock of a record that did not
record one (smemlab.limits, which says so where it uses it).

A device is matched to the first part its name contains that lists the figure asked for: more specific
parts first, and a part without a figure (None) leaves it to a broader one below (an H200 NVL's peaks are
the H200's here; every A100's clock is the A100's).
"""

from __future__ import annotations

from typing import NamedTuple


class Part(NamedTuple):
    hbm_gbps: float | None  # decimal GB/s of HBM
    fp32_tflops: float | None
    boost_mhz: float | None  # the SM boost clock


DATASHEET = {
    "H200 NVL": Part(None, None, 1785.0),
    "H200": Part(4800.0, 67.0, 1980.0),
    "H100 NVL": Part(3900.0, 60.0, 1785.0),
    "H100 PCIe": Part(2000.0, 51.0, 1755.0),
    "H100 80GB HBM3": Part(3350.0, 67.0, 1980.0),
    "H100 SXM": Part(3350.0, 67.0, 1980.0),
    "A100-SXM4-80GB": Part(2039.0, 19.5, None),
    "A100-SXM4-40GB": Part(1555.0, 19.5, None),
    "A100": Part(None, None, 1410.0),
}


def lookup(name: str, figure: str) -> tuple[str, float] | None:
    """(the part, its figure) for the device `name`: `figure` is a field of Part; None where no part lists it."""
    for part, figures in DATASHEET.items():
        value = getattr(figures, figure)
        if part in name and value is not None:
            return part, value
    return None


def peaks(name: str) -> tuple[float | None, float | None]:
    """(GB/s of HBM, FP32 TFLOP/s) for the device `name`, or None for what no part lists."""
    gbps, tflops = lookup(name, "hbm_gbps"), lookup(name, "fp32_tflops")
    return (gbps[1] if gbps else None), (tflops[1] if tflops else None)
