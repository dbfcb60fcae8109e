"""Read what a compiled kernel declares straight from its cubin (an ELF file), with no GPU.

NVCC and NVRTC put each kernel's static shared memory in a section `.nv.shared.<kernel>` whose
size is the bytes it declares, and its constant-bank data in `.nv.constant<N>.<kernel>`.
"""

from __future__ import annotations

import struct


def _sections(elf: bytes) -> dict[str, int]:
    """Section name -> size, for a 64-bit little-endian ELF."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        raise ValueError("not a 64-bit ELF cubin")
    (shoff,) = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)

    def header(i: int) -> tuple[int, int, int]:
        base = shoff + i * shentsize
        name, = struct.unpack_from("<I", elf, base)
        offset, size = struct.unpack_from("<QQ", elf, base + 0x18)
        return name, offset, size

    _, strtab_off, _ = header(shstrndx)
    out = {}
    for i in range(shnum):
        name_off, _, size = header(i)
        end = elf.index(b"\0", strtab_off + name_off)
        out[elf[strtab_off + name_off : end].decode()] = size
    return out


# sm_80 and later reserve the first 1 KB of every block's shared memory for the system
# (cudaDevAttrReservedSharedMemoryPerBlock). Where a module has the `.nv.shared.reserved.0`
# section, each kernel's `.nv.shared.<kernel>` section starts at that offset and its size counts
# the reserved kilobyte too, even for a kernel that declares nothing.
RESERVED_SHARED_BYTES = 1024


def static_shared_bytes(cubin: bytes) -> dict[str, int]:
    """Kernel name -> bytes of static shared memory it declares (0 where it declares none)."""
    sections = _sections(cubin)
    reserved = RESERVED_SHARED_BYTES if ".nv.shared.reserved.0" in sections else 0
    kernels = [name[len(".text."):] for name in sections if name.startswith(".text.")]
    return {k: max(sections.get(f".nv.shared.{k}", 0) - reserved, 0) for k in kernels}
