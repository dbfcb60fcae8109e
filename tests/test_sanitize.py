"""Attributing compute-sanitizer findings to kernels (no GPU needed)."""

from smemlab.sanitize import findings_by_kernel

OUTPUT = """========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at reduceSmemVolatile+0x2a0 in reduce.cu:88
=========     and Read access at reduceSmemVolatile+0x290 in reduce.cu:88 [4 hazards]
=========
========= Invalid __global__ write of size 4 bytes
=========     at transposeSmem+0x1f0 in transpose.cu:40
=========     by thread (3,0,0) in block (0,0,0)
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""


def test_findings_are_attributed_to_the_kernel_they_name():
    found = findings_by_kernel(OUTPUT, ["reduceSmem", "reduceSmemVolatile", "transposeSmem", "copyGmem"])
    assert set(found) == {"reduceSmemVolatile", "transposeSmem"}  # the longest name wins over its prefix
    assert found["reduceSmemVolatile"][0].startswith("Error: Race reported")
    assert found["transposeSmem"] == ["Invalid __global__ write of size 4 bytes"]


def test_a_clean_run_has_no_findings():
    assert findings_by_kernel("========= ERROR SUMMARY: 0 errors\n", ["k"]) == {}
