// The kernel behind float3_lineinfo.nvdisasm.txt, the line_map test's input: the array-of-float3
// update of lab 04 (three += on lines 8-10, the store on line 11) and a shared-memory reversal.
// Regenerate (from this folder): nvcc -cubin -arch=sm_90 -O3 -lineinfo -o /tmp/f3.cubin
//   float3_lineinfo.cu && nvdisasm --print-line-info /tmp/f3.cubin > float3_lineinfo.nvdisasm.txt
__global__ void float3_update(float3* in, float3* out, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  in[i].x += v;
  in[i].y += v;
  in[i].z += v;
  out[i] = in[i];
}
__global__ void reverse_block(float* a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.f;
  __syncthreads();
  if (i < n) a[i] = s[255 - threadIdx.x];
}
