// fresh14_apps.cu -- the deep-learning frameworks' own CUDA kernels from before the cuDNN-era libraries took over,
// the way they still sit in public repositories: Caffe (the CUDA_KERNEL_LOOP grid-stride macro; im2col / col2im,
// max pooling with a mask, average pooling's backward, LRN's scale fill, the softmax's channel max and sum, BNLL),
// darknet (max pooling, reorg, shortcut, upsample, softmax over groups through a device function, the fast mean and
// variance with a __shared__ local[threads] reduction), the old Torch THC/THCUNN (nearest upsampling, the lookup
// table's backward over sorted indices, the softmax with a shared buffer of the plane's max and sum) and MXNet /
// ONNX Runtime style kernels (a depthwise 3x3 convolution over a shared tile with its halo, batch norm's training
// statistics with a block reduce then the apply, an apex-style LayerNorm over the channel axis with warp shuffles
// and shared partials, an NCHW->NHWC transpose through a 32x33 tile, a gather with int64 indices, an argmax along
// an axis). Written blind for smemlab's truth fixture, before its first recording; NVRTC builds it.
typedef long long int64_t;

// NVRTC here has no toolkit headers: the half type as cuda_fp16.hpp lays it out (2 bytes, 2-aligned) and its
// conversions by cvt, enough for the THC and ONNX Runtime kernels below
struct __align__(2) __half {
  unsigned short __x;
  __half() = default;
  __device__ __half(float f) { asm("cvt.rn.f16.f32 %0, %1;" : "=h"(__x) : "f"(f)); }
  __device__ __half(int i) : __half((float)i) {}
  __device__ operator float() const { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(__x)); return f; }
};
typedef __half half;
__device__ __forceinline__ float __half2float(const __half h) { return (float)h; }
__device__ __forceinline__ __half __float2half(const float f) { return __half(f); }

#ifndef FLT_MAX
#define FLT_MAX 3.402823466e+38F
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

// =============================================================================================================
// Caffe (src/caffe/util/im2col.cu, layers/pooling_layer.cu, lrn_layer.cu, softmax_layer.cu, bnll_layer.cu)
// =============================================================================================================
// (the scalar parameters the sources type by a template argument -- Dtype alpha_over_size, AccReal epsilon, U
// epsilon, THCUNN's ptrdiff_t numel -- are spelled float / long here: the recorder reads NVRTC kernels' scalar
// types from the parameter text)
// CUDA: grid stride looping
#define CUDA_KERNEL_LOOP(i, n) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \
       i < (n); \
       i += blockDim.x * gridDim.x)

namespace caffe {

template <typename Dtype>
__global__ void im2col_gpu_kernel(const int n, const Dtype* data_im,
    const int height, const int width, const int kernel_h, const int kernel_w,
    const int pad_h, const int pad_w,
    const int stride_h, const int stride_w,
    const int dilation_h, const int dilation_w,
    const int height_col, const int width_col,
    Dtype* data_col) {
  CUDA_KERNEL_LOOP(index, n) {
    const int h_index = index / width_col;
    const int h_col = h_index % height_col;
    const int w_col = index % width_col;
    const int c_im = h_index / height_col;
    const int c_col = c_im * kernel_h * kernel_w;
    const int h_offset = h_col * stride_h - pad_h;
    const int w_offset = w_col * stride_w - pad_w;
    Dtype* data_col_ptr = data_col;
    data_col_ptr += (c_col * height_col + h_col) * width_col + w_col;
    const Dtype* data_im_ptr = data_im;
    data_im_ptr += (c_im * height + h_offset) * width + w_offset;
    for (int i = 0; i < kernel_h; ++i) {
      for (int j = 0; j < kernel_w; ++j) {
        int h_im = h_offset + i * dilation_h;
        int w_im = w_offset + j * dilation_w;
        *data_col_ptr =
            (h_im >= 0 && w_im >= 0 && h_im < height && w_im < width) ?
            data_im_ptr[i * dilation_h * width + j * dilation_w] : 0;
        data_col_ptr += height_col * width_col;
      }
    }
  }
}

template <typename Dtype>
__global__ void col2im_gpu_kernel(const int n, const Dtype* data_col,
    const int height, const int width, const int channels,
    const int kernel_h, const int kernel_w,
    const int pad_h, const int pad_w,
    const int stride_h, const int stride_w,
    const int dilation_h, const int dilation_w,
    const int height_col, const int width_col,
    Dtype* data_im) {
  CUDA_KERNEL_LOOP(index, n) {
    Dtype val = 0;
    const int w_im = index % width + pad_w;
    const int h_im = (index / width) % height + pad_h;
    const int c_im = index / (width * height);
    int kernel_extent_w = (kernel_w - 1) * dilation_w + 1;
    int kernel_extent_h = (kernel_h - 1) * dilation_h + 1;
    // compute the start and end of the output
    const int w_col_start =
        (w_im < kernel_extent_w) ? 0 : (w_im - kernel_extent_w) / stride_w + 1;
    const int w_col_end = min(w_im / stride_w + 1, width_col);
    const int h_col_start =
        (h_im < kernel_extent_h) ? 0 : (h_im - kernel_extent_h) / stride_h + 1;
    const int h_col_end = min(h_im / stride_h + 1, height_col);
    // TODO: use LCM of stride and dilation to avoid unnecessary loops
    for (int h_col = h_col_start; h_col < h_col_end; h_col += 1) {
      for (int w_col = w_col_start; w_col < w_col_end; w_col += 1) {
        int h_k = (h_im - h_col * stride_h);
        int w_k = (w_im - w_col * stride_w);
        if (h_k % dilation_h == 0 && w_k % dilation_w == 0) {
          h_k /= dilation_h;
          w_k /= dilation_w;
          int data_col_index = (((c_im * kernel_h + h_k) * kernel_w + w_k) *
                                height_col + h_col) * width_col + w_col;
          val += data_col[data_col_index];
        }
      }
    }
    data_im[index] = val;
  }
}

template <typename Dtype>
__global__ void MaxPoolForward(const int nthreads,
    const Dtype* const bottom_data, const int num, const int channels,
    const int height, const int width, const int pooled_height,
    const int pooled_width, const int kernel_h, const int kernel_w,
    const int stride_h, const int stride_w, const int pad_h, const int pad_w,
    Dtype* const top_data, int* mask, Dtype* top_mask) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    const int pw = index % pooled_width;
    const int ph = (index / pooled_width) % pooled_height;
    const int c = (index / pooled_width / pooled_height) % channels;
    const int n = index / pooled_width / pooled_height / channels;
    int hstart = ph * stride_h - pad_h;
    int wstart = pw * stride_w - pad_w;
    const int hend = min(hstart + kernel_h, height);
    const int wend = min(wstart + kernel_w, width);
    hstart = max(hstart, 0);
    wstart = max(wstart, 0);
    Dtype maxval = -FLT_MAX;
    int maxidx = -1;
    const Dtype* const bottom_slice =
        bottom_data + (n * channels + c) * height * width;
    for (int h = hstart; h < hend; ++h) {
      for (int w = wstart; w < wend; ++w) {
        if (bottom_slice[h * width + w] > maxval) {
          maxidx = h * width + w;
          maxval = bottom_slice[maxidx];
        }
      }
    }
    top_data[index] = maxval;
    if (mask) {
      mask[index] = maxidx;
    } else {
      top_mask[index] = maxidx;
    }
  }
}

