// The third held-out batch, scientific codes: Yee FDTD updates, a 2-D Jacobi with shared halos, a 25-point
// star stencil with a register queue along z, a D2Q9 lattice-Boltzmann stream, multigrid transfers, red-black
// Gauss-Seidel, an upwind flux, an 8th-order acoustic update in double, an FFT stage, a Floyd-Warshall step.
#include "fresh3_common.cuh"

// ---- FDTD (Yee cell): E from the curl of H, three fields, backward differences at -1, -nx, -nx*ny -------------
extern "C" __global__ void fdtd_update_e(float *ex, float *ey, float *ez, const float *hx, const float *hy,
                                         const float *hz, const float *eps_inv, int nx, int ny, int nz, float dt)
{
    const int plane = nx * ny;
    for (int k = threadIdx.z + 1; k < nz; k += blockDim.z)
        for (int j = threadIdx.y + 1; j < ny; j += blockDim.y)
            for (int i = threadIdx.x + 1; i < nx; i += blockDim.x) {
                int c = IX3(i, j, k, nx, ny);
                float ce = dt * eps_inv[c];
                ex[c] += ce * ((hz[c] - hz[c - nx]) - (hy[c] - hy[c - plane]));
                ey[c] += ce * ((hx[c] - hx[c - plane]) - (hz[c] - hz[c - 1]));
                ez[c] += ce * ((hy[c] - hy[c - 1]) - (hx[c] - hx[c - nx]));
            }
}

// H from the curl of E, forward differences, one thread a (x, y) column marching in z
extern "C" __global__ void fdtd_update_h(float *hx, float *hy, float *hz, const float *ex, const float *ey,
                                         const float *ez, int nx, int ny, int nz, float ch)
{
    const int plane = nx * ny;
    for (int j = threadIdx.y; j < ny - 1; j += blockDim.y)
        for (int i = threadIdx.x; i < nx - 1; i += blockDim.x)
            for (int k = 0; k < nz - 1; ++k) {
                int c = IX3(i, j, k, nx, ny);
                hx[c] -= ch * ((ez[c + nx] - ez[c]) - (ey[c + plane] - ey[c]));
                hy[c] -= ch * ((ex[c + plane] - ex[c]) - (ez[c + 1] - ez[c]));
                hz[c] -= ch * ((ey[c + 1] - ey[c]) - (ex[c + nx] - ex[c]));
            }
}

// ---- 2-D heat equation, one Jacobi sweep: a shared tile with a one-cell halo that edge and corner threads load --
#define HB_X 16
#define HB_Y 16
extern "C" __global__ void heat2d_jacobi(const float *__restrict__ u, float *__restrict__ unew, int nx, int ny,
                                         float alpha)
{
    __shared__ float t[HB_Y + 2][HB_X + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * HB_X + tx, gy = blockIdx.y * HB_Y + ty;
    int cx = min(gx, nx - 1), cy = min(gy, ny - 1);
    t[ty + 1][tx + 1] = u[cy * nx + cx];
    if (tx == 0) t[ty + 1][0] = u[cy * nx + max(cx - 1, 0)];
    if (tx == HB_X - 1) t[ty + 1][HB_X + 1] = u[cy * nx + min(cx + 1, nx - 1)];
    if (ty == 0) t[0][tx + 1] = u[max(cy - 1, 0) * nx + cx];
    if (ty == HB_Y - 1) t[HB_Y + 1][tx + 1] = u[min(cy + 1, ny - 1) * nx + cx];
    if (tx == 0 && ty == 0) t[0][0] = u[max(cy - 1, 0) * nx + max(cx - 1, 0)];
    if (tx == HB_X - 1 && ty == 0) t[0][HB_X + 1] = u[max(cy - 1, 0) * nx + min(cx + 1, nx - 1)];
    if (tx == 0 && ty == HB_Y - 1) t[HB_Y + 1][0] = u[min(cy + 1, ny - 1) * nx + max(cx - 1, 0)];
    if (tx == HB_X - 1 && ty == HB_Y - 1) t[HB_Y + 1][HB_X + 1] = u[min(cy + 1, ny - 1) * nx + min(cx + 1, nx - 1)];
    __syncthreads();
    if (gx > 0 && gy > 0 && gx < nx - 1 && gy < ny - 1) {
        float lap = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2] - 4.f * t[ty + 1][tx + 1];
        float diag = t[ty][tx] + t[ty][tx + 2] + t[ty + 2][tx] + t[ty + 2][tx + 2];  // the 9-point correction
        unew[gy * nx + gx] = t[ty + 1][tx + 1] + alpha * (lap + 0.25f * (diag - 4.f * t[ty + 1][tx + 1]));
    }
}

