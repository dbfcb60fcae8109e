// Helpers a project keeps in a header of its own, included from a subfolder.
#pragma once

#ifndef TILE_PAD
#define TILE_PAD 1
#endif

template <typename T, int DIM>
struct Tile {
  T cell[DIM][DIM + TILE_PAD];
};

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}