template <typename Dtype>
__global__ void AvePoolBackward(const int nthreads, const Dtype* const top_diff,
    const int num, const int channels, const int height,
    const int width, const int pooled_height, const int pooled_width,
    const int kernel_h, const int kernel_w, const int stride_h,
    const int stride_w, const int pad_h, const int pad_w,
    Dtype* const bottom_diff) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    // find out the local index
    // find out the local offset
    const int w = index % width + pad_w;
    const int h = (index / width) % height + pad_h;
    const int c = (index / width / height) % channels;
    const int n = index / width / height / channels;
    const int phstart = (h < kernel_h) ? 0 : (h - kernel_h) / stride_h + 1;
    const int phend = min(h / stride_h + 1, pooled_height);
    const int pwstart = (w < kernel_w) ? 0 : (w - kernel_w) / stride_w + 1;
    const int pwend = min(w / stride_w + 1, pooled_width);
    Dtype gradient = 0;
    const Dtype* const top_diff_slice =
        top_diff + (n * channels + c) * pooled_height * pooled_width;
    for (int ph = phstart; ph < phend; ++ph) {
      for (int pw = pwstart; pw < pwend; ++pw) {
        // figure out the pooling size
        int hstart = ph * stride_h - pad_h;
        int wstart = pw * stride_w - pad_w;
        int hend = min(hstart + kernel_h, height + pad_h);
        int wend = min(wstart + kernel_w, width + pad_w);
        int pool_size = (hend - hstart) * (wend - wstart);
        gradient += top_diff_slice[ph * pooled_width + pw] / pool_size;
      }
    }
    bottom_diff[index] = gradient;
  }
}

template <typename Dtype>
__global__ void LRNFillScale(const int nthreads, const Dtype* const in,
    const int num, const int channels, const int height,
    const int width, const int size, const float alpha_over_size,
    const float k, Dtype* const scale) {
  CUDA_KERNEL_LOOP(index, nthreads) {
    // find out the local offset
    const int w = index % width;
    const int h = (index / width) % height;
    const int n = index / width / height;
    const int offset = (n * channels * height + h) * width + w;
    const int step = height * width;
    const Dtype* const in_off = in + offset;
    Dtype* const scale_off = scale + offset;
    int head = 0;
    const int pre_pad = (size - 1) / 2;
    const int post_pad = size - pre_pad - 1;
    Dtype accum_scale = 0;
    // fill the scale at [n, :, h, w]
    // accumulate values
    while (head < post_pad && head < channels) {
      accum_scale += in_off[head * step] * in_off[head * step];
      ++head;
    }
    // both add and subtract
    while (head < channels) {
      accum_scale += in_off[head * step] * in_off[head * step];
      if (head - size >= 0) {
        accum_scale -= in_off[(head - size) * step]
                       * in_off[(head - size) * step];
      }
      scale_off[(head - post_pad) * step] = k + accum_scale * alpha_over_size;
      ++head;
    }
    // subtract only
    while (head < channels + post_pad) {
      if (head - size >= 0) {
        accum_scale -= in_off[(head - size) * step]
                       * in_off[(head - size) * step];
      }
      scale_off[(head - post_pad) * step] = k + accum_scale * alpha_over_size;
      ++head;
    }
  }
}

template <typename Dtype>
__global__ void kernel_channel_max(const int num, const int channels,
    const int spatial_dim, const Dtype* data, Dtype* out) {
  CUDA_KERNEL_LOOP(index, num * spatial_dim) {
    int n = index / spatial_dim;
    int s = index % spatial_dim;
    Dtype maxval = -FLT_MAX;
    for (int c = 0; c < channels; ++c) {
      maxval = max(data[(n * channels + c) * spatial_dim + s], maxval);
    }
    out[index] = maxval;
  }
}