// ---- 25-point star (radius 4), the "2.5-D" pencil: x-y tile in shared, the z neighbours in a register queue ------
#define ST_R 4
template <int BX, int BY>
__global__ void star25_pencil(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz,
                              const float *__restrict__ coef)
{
    __shared__ float tile[BY + 2 * ST_R][BX + 2 * ST_R];
    const int stride = nx * ny;
    int ix = blockIdx.x * BX + threadIdx.x + ST_R, iy = blockIdx.y * BY + threadIdx.y + ST_R;
    int tx = threadIdx.x + ST_R, ty = threadIdx.y + ST_R;
    bool active = ix < nx - ST_R && iy < ny - ST_R;
    float c0 = coef[0], c1 = coef[1], c2 = coef[2], c3 = coef[3], c4 = coef[4];
    int idx = iy * nx + ix;
    float behind[ST_R], infront[ST_R], current;
    for (int i = ST_R - 1; i >= 0; --i) behind[i] = active ? in[idx + (ST_R - 1 - i) * stride] : 0.f;  // z = 0..3
    idx += (ST_R - 1) * stride;
    current = active ? in[idx + stride] : 0.f;
    for (int i = 0; i < ST_R; ++i) infront[i] = active ? in[idx + (i + 2) * stride] : 0.f;
    idx += stride;
    for (int iz = ST_R; iz < nz - ST_R; ++iz) {
        __syncthreads();
        if (active) {
            if (threadIdx.y < ST_R) {
                tile[threadIdx.y][tx] = in[idx - ST_R * nx];
                tile[threadIdx.y + BY + ST_R][tx] = in[idx + BY * nx];
            }
            if (threadIdx.x < ST_R) {
                tile[ty][threadIdx.x] = in[idx - ST_R];
                tile[ty][threadIdx.x + BX + ST_R] = in[idx + BX];
            }
            tile[ty][tx] = current;
        }
        __syncthreads();
        if (active) {
            float v = c0 * current;
            v += c1 * (infront[0] + behind[0] + tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1]);
            v += c2 * (infront[1] + behind[1] + tile[ty - 2][tx] + tile[ty + 2][tx] + tile[ty][tx - 2] + tile[ty][tx + 2]);
            v += c3 * (infront[2] + behind[2] + tile[ty - 3][tx] + tile[ty + 3][tx] + tile[ty][tx - 3] + tile[ty][tx + 3]);
            v += c4 * (infront[3] + behind[3] + tile[ty - 4][tx] + tile[ty + 4][tx] + tile[ty][tx - 4] + tile[ty][tx + 4]);
            out[idx] = v;
        }
        // advance the queue one plane
        for (int i = ST_R - 1; i > 0; --i) behind[i] = behind[i - 1];
        behind[0] = current;
        current = infront[0];
        for (int i = 0; i < ST_R - 1; ++i) infront[i] = infront[i + 1];
        idx += stride;
        if (active && iz + ST_R + 1 < nz) infront[ST_R - 1] = in[idx + ST_R * stride];
    }
}
template __global__ void star25_pencil<16, 8>(const float *, float *, int, int, int, const float *);
template __global__ void star25_pencil<32, 4>(const float *, float *, int, int, int, const float *);

