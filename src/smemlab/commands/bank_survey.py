"""The bank model over every shared-memory access the experiments declare (no GPU needed).

Two views, both plain text that reads at 80 columns (expressions escaped for rich's markup):
- `conflict_summary`: the accesses that cost more than the ideal, grouped where they are the same
  access, each with the fix (padding or a swizzle, from smemlab.banks.advisor) and the ready
  `smemlab bank ... --suggest` command that shows it. `smemlab suite` prints it with no GPU.
- `access_listing`: every access, per experiment and variant (`smemlab list --accesses`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass


@dataclass(frozen=True)
class AccessRow:
    experiment: str
    variant: str
    label: str  # which access of the kernel, as the experiment names it ("load tile[icol][irow]")
    expr: str
    shape: tuple[int, ...]
    dtype: str
    block: tuple[int, int, int]
    op: str
    active: str | None
    per_request: float  # predicted wavefronts per request
    ideal: float  # per request

    @property
    def conflicted(self) -> bool:
        return self.per_request > self.ideal

    def bank_args(self) -> list[str]:
        """The `smemlab bank` arguments that reproduce this access."""
        block = list(self.block)
        while len(block) > 1 and block[-1] == 1:
            block.pop()
        args = [self.expr, "--shape", ",".join(map(str, self.shape)), "--dtype", self.dtype,
                "--block", ",".join(map(str, block))]
        if self.op != "load":
            args += ["--op", self.op]
        if self.active is not None:
            args += ["--active", self.active]
        return args

    def command(self, *extra: str) -> str:
        return "smemlab bank " + " ".join(shlex.quote(a) for a in [*self.bank_args(), *extra])


def declared_accesses(experiments) -> list[AccessRow]:
    """The bank model's prediction for every access every variant declares."""
    from smemlab.banks import analyze

    rows = []
    for exp in experiments:
        for v in exp.variants():
            for acc in v.smem:
                a = analyze(acc.expr, acc.shape, acc.dtype, v.block, op=acc.op, active=acc.active)
                rows.append(AccessRow(exp.name, v.name, acc.label, acc.expr, tuple(acc.shape), acc.dtype,
                                      tuple(v.block), a.op, acc.active, a.wavefronts_per_request,
                                      a.ideal_wavefronts / max(a.requests, 1)))
    return rows


def _plural(n: float, word: str) -> str:
    return f"{n:g} {word}" + ("" if n == 1 else "s")


def fix_text(row: AccessRow) -> list[str]:
    """The padding and the swizzle that remove the conflict, as one or two short lines."""
    from smemlab.banks import suggest

    s = suggest(*row.bank_args()[:1], row.shape, row.dtype, row.block, op=row.op, active=row.active)
    decl = s["pad_declaration"].removeprefix("__shared__ ").removesuffix(";")
    if s["pad_expr"] != row.expr:  # a 1-D array: the row stride in the expression
        pad = f"row stride {s['pad_row_stride']}: {s['pad_expr']} in {decl}"
    else:
        pad = f"pad the rows to {s['pad_row_stride']}: {decl}"
    if not s["pad_reaches_ideal"]:
        pad += f" ({s['pad_wavefronts'] / max(1, s['ideal_wavefronts']) * row.ideal:g} per request, the least)"
    lines = [f"fix: {pad}"]
    if s["swizzle"]:
        lines.append(f" or: swizzle, no extra memory: {s['swizzle']}")
    return lines


def conflict_summary(console, rows: list[AccessRow]) -> int:
    """Print the accesses that cost more than the ideal; return how many there are."""
    from rich.markup import escape

    bad = [r for r in rows if r.conflicted]
    groups: dict[tuple, list[AccessRow]] = {}
    for r in bad:  # one entry per distinct access: the same code in several variants, loads and stores
        key = (r.experiment, r.expr, r.shape, r.dtype, r.block, r.active, r.per_request, r.ideal)
        groups.setdefault(key, []).append(r)
    console.print("[bold]Bank conflicts in the book's programs[/] (the bank model; no GPU needed)")
    console.print(f"{len(bad)} of the {len(rows)} declared shared-memory accesses cost more wavefronts than the ideal "
                  f"(each subscript once, however many variants and lines share it):")
    for members in groups.values():
        first = members[0]
        by_variant: dict[str, list[str]] = {}
        for m in members:
            by_variant.setdefault(m.variant, []).append(m.label)
        where = "; ".join(f"[bold]{escape(v)}[/] ({escape(', '.join(labels))})" for v, labels in by_variant.items())
        console.print()
        console.print(f"{escape(first.experiment)}, {where}")
        console.print(f"  [bold red]{_plural(first.per_request, 'wavefront')} per request[/], ideal {first.ideal:g}")
        for line in fix_text(first):
            console.print(f"  {escape(line)}", soft_wrap=True)
        console.print(f"  [cyan]{escape(first.command('--suggest'))}[/]", soft_wrap=True)
    return len(bad)


def access_listing(console, rows: list[AccessRow], experiments) -> None:
    """Every declared access, per experiment and variant: the expression, the array, the prediction."""
    from rich.markup import escape

    by_exp: dict[str, dict[str, list[AccessRow]]] = {}
    for r in rows:
        by_exp.setdefault(r.experiment, {}).setdefault(r.variant, []).append(r)
    for exp in experiments:
        console.print(f"[bold]{escape(exp.name)}[/]: {escape(exp.title)}")
        variants = by_exp.get(exp.name, {})
        if not variants:
            console.print("  [dim]no shared-memory access declared[/]")
        for variant, accesses in variants.items():
            block = "x".join(map(str, accesses[0].block))
            console.print(f"  [bold]{escape(variant)}[/]  block {block}")
            for r in accesses:
                from smemlab.banks.analysis import c_type

                decl = f"{c_type(r.dtype)} {r.expr.split('[', 1)[0]}{''.join(f'[{d}]' for d in r.shape)}"
                active = f", where {r.active}" if r.active is not None else ""
                cost = _plural(r.per_request, "wavefront") + f" per request (ideal {r.ideal:g})"
                mark = "  [bold red]conflict[/]" if r.conflicted else ""
                console.print(f"    {escape(r.label)}: {escape(r.expr)} {r.op}, {escape(decl)}{escape(active)}: "
                              f"{cost}{mark}", soft_wrap=True)