template <typename Dtype>
__global__ void kernel_channel_sum(const int num, const int channels,
    const int spatial_dim, const Dtype* data, Dtype* channel_sum) {
  CUDA_KERNEL_LOOP(index, num * spatial_dim) {
    int n = index / spatial_dim;
    int s = index % spatial_dim;
    Dtype sum = 0;
    for (int c = 0; c < channels; ++c) {
      sum += data[(n * channels + c) * spatial_dim + s];
    }
    channel_sum[index] = sum;
  }
}

template <typename Dtype>
__global__ void BNLLForward(const int n, const Dtype* in, Dtype* out) {
  CUDA_KERNEL_LOOP(index, n) {
    out[index] = in[index] > 0 ?
        in[index] + log(1. + exp(-in[index])) :
        log(1. + exp(in[index]));
  }
}

}  // namespace caffe

// =============================================================================================================
// darknet (src/maxpool_layer_kernels.cu, blas_kernels.cu): blocks of BLOCK threads over cuda_gridsize()'s 2-D grid
// =============================================================================================================
#ifndef BLOCK
#define BLOCK 512
#endif

extern "C" __global__ void forward_maxpool_layer_kernel(int n, int in_h, int in_w, int in_c, int stride, int size, int pad, float *input, float *output, int *indexes)
{
    int h = (in_h + pad - size)/stride + 1;
    int w = (in_w + pad - size)/stride + 1;
    int c = in_c;

    int id = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if(id >= n) return;

    int j = id % w;
    id /= w;
    int i = id % h;
    id /= h;
    int k = id % c;
    id /= c;
    int b = id;

    int w_offset = -pad/2;
    int h_offset = -pad/2;

    int out_index = j + w*(i + h*(k + c*b));
    float max = -INFINITY;
    int max_i = -1;
    int l, m;
    for(l = 0; l < size; ++l){
        for(m = 0; m < size; ++m){
            int cur_h = h_offset + i*stride + l;
            int cur_w = w_offset + j*stride + m;
            int index = cur_w + in_w*(cur_h + in_h*(k + b*in_c));
            int valid = (cur_h >= 0 && cur_h < in_h &&
                    cur_w >= 0 && cur_w < in_w);
            float val = (valid != 0) ? input[index] : -INFINITY;
            max_i = (val > max) ? index : max_i;
            max   = (val > max) ? val   : max;
        }
    }
    output[out_index] = max;
    indexes[out_index] = max_i;
}

extern "C" __global__ void reorg_kernel(int N, float *x, int w, int h, int c, int batch, int stride, int forward, float *out)
{
    int i = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if(i >= N) return;
    int in_index = i;
    int in_w = i%w;
    i = i/w;
    int in_h = i%h;
    i = i/h;
    int in_c = i%c;
    i = i/c;
    int b = i%batch;

    int out_c = c/(stride*stride);

    int c2 = in_c % out_c;
    int offset = in_c / out_c;
    int w2 = in_w*stride + offset % stride;
    int h2 = in_h*stride + offset / stride;
    int out_index = w2 + w*stride*(h2 + h*stride*(c2 + out_c*b));

    if(forward) out[out_index] = x[in_index];
    else out[in_index] = x[out_index];
}

extern "C" __global__ void shortcut_kernel(int size, int minw, int minh, int minc, int stride, int sample, int batch, int w1, int h1, int c1, float *add, int w2, int h2, int c2, float s1, float s2, float *out)
{
    int id = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if (id >= size) return;
    int i = id % minw;
    id /= minw;
    int j = id % minh;
    id /= minh;
    int k = id % minc;
    id /= minc;
    int b = id % batch;

    int out_index = i*sample + w2*(j*sample + h2*(k + c2*b));
    int add_index = i*stride + w1*(j*stride + h1*(k + c1*b));
    out[out_index] = s1*out[out_index] + s2*add[add_index];
}

extern "C" __global__ void upsample_kernel(size_t N, float *x, int w, int h, int c, int batch, int stride, int forward, float scale, float *out)
{
    size_t i = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if(i >= N) return;
    int out_index = i;
    int out_w = i%(w*stride);
    i = i/(w*stride);
    int out_h = i%(h*stride);
    i = i/(h*stride);
    int out_c = i%c;
    i = i/c;
    int b = i%batch;

    int in_w = out_w / stride;
    int in_h = out_h / stride;
    int in_c = out_c;

    int in_index = b*w*h*c + in_c*w*h + in_h*w + in_w;

    if(forward) out[out_index] += scale * x[in_index];
    else atomicAdd(x+in_index, scale * out[out_index]);
}

__device__ void softmax_device(float *input, int n, float temp, int stride, float *output)
{
    int i;
    float sum = 0;
    float largest = -INFINITY;
    for(i = 0; i < n; ++i){
        int val = input[i*stride];
        largest = (val>largest) ? val : largest;
    }
    for(i = 0; i < n; ++i){
        float e = expf(input[i*stride]/temp - largest/temp);
        sum += e;
        output[i*stride] = e;
    }
    for(i = 0; i < n; ++i){
        output[i*stride] /= sum;
    }
}

extern "C" __global__ void softmax_kernel(float *input, int n, int batch, int batch_offset, int groups, int group_offset, int stride, float temp, float *output)
{
    int id = (blockIdx.x + blockIdx.y*gridDim.x) * blockDim.x + threadIdx.x;
    if (id >= batch*groups) return;
    int b = id / groups;
    int g = id % groups;
    softmax_device(input + b*batch_offset + g*group_offset, n, temp, stride, output + b*batch_offset + g*group_offset);
}