// ---- lattice Boltzmann D2Q9, the pull stream step: nine distributions, structure of arrays, periodic edges ------
__constant__ int d2q9_cx[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
__constant__ int d2q9_cy[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};

extern "C" __global__ void lbm_d2q9_stream(const float *f_in, float *f_out, float *rho, float *ux, float *uy, int nx, int ny)
{
    const int n = nx * ny;
    for (int cell = blockIdx.x * blockDim.x + threadIdx.x; cell < n; cell += blockDim.x * gridDim.x) {
        int x = cell % nx, y = cell / nx;
        float r = 0.f, mx = 0.f, my = 0.f;
#pragma unroll
        for (int q = 0; q < 9; ++q) {
            int xs = x - d2q9_cx[q], ys = y - d2q9_cy[q];
            xs = xs < 0 ? xs + nx : (xs >= nx ? xs - nx : xs);
            ys = ys < 0 ? ys + ny : (ys >= ny ? ys - ny : ys);
            float f = f_in[q * n + ys * nx + xs];
            f_out[q * n + cell] = f;
            r += f;
            mx += f * d2q9_cx[q];
            my += f * d2q9_cy[q];
        }
        rho[cell] = r;
        ux[cell] = mx / r;
        uy[cell] = my / r;
    }
}

// ---- multigrid: full-weighting restriction (fine reads at stride 2) and bilinear prolongation (add to fine) -----
extern "C" __global__ void mg_restrict_fw(const double *fine, double *coarse, int ncx, int ncy)
{
    int nfx = 2 * ncx + 1;  // vertex-centred: fine has 2n+1 points a row
    for (int j = threadIdx.y + 1; j < ncy; j += blockDim.y)
        for (int i = threadIdx.x + 1; i < ncx; i += blockDim.x) {
            int f = (2 * j) * nfx + 2 * i;
            double v = 4.0 * fine[f] + 2.0 * (fine[f - 1] + fine[f + 1] + fine[f - nfx] + fine[f + nfx]) +
                       fine[f - nfx - 1] + fine[f - nfx + 1] + fine[f + nfx - 1] + fine[f + nfx + 1];
            coarse[j * (ncx + 1) + i] = v * 0.0625;
        }
}

extern "C" __global__ void mg_prolong_add(const float *coarse, float *fine, int ncx, int ncy)
{
    int nfx = 2 * ncx + 1, nfy = 2 * ncy + 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= nfx || j >= nfy) return;
    int ci = i >> 1, cj = j >> 1;
    int w = ncx + 1;
    float v;
    if ((i & 1) == 0 && (j & 1) == 0) v = coarse[cj * w + ci];
    else if ((j & 1) == 0) v = 0.5f * (coarse[cj * w + ci] + coarse[cj * w + ci + 1]);
    else if ((i & 1) == 0) v = 0.5f * (coarse[cj * w + ci] + coarse[(cj + 1) * w + ci]);
    else v = 0.25f * (coarse[cj * w + ci] + coarse[cj * w + ci + 1] + coarse[(cj + 1) * w + ci] + coarse[(cj + 1) * w + ci + 1]);
    fine[j * nfx + i] += v;
}

// ---- red-black Gauss-Seidel for -lap(u) = f: a thread a cell of one colour, every other cell of a row -------------
extern "C" __global__ void rb_gauss_seidel(float *u, const float *f, int nx, int ny, float h2, int color)
{
    int half = (nx - 2 + 1) / 2;
    for (int j = threadIdx.y + 1; j < ny - 1; j += blockDim.y)
        for (int t = threadIdx.x; t < half; t += blockDim.x) {
            int i = 1 + 2 * t + ((j + color) & 1);
            if (i >= nx - 1) continue;
            int c = j * nx + i;
            u[c] = 0.25f * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + h2 * f[c]);
        }
}

// ---- first-order upwind flux on faces, fluxes in shared, then the conservative update -----------------------------
extern "C" __global__ void upwind_advect(const float *q, const float *vel_face, float *q_new, int n, float dtdx)
{
    extern __shared__ float flux[];  // blockDim.x + 1 faces
    for (int base = 0; base < n; base += blockDim.x) {
        int i = base + threadIdx.x;
        if (i <= n) {  // face i sits between cells i-1 and i (periodic)
            float v = vel_face[i];
            int up = v > 0.f ? (i - 1 + n) % n : i % n;
            flux[threadIdx.x] = v * q[up];
        }
        if (threadIdx.x == 0 && base + blockDim.x <= n) {
            int j = base + blockDim.x;
            float v = vel_face[j];
            flux[blockDim.x] = v * q[v > 0.f ? j - 1 : j % n];
        }
        __syncthreads();
        if (i < n) q_new[i] = q[i] - dtdx * (flux[threadIdx.x + 1] - flux[threadIdx.x]);
        __syncthreads();
    }
}

