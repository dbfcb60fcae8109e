// libcu++ (cuda::std) functions in device code: bit operations, numeric, limits, algorithms, complex.
#include <cuda/std/bit>
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/numeric>
#include <cuda/std/utility>
#include <cuda/cmath>

__global__ void bits(const unsigned* in, unsigned* out)
{
    unsigned x = in[threadIdx.x];
    unsigned long long w = (unsigned long long)x * 0x9E3779B97F4A7C15ull;
    unsigned* o = out + threadIdx.x * 10;
    o[0] = cuda::std::popcount(x);
    o[1] = cuda::std::countl_zero(x);
    o[2] = cuda::std::countr_zero(x);
    o[3] = cuda::std::bit_width(x);
    o[4] = cuda::std::bit_floor(x);
    o[5] = cuda::std::bit_ceil(x & 0xFFFF);
    o[6] = cuda::std::rotl(x, (int)(x & 31));
    o[7] = cuda::std::has_single_bit(x);
    o[8] = cuda::std::countl_one(w) + (cuda::std::countr_one(w) << 8);
    o[9] = (unsigned)(cuda::std::rotr(w, 13) >> 7);
}

__global__ void numeric(const int* a, const int* b, int* out)
{
    int x = a[threadIdx.x], y = b[threadIdx.x];
    int* o = out + threadIdx.x * 6;
    o[0] = cuda::std::gcd(x, y);
    o[1] = cuda::std::lcm(x % 100, y % 100);
    o[2] = cuda::std::midpoint(x, y);
    o[3] = cuda::std::min(x, y) + cuda::std::max(x, y) * 3;
    o[4] = cuda::ceil_div(x < 0 ? -x : x, 7);
    o[5] = cuda::std::numeric_limits<int>::max() - cuda::std::abs(x);
}

__global__ void complex_mul(const float* re, const float* im, float* out)
{
    cuda::std::complex<float> z(re[threadIdx.x], im[threadIdx.x]);
    cuda::std::complex<float> w = z * z + cuda::std::complex<float>(1.0f, -0.5f);
    out[threadIdx.x * 3 + 0] = w.real();
    out[threadIdx.x * 3 + 1] = w.imag();
    out[threadIdx.x * 3 + 2] = cuda::std::norm(w);
}