extern "C" __global__ void fast_mean_kernel(float *x, int batch, int filters, int spatial, float *mean)
{
    const int threads = BLOCK;
    __shared__ float local[threads];

    int id = threadIdx.x;
    local[id] = 0;

    int filter = blockIdx.x;

    int i, j;
    for(j = 0; j < batch; ++j){
        for(i = 0; i < spatial; i += threads){
            int index = j*spatial*filters + filter*spatial + i + id;
            local[id] += (i+id < spatial) ? x[index] : 0;
        }
    }

    __syncthreads();

    if(id == 0){
        mean[filter] = 0;
        for(i = 0; i < threads; ++i){
            mean[filter] += local[i];
        }
        mean[filter] /= spatial * batch;
    }
}

extern "C" __global__ void  fast_variance_kernel(float *x, float *mean, int batch, int filters, int spatial, float *variance)
{
    const int threads = BLOCK;
    __shared__ float local[threads];

    int id = threadIdx.x;
    local[id] = 0;

    int filter = blockIdx.x;

    int i, j;
    for(j = 0; j < batch; ++j){
        for(i = 0; i < spatial; i += threads){
            int index = j*spatial*filters + filter*spatial + i + id;

            local[id] += (i+id < spatial) ? powf((x[index] - mean[filter]), 2) : 0;
        }
    }

    __syncthreads();

    if(id == 0){
        variance[filter] = 0;
        for(i = 0; i < threads; ++i){
            variance[filter] += local[i];
        }
        variance[filter] /= (spatial * batch - 1);
    }
}

// =============================================================================================================
// Torch THC / THCUNN (lib/THCUNN/SpatialUpSamplingNearest.cu, LookupTable.cu, SoftMax.cu), Lua-era: 1-based
// indices (TH_INDEX_BASE), THCNumerics and ScalarConvert for half
// =============================================================================================================
#define TH_INDEX_BASE 1
#define WARP_SIZE 32

template <typename In, typename Out>
struct ScalarConvert {
  static __host__ __device__ __forceinline__ Out to(const In v) { return (Out) v; }
};
template <typename Out>
struct ScalarConvert<half, Out> {
  static __device__ __forceinline__ Out to(const half v) { return (Out) __half2float(v); }
};
template <typename In>
struct ScalarConvert<In, half> {
  static __device__ __forceinline__ half to(const In v) { return __float2half((float) v); }
};
template <>
struct ScalarConvert<half, half> {
  static __device__ __forceinline__ half to(const half v) { return v; }
};

template <typename T>
struct THCNumerics {
  static inline __host__ __device__ T max() { return FLT_MAX; }
  static inline __host__ __device__ T exp(T a) { return ::expf(a); }
};

__device__ int translate_idx(int ii, int d1, int d2, int d3, int scale_factor)
{
  int x, y, z, w;
  w = ii % d3;
  ii = ii/d3;
  z = ii % d2;
  ii = ii/d2;
  y = ii % d1;
  ii = ii/d1;
  x = ii;
  w = w/scale_factor;
  z = z/scale_factor;
  d2 /= scale_factor;
  d3 /= scale_factor;
  return (((x*d1+y)*d2)+z)*d3+w;
}

template <typename Dtype>
__global__ void upscale(Dtype *input, Dtype *output, long no_elements,
                        int scale_factor, int d1, int d2, int d3)
{
  // output offset:
  long ii = threadIdx.x + blockDim.x * blockIdx.x;
  ii += threadIdx.y + blockDim.y * (blockDim.x * gridDim.x) * blockIdx.y;
  if (ii >= no_elements) return;
  int ipidx = translate_idx(ii, d1, d2, d3, scale_factor);
  output[ii]=input[ipidx];
}

template <typename Dtype, typename Acctype>
__global__ void cunn_LookupTable_accGradParametersKernel(
  int64_t *input, int64_t *indices, Dtype *gradOutput, Dtype *gradWeight,
  int64_t *count, float defaultScale, long numel, long stride, int paddingValue) {

  int idx = blockIdx.x * 4 + threadIdx.y;

  // Each warp is responsible for an input into the LookupTable.
  // If the preceding input has the same as this input, then the warp
  // exits immediately. The warp also processes subsequent inputs with the
  // same value.
  //
  // Input Warp
  // 1     <warp 1>
  // 1     <warp 1> (<warp 2> exits without doing any work)
  // 5     <warp 3>
  // 8     <warp 4>

  // Number of values proceessed by each thread (grain size)
  const int SZ = 4;

  if (idx < numel
      && (idx == 0 || input[idx] != input[idx - 1])
      && input[idx] != paddingValue) {
    do {
      const int startFeature = threadIdx.x + blockIdx.y * blockDim.x * SZ;
      const int weightRow = ((int) input[idx] - TH_INDEX_BASE) * stride;
      const int gradOutputRow = ((int) indices[idx] - TH_INDEX_BASE) * stride;
      const Acctype scale = count ? ScalarConvert<Dtype, Acctype>::to(defaultScale) / count[idx] : ScalarConvert<Dtype, Acctype>::to(defaultScale);

      Acctype gradient[SZ];
      Acctype weight[SZ];

      #pragma unroll
      for (int ii = 0; ii < SZ; ii++)
      {
        int featureDim = startFeature + ii * WARP_SIZE;
        if (featureDim < stride)
        {
          gradient[ii] = ScalarConvert<Dtype, Acctype>::to(gradOutput[gradOutputRow + featureDim]);
          weight[ii] = ScalarConvert<Dtype, Acctype>::to(gradWeight[weightRow + featureDim]);
        }
      }

      #pragma unroll
      for (int ii = 0; ii < SZ; ii++)
      {
        weight[ii] += gradient[ii] * scale;
      }

      #pragma unroll
      for (int ii = 0; ii < SZ; ii++)
      {
        int featureDim = startFeature + ii * WARP_SIZE;
        if (featureDim < stride)
        {
          gradWeight[weightRow + featureDim] = ScalarConvert<Acctype, Dtype>::to(weight[ii]);
        }
      }

      idx++;
    } while (idx < numel && input[idx] == input[idx - 1]);
  }
}