// ---- acoustic wave, 8th order in space, 2nd in time, double precision: x and y derivatives straight from memory ---
extern "C" __global__ void acoustic8_2d(const double *__restrict__ p, const double *__restrict__ p_prev,
                                        double *__restrict__ p_next, const double *__restrict__ vel2, int nx, int ny,
                                        double dt2_h2)
{
    const double c[5] = {-205.0 / 72.0, 8.0 / 5.0, -1.0 / 5.0, 8.0 / 315.0, -1.0 / 560.0};
    for (int y = threadIdx.y + 4; y < ny - 4; y += blockDim.y)
        for (int x = threadIdx.x + 4; x < nx - 4; x += blockDim.x) {
            int i = y * nx + x;
            double lap = 2.0 * c[0] * p[i];
#pragma unroll
            for (int r = 1; r <= 4; ++r)
                lap += c[r] * (p[i - r] + p[i + r] + p[i - r * nx] + p[i + r * nx]);
            p_next[i] = 2.0 * p[i] - p_prev[i] + vel2[i] * dt2_h2 * lap;
        }
}

// ---- radix-2 FFT of 256 points a block row: bit-reversed gather from global, butterflies in shared float2 ---------
extern "C" __global__ void fft256_rows(const float2 *in, float2 *out, int rows)
{
    __shared__ float2 s[2][256];
    int row = threadIdx.y, t = threadIdx.x;  // blockDim (128, 2): two rows at a time, one butterfly a thread
    for (int r0 = 0; r0 < rows; r0 += blockDim.y) {
        int r = r0 + row;
        bool ok = r < rows;
        if (ok) {
            for (int k = t; k < 256; k += blockDim.x)
                s[row][__brev(k) >> 24] = in[r * 256 + k];
        }
        __syncthreads();
        for (int half = 1; half < 256; half <<= 1) {
            int grp = t / half, pos = t % half;
            int a = grp * 2 * half + pos, b = a + half;
            float sn, cs;
            __sincosf(-3.14159265f * pos / half, &sn, &cs);
            if (ok) {
                float2 u = s[row][a], v = s[row][b];
                float2 w = make_float2(v.x * cs - v.y * sn, v.x * sn + v.y * cs);
                s[row][a] = make_float2(u.x + w.x, u.y + w.y);
                s[row][b] = make_float2(u.x - w.x, u.y - w.y);
            }
            __syncthreads();
        }
        if (ok) {
            out[r * 256 + t] = s[row][t];
            out[r * 256 + t + 128] = s[row][t + 128];
        }
        __syncthreads();
    }
}

// ---- blocked Floyd-Warshall, the third phase: a tile from its row and column of the pivot block ----------------
#define FW_T 16
extern "C" __global__ void fw_phase3(int *dist, int n, int pitch, int kb)
{
    __shared__ int rowk[FW_T][FW_T];
    __shared__ int colk[FW_T][FW_T];
    int bi = blockIdx.y, bj = blockIdx.x;
    if (bi == kb || bj == kb) return;
    int ty = threadIdx.y, tx = threadIdx.x;
    int i = bi * FW_T + ty, j = bj * FW_T + tx;
    int kbase = kb * FW_T;
    colk[ty][tx] = (i < n && kbase + tx < n) ? dist[i * pitch + kbase + tx] : 0x3fffffff;
    rowk[ty][tx] = (kbase + ty < n && j < n) ? dist[(kbase + ty) * pitch + j] : 0x3fffffff;
    __syncthreads();
    if (i < n && j < n) {
        int d = dist[i * pitch + j];
#pragma unroll 4
        for (int k = 0; k < FW_T; ++k)
            d = min(d, colk[ty][k] + rowk[k][tx]);
        dist[i * pitch + j] = d;
    }
}
