"""Calls to device functions that NVVM did not inline (`__noinline__`), inlined into the kernel.

    { .param .b64 param0;  st.param.b64 [param0], %rd7;  .param .b32 retval0;
      call.uni (retval0), _Z4funcPf, (param0);  ld.param.b32 %r5, [retval0]; }

Each call is replaced by a copy of the callee's body: its registers, labels and local variables
renamed for that call, its formal parameters bound to the call's `.param` variables, `ret` a branch
to the end of the copy. The call's `.param` variables are per thread, so they (and every ld/st.param
on them) move to local memory. The callee's own lines stay on its instructions, as Nsight Compute
attributes them. Indirect calls and recursion are refused. Calls to the device runtime (assert,
printf, malloc, free: `externs.py`) stay calls, their parameters moved to local memory all the same.
"""

from __future__ import annotations

import dataclasses

from smemlab.analyze.externs import RUNTIME
from smemlab.analyze.ptx import Addr, Instr, Kernel, Label, Module, Pair, PTXError, Reg, Sym, Targets, TensorAddr, Variable, Vec

MAX_DEPTH = 16


def _map_operand(op, regs: dict, syms: dict):
    if isinstance(op, Reg):
        return Reg(regs.get(op.name, op.name), op.neg)
    if isinstance(op, Addr):
        if op.base_is_reg:
            return Addr(regs.get(op.base, op.base), op.offset, True)
        return Addr(syms.get(op.base, op.base), op.offset, False)
    if isinstance(op, Sym):
        return Sym(syms.get(op.name, op.name))
    if isinstance(op, TensorAddr):
        return TensorAddr(_map_operand(op.base, regs, syms), _map_operand(op.coords, regs, syms))
    if isinstance(op, Vec):
        return Vec(tuple(_map_operand(x, regs, syms) for x in op.items))
    if isinstance(op, Pair):
        return Pair(_map_operand(op.first, regs, syms), _map_operand(op.second, regs, syms))
    return op


def _to_local(ins: Instr, names: set[str]) -> Instr:
    """ld/st.param on a per-thread parameter become ld/st.local."""
    if ins.parts[0] not in ("ld", "st") or "param" not in ins.parts:
        return ins
    addr = next((o for o in ins.operands if isinstance(o, Addr)), None)
    if addr is None or addr.base_is_reg or addr.base not in names:
        return ins
    parts = tuple("local" if p == "param" else p for p in ins.parts)
    return dataclasses.replace(ins, opcode=".".join(parts), parts=parts)


def inline_calls(module: Module, kernel: Kernel) -> Kernel:
    if not any(isinstance(i, Instr) and i.parts[0] == "call" for i in kernel.body):
        return kernel
    regs = dict(kernel.regs)
    variables = list(kernel.variables)
    counter = [0]

    def expand(body: list, stack: tuple[str, ...]) -> list:
        out = []
        for item in body:
            if not (isinstance(item, Instr) and item.parts[0] == "call"):
                out.append(item)
                continue
            if len(item.operands) != 3 or not isinstance(item.operands[1], Sym):
                raise PTXError(f"`{item.text}`: only direct calls are supported")
            name = item.operands[1].name
            if name in RUNTIME and name not in module.functions:
                out.append(item)  # the device runtime's (externs.py): it runs as one instruction
                continue
            if name not in module.functions:
                raise PTXError(f"`{item.text}`: no body for the device function {name} (an extern function?)")
            if name in stack or len(stack) >= MAX_DEPTH:
                raise PTXError(f"`{item.text}`: recursion into {name} is not supported")
            callee = module.functions[name]
            n_ret = module.functions.returns.get(name, 0)
            rets, args = item.operands[0].items, item.operands[2].items
            formals = [p.name for p in callee.params]
            if len(formals) != n_ret + len(args) or len(rets) != n_ret:
                raise PTXError(f"`{item.text}`: {len(args)} arguments for {name}'s {len(formals) - n_ret}")
            counter[0] += 1
            tag = f"$c{counter[0]}"
            rmap = {r: r + tag for r in callee.regs}
            for r, t in callee.regs.items():
                regs[r + tag] = t
            smap = {f: a.name for f, a in zip(formals, list(rets) + list(args))}
            for v in callee.variables:
                if v.space == "shared":
                    if all(x.name != v.name for x in variables):
                        variables.append(v)
                    continue
                smap[v.name] = v.name + tag
                variables.append(dataclasses.replace(v, name=v.name + tag))
            end = f"$Lret{tag}"
            for c in callee.body:
                if isinstance(c, (Label, Targets)):
                    smap[c.name] = c.name + tag
            body_copy = []
            for c in callee.body:
                if isinstance(c, Label):
                    body_copy.append(Label(smap[c.name]))
                    continue
                if isinstance(c, Targets):
                    body_copy.append(Targets(smap[c.name], [smap.get(t, t) for t in c.labels]))
                    continue
                if c.parts[0] == "ret":
                    guard = _map_operand(c.guard, rmap, smap) if c.guard else None
                    body_copy.append(Instr("bra", ("bra",), [Sym(end)], guard, c.loc, c.text))
                    continue
                ops = [_map_operand(o, rmap, smap) for o in c.operands]
                guard = _map_operand(c.guard, rmap, smap) if c.guard else None
                body_copy.append(dataclasses.replace(c, operands=ops, guard=guard))
            out.extend(expand(body_copy, stack + (name,)))
            out.append(Label(end))
        return out

    body = expand(list(kernel.body), ())
    # the calls' parameters: per thread, one slot per name (call sequences reuse param0, retval0 ...)
    largest: dict[str, Variable] = {}
    for v in variables:
        if v.space == "param" and (v.name not in largest or v.size > largest[v.name].size):
            largest[v.name] = v
    per_thread = set(largest)
    variables = [v for v in variables if v.space != "param"] + \
        [dataclasses.replace(v, space="local") for v in largest.values()]
    body = [_to_local(i, per_thread) if isinstance(i, Instr) else i for i in body]
    return dataclasses.replace(kernel, regs=regs, variables=variables, body=body)