#define SOFTMAX_THREADS 128

template <typename T, typename AccumT>
__global__ void cunn_SoftMax_updateOutput_kernel(
  T *output, T *input, int nframe, int dim, int stride0, int stride1)
{
  __shared__ AccumT buffer[SOFTMAX_THREADS+1];
  T *input_k  = input  + blockIdx.x*dim*stride0 + blockIdx.y*stride1 + blockIdx.z;
  T *output_k = output + blockIdx.x*dim*stride0 + blockIdx.y*stride1 + blockIdx.z;

  int i_start = threadIdx.x;
  int i_end = dim;
  int i_step = blockDim.x;

  // max?
  buffer[threadIdx.x] = -THCNumerics<AccumT>::max();
  for (int i=i_start; i<i_end; i+=i_step)
  {
    T z = input_k[i*stride0];
    AccumT zAcc = ScalarConvert<T, AccumT>::to(z);
    if (buffer[threadIdx.x] < zAcc)
      buffer[threadIdx.x] = zAcc;
  }


  __syncthreads();

  // reduce
  if (threadIdx.x == 0)
  {
    AccumT max_k = -THCNumerics<AccumT>::max();
    for (int i=0; i<blockDim.x; i++)
    {
      if (max_k < buffer[i])
        max_k = buffer[i];
    }
    buffer[SOFTMAX_THREADS] = max_k;
  }

  __syncthreads();

  // sum?
  AccumT max_k = buffer[SOFTMAX_THREADS];
  buffer[threadIdx.x] = ScalarConvert<int, AccumT>::to(0);
  for (int i=i_start; i<i_end; i+=i_step) {
    AccumT z = THCNumerics<AccumT>::exp(ScalarConvert<T, AccumT>::to(input_k[i*stride0])-max_k);
    buffer[threadIdx.x] += z;
    output_k[i*stride0] = ScalarConvert<AccumT, T>::to(z);
  }

  __syncthreads();

  // reduce
  if (threadIdx.x == 0)
  {
    AccumT sum_k = ScalarConvert<int, AccumT>::to(0);
    for (int i=0; i<blockDim.x; i++)
      sum_k += buffer[i];
    buffer[SOFTMAX_THREADS] = sum_k;
  }

  __syncthreads();

  // softmax
  AccumT sum_k = buffer[SOFTMAX_THREADS];
  for (int i=i_start; i<i_end; i+=i_step)
    output_k[i*stride0] = ScalarConvert<AccumT, T>::to(ScalarConvert<T, AccumT>::to(output_k[i*stride0]) / sum_k);
}

