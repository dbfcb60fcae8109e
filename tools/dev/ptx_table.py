"""Write docs/ptx-support.md: the PTX instructions smemlab analyze emulates (smemlab.analyze.ptx_support).

    python tools/dev/ptx_table.py
"""

from pathlib import Path

from smemlab.analyze.ptx_support import markdown

DEST = Path(__file__).resolve().parents[2] / "docs" / "ptx-support.md"

if __name__ == "__main__":
    DEST.write_text(markdown())
    print(f"wrote {DEST}")