// =============================================================================================================
// MXNet / ONNX Runtime style operators
// =============================================================================================================
namespace mxnet_op {

// depthwise convolution, NCHW, a block a (tile of output, channel): the input tile with its halo and the channel's
// filter in dynamic shared memory, zero padded at the image border
template <typename DType, int kFilterHeight, int kFilterWidth>
__global__ void DepthwiseConv2dForwardSmemKernel(const DType* __restrict__ input, const DType* __restrict__ filter,
                                                 DType* __restrict__ output, const int channels, const int in_height,
                                                 const int in_width, const int out_height, const int out_width,
                                                 const int stride, const int pad)
{
  extern __shared__ char smem_raw[];
  DType* s_filter = reinterpret_cast<DType*>(smem_raw);
  DType* s_tile = s_filter + kFilterHeight * kFilterWidth;
  const int tile_w = blockDim.x * stride + kFilterWidth - 1;
  const int tile_h = blockDim.y * stride + kFilterHeight - 1;
  const int nc = blockIdx.z;
  const int c = nc % channels;
  const int out_x0 = blockIdx.x * blockDim.x;
  const int out_y0 = blockIdx.y * blockDim.y;
  const int in_x0 = out_x0 * stride - pad;
  const int in_y0 = out_y0 * stride - pad;
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int nthreads = blockDim.x * blockDim.y;
  const DType* in_plane = input + (long)nc * in_height * in_width;

  if (tid < kFilterHeight * kFilterWidth) s_filter[tid] = filter[c * kFilterHeight * kFilterWidth + tid];
  for (int i = tid; i < tile_h * tile_w; i += nthreads) {
    const int ty = i / tile_w, tx = i - ty * tile_w;
    const int y = in_y0 + ty, x = in_x0 + tx;
    s_tile[i] = (y >= 0 && y < in_height && x >= 0 && x < in_width) ? in_plane[y * in_width + x] : DType(0);
  }
  __syncthreads();

  const int ox = out_x0 + threadIdx.x, oy = out_y0 + threadIdx.y;
  if (ox < out_width && oy < out_height) {
    DType sum = 0;
#pragma unroll
    for (int r = 0; r < kFilterHeight; ++r) {
#pragma unroll
      for (int s = 0; s < kFilterWidth; ++s) {
        sum += s_filter[r * kFilterWidth + s] *
               s_tile[(threadIdx.y * stride + r) * tile_w + threadIdx.x * stride + s];
      }
    }
    output[((long)nc * out_height + oy) * out_width + ox] = sum;
  }
}

// batch norm, training: THCUNN's reduce (warp shuffles, then a [32] shared transpose) for the mean and the
// variance of one plane over (batch, spatial), the running statistics, then the normalized output
template <typename T>
static __device__ __forceinline__ T warpSum(T val) {
#pragma unroll
  for (int i = 0; i < 5; ++i) {
    val += __shfl_xor_sync(0xffffffffu, val, 1 << i, WARP_SIZE);
  }
  return val;
}

template <typename DType>
struct DeviceTensor3 {
  DType* data_;
  int size_[3];
  __device__ DeviceTensor3(DType* d, int s0, int s1, int s2) : data_(d) { size_[0] = s0; size_[1] = s1; size_[2] = s2; }
  __device__ __forceinline__ int getSize(int i) const { return size_[i]; }
  __device__ __forceinline__ DType& get_ref(int b, int p, int x) const { return data_[(b * size_[1] + p) * size_[2] + x]; }
};

template <typename DType, typename AccReal>
struct SumOp {
  __device__ SumOp(const DeviceTensor3<const DType> t) : tensor(t) {}
  __device__ __forceinline__ AccReal operator()(int batch, int plane, int n) {
    return ScalarConvert<DType, AccReal>::to(tensor.get_ref(batch, plane, n));
  }
  const DeviceTensor3<const DType> tensor;
};

template <typename DType, typename AccReal>
struct VarOp {
  __device__ VarOp(AccReal m, const DeviceTensor3<const DType> t) : mean(m), tensor(t) {}
  __device__ __forceinline__ AccReal operator()(int batch, int plane, int n) {
    const AccReal val = ScalarConvert<DType, AccReal>::to(tensor.get_ref(batch, plane, n));
    return (val - mean) * (val - mean);
  }
  const AccReal mean;
  const DeviceTensor3<const DType> tensor;
};

template <typename T, typename Op, typename DeviceTensor>
static __device__ T reduce(Op op, DeviceTensor tensor, int plane) {
  T sum = (T)0;
  for (int batch = 0; batch < tensor.getSize(0); ++batch) {
    for (int x = threadIdx.x; x < tensor.getSize(2); x += blockDim.x) {
      sum += op(batch, plane, x);
    }
  }

  // sum over NumThreads within a warp
  sum = warpSum(sum);

  // 'transpose', and reduce within warp again
  __shared__ T shared[32];
  __syncthreads();
  if (threadIdx.x % WARP_SIZE == 0) {
    shared[threadIdx.x / WARP_SIZE] = sum;
  }
  if (threadIdx.x >= blockDim.x / WARP_SIZE && threadIdx.x < WARP_SIZE) {
    // zero out the other entries in shared
    shared[threadIdx.x] = (T)0;
  }
  __syncthreads();
  if (threadIdx.x / WARP_SIZE == 0) {
    sum = warpSum(shared[threadIdx.x]);
    if (threadIdx.x == 0) {
      shared[0] = sum;
    }
  }
  __syncthreads();

  // Everyone picks it up, should be broadcast into the whole gradInput
  return shared[0];
}

template <typename DType, typename AccReal>
__global__ void BatchNormalizationUpdateOutputKernel(
    const DType* input_, DType* output_, const DType* weight, const DType* bias, const float epsilon,
    const float momentum, AccReal* runningMean, AccReal* runningVar, AccReal* saveMean, AccReal* saveInvStd,
    const int num, const int channels, const int spatial) {
  const DeviceTensor3<const DType> input(input_, num, channels, spatial);
  DeviceTensor3<DType> output(output_, num, channels, spatial);
  const int plane = blockIdx.x;
  const int N = input.getSize(0) * input.getSize(2);

  const AccReal norm = AccReal(1) / N;

  // Compute the mean and variance across (batch, x/y/z)
  const AccReal mean = reduce<AccReal>(SumOp<DType, AccReal>(input), input, plane) * norm;
  __syncthreads();
  const AccReal varN = reduce<AccReal>(VarOp<DType, AccReal>(mean, input), input, plane);
  AccReal invStd = 0;
  if (varN != AccReal(0) || epsilon != AccReal(0)) {
    invStd = AccReal(1) / sqrt(varN * norm + epsilon);
  }

  // Save the mean, variance, and moving averages
  if (threadIdx.x == 0) {
    // Momentum based writeback
    AccReal unbiasedVar = varN / (N - 1);
    saveMean[plane] = mean;
    saveInvStd[plane] = invStd;
    runningMean[plane] = (1 - momentum) * runningMean[plane] + momentum * mean;
    runningVar[plane] = (1 - momentum) * runningVar[plane] + momentum * unbiasedVar;
  }

  // Write normalized and update the output
  const AccReal gamma = weight != nullptr ? ScalarConvert<DType, AccReal>::to(weight[plane]) : AccReal(1);
  const AccReal beta = bias != nullptr ? ScalarConvert<DType, AccReal>::to(bias[plane]) : AccReal(0);
  for (int batch = 0; batch < input.getSize(0); ++batch) {
    for (int x = threadIdx.x; x < input.getSize(2); x += blockDim.x) {
      const DType inp = input.get_ref(batch, plane, x);
      output.get_ref(batch, plane, x) =
          ScalarConvert<AccReal, DType>::to(gamma * (ScalarConvert<DType, AccReal>::to(inp) - mean) * invStd + beta);
    }
  }
}

}  // namespace mxnet_op

namespace onnxruntime {
namespace cuda {

// LayerNorm over the innermost (channel) axis, apex's layer_norm_cuda_kernel.cu as ONNX Runtime carries it:
// blocks (32, 4) walk rows i1 = blockIdx.y, += gridDim.y; Welford per thread, combined across the warp by
// shuffles, across the warps by halving through shared partials (ubuf / ibuf in dynamic shared memory)
template <typename U>
__device__ void cuWelfordOnlineSum(const U curr, U& mu, U& sigma2, U& count) {
  count = count + U(1);
  U delta = curr - mu;
  U lmean = mu + delta / count;
  mu = lmean;
  U delta2 = curr - lmean;
  sigma2 = sigma2 + delta * delta2;
}

template <typename U>
__device__ void cuChanOnlineSum(const U muB, const U sigma2B, const U countB, U& mu, U& sigma2, U& count) {
  U delta = muB - mu;
  U nA = count;
  U nB = countB;
  count = count + countB;
  U nX = count;
  if (nX > U(0)) {
    nA = nA / nX;
    nB = nB / nX;
    mu = nA * mu + nB * muB;
    sigma2 = sigma2 + sigma2B + delta * delta * nA * nB * nX;
  } else {
    mu = U(0);
    sigma2 = U(0);
  }
}

template <typename T, typename U>
__device__ void cuWelfordMuSigma2(const T* __restrict__ vals, const int n1, const int n2, const int i1, U& mu,
                                  U& sigma2, U* buf) {
  U count = U(0);
  mu = U(0);
  sigma2 = U(0);
  if (i1 < n1) {
    // one warp normalizes one n1 index,
    // synchronization is implicit
    // initialize with standard Welford algorithm
    const int numx = blockDim.x * blockDim.y;
    const int thrx = threadIdx.x + threadIdx.y * blockDim.x;
    const T* lvals = vals + i1 * n2;
    int l = 4 * thrx;
    for (; l + 3 < n2; l += 4 * numx) {
      for (int k = 0; k < 4; ++k) {
        U curr = static_cast<U>(lvals[l + k]);
        cuWelfordOnlineSum<U>(curr, mu, sigma2, count);
      }
    }
    for (; l < n2; ++l) {
      U curr = static_cast<U>(lvals[l]);
      cuWelfordOnlineSum<U>(curr, mu, sigma2, count);
    }
    // intra-warp reductions
    for (int l = 0; l <= 4; ++l) {
      int srcLaneB = (threadIdx.x + (1 << l)) & 31;
      U muB = __shfl_sync(0xffffffffu, mu, srcLaneB);
      U countB = __shfl_sync(0xffffffffu, count, srcLaneB);
      U sigma2B = __shfl_sync(0xffffffffu, sigma2, srcLaneB);
      cuChanOnlineSum<U>(muB, sigma2B, countB, mu, sigma2, count);
    }
    // threadIdx.x == 0 has correct values for each warp
    // inter-warp reductions
    if (blockDim.y > 1) {
      U* ubuf = (U*)buf;
      U* ibuf = (U*)(ubuf + blockDim.y);
      for (int offset = blockDim.y / 2; offset > 0; offset /= 2) {
        // upper half of warps write to shared
        if (threadIdx.x == 0 && threadIdx.y >= offset && threadIdx.y < 2 * offset) {
          const int wrt_y = threadIdx.y - offset;
          ubuf[2 * wrt_y] = mu;
          ubuf[2 * wrt_y + 1] = sigma2;
          ibuf[wrt_y] = count;
        }
        __syncthreads();
        // lower half merges
        if (threadIdx.x == 0 && threadIdx.y < offset) {
          U muB = ubuf[2 * threadIdx.y];
          U sigma2B = ubuf[2 * threadIdx.y + 1];
          U countB = ibuf[threadIdx.y];
          cuChanOnlineSum<U>(muB, sigma2B, countB, mu, sigma2, count);
        }
        __syncthreads();
      }
      // threadIdx.x = 0 && threadIdx.y == 0 only thread that has correct values
      if (threadIdx.x == 0 && threadIdx.y == 0) {
        ubuf[0] = mu;
        ubuf[1] = sigma2;
      }
      __syncthreads();
      mu = ubuf[0];
      sigma2 = ubuf[1] / U(n2);
      // don't care about final value of count, we know count == n2
    } else {
      mu = __shfl_sync(0xffffffffu, mu, 0);
      sigma2 = __shfl_sync(0xffffffffu, sigma2 / U(n2), 0);
    }
  }
}

template <typename T, typename U>
__global__ void cuApplyLayerNorm(T* __restrict__ output_vals, U* __restrict__ mean, U* __restrict__ invvar,
                                 const T* __restrict__ vals, const int n1, const int n2, const float epsilon,
                                 const T* __restrict__ gamma, const T* __restrict__ beta) {
  // Assumptions:
  // 1) blockDim.x == warpSize
  // 2) Tensors are contiguous
  //
  extern __shared__ char s_raw[];
  U* buf = reinterpret_cast<U*>(s_raw);
  for (int i1 = blockIdx.y; i1 < n1; i1 += gridDim.y) {
    U mu, sigma2;
    cuWelfordMuSigma2(vals, n1, n2, i1, mu, sigma2, buf);
    const T* lvals = vals + i1 * n2;
    T* ovals = output_vals + i1 * n2;
    U c_invvar = rsqrt(sigma2 + epsilon);
    const int numx = blockDim.x * blockDim.y;
    const int thrx = threadIdx.x + threadIdx.y * blockDim.x;
    if (gamma != NULL && beta != NULL) {
      for (int i = thrx; i < n2; i += numx) {
        U curr = static_cast<U>(lvals[i]);
        ovals[i] = static_cast<T>(static_cast<U>(gamma[i]) * c_invvar * (curr - mu) + static_cast<U>(beta[i]));
      }
    } else {
      for (int i = thrx; i < n2; i += numx) {
        U curr = static_cast<U>(lvals[i]);
        ovals[i] = static_cast<T>(c_invvar * (curr - mu));
      }
    }
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      mean[i1] = mu;
      invvar[i1] = c_invvar;
    }
    __syncthreads();
  }
}

// NCHW -> NHWC through a 32x33 tile: blocks (32, 8) over (HW tiles, C tiles, N)
template <typename T>
__global__ void TransposeNCHWToNHWC(const T* __restrict__ input, T* __restrict__ output, const int C, const int HW) {
  __shared__ T tile[32][33];
  const int n = blockIdx.z;
  const int hw0 = blockIdx.x * 32, c0 = blockIdx.y * 32;
  const T* in = input + (int64_t)n * C * HW;
  T* out = output + (int64_t)n * C * HW;
#pragma unroll
  for (int j = 0; j < 32; j += 8) {
    const int c = c0 + threadIdx.y + j, hw = hw0 + threadIdx.x;
    if (c < C && hw < HW) tile[threadIdx.y + j][threadIdx.x] = in[(int64_t)c * HW + hw];
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < 32; j += 8) {
    const int hw = hw0 + threadIdx.y + j, c = c0 + threadIdx.x;
    if (c < C && hw < HW) out[(int64_t)hw * C + c] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// Gather along an axis (Embedding's forward when axis == 0): int64 indices, negative ones wrap, out of range -> 0
struct fast_divmod {
  __host__ __device__ fast_divmod(int d = 1) {
    d_ = d == 0 ? 1 : d;
    for (l_ = 0; l_ < 32; l_++)
      if ((1U << l_) >= (unsigned)d_) break;
    unsigned long long one = 1;
    unsigned long long m = ((one << 32) * ((one << l_) - d_)) / d_ + 1;
    M_ = (unsigned)m;
  }
  __host__ __device__ inline int div(int n) const {
    unsigned t = __umulhi(M_, (unsigned)n);
    return (t + n) >> l_;
  }
  __host__ __device__ inline void divmod(int n, int& q, int& r) const {
    q = div(n);
    r = n - q * d_;
  }
  int d_;
  unsigned M_, l_;
};

#define CALCULATE_ELEMENTWISE_INDEX_OR_EXIT(id, N)       \
  int id = blockDim.x * blockIdx.x + threadIdx.x;        \
  if (id >= N)                                           \
    return;

template <typename T, typename Tin>
__global__ void _GatherKernel(const int64_t input_block_size, const int64_t indices_max,
                              const int output_block_size_, const int block_size_, const Tin* indices_data,
                              const T* input_data, T* output_data, const int N) {
  const fast_divmod output_block_size(output_block_size_), block_size(block_size_);
  CALCULATE_ELEMENTWISE_INDEX_OR_EXIT(id, N);
  int64_t input_index = 0;
  int input_block_index, block_offset;
  output_block_size.divmod(id, input_block_index, block_offset);
  int indices_index, offset;
  block_size.divmod(block_offset, indices_index, offset);
  int64_t idx = indices_data[indices_index];
  idx = idx < 0 ? idx + indices_max : idx;
  if (idx < 0 || idx >= indices_max) {
    output_data[id] = 0;
    return;
  }
  input_index = input_block_index * input_block_size + idx * block_size.d_ + offset;
  output_data[id] = input_data[input_index];
}

// ArgMax along the middle axis of [outer, axis, inner]: blocks (32, NY), x over inner, y splits the axis; the
// (value, index) pairs meet in shared memory and row 0 folds them, first index wins ties
template <typename T>
struct ArgPair {
  T val;
  int idx;
};

template <typename T, int NY>
__global__ void ArgMaxAxisKernel(const T* __restrict__ in, int64_t* __restrict__ out, const int outer, const int axis,
                                 const int inner) {
  __shared__ ArgPair<T> pairs[NY][32];
  const int o = blockIdx.y;
  const int i = blockIdx.x * 32 + threadIdx.x;
  ArgPair<T> best;
  best.val = -FLT_MAX;
  best.idx = 0;
  if (o < outer && i < inner) {
    for (int k = threadIdx.y; k < axis; k += NY) {
      const T v = in[((int64_t)o * axis + k) * inner + i];
      if (v > best.val) {
        best.val = v;
        best.idx = k;
      }
    }
  }
  pairs[threadIdx.y][threadIdx.x] = best;
  __syncthreads();
  if (threadIdx.y == 0 && o < outer && i < inner) {
#pragma unroll
    for (int y = 1; y < NY; ++y) {
      const ArgPair<T> p = pairs[y][threadIdx.x];
      if (p.val > best.val || (p.val == best.val && p.idx < best.idx)) best = p;
    }
    out[(int64_t)o * inner + i] = best.idx;
  }
}

}  // namespace cuda
}  // namespace onnxruntime
