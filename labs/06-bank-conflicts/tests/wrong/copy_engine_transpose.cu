// Wrong way to lab 06: the transpose done by the copy engine. One cudaMemcpy2DAsync a row of the
// input writes that row as a column of the output (a destination pitch of one element, rows
// apart): the exact transpose, and no kernel loads or stores anything, so the counters see no
// request, sector or bank conflict to fail. The grader's inventory of the launch lists the
// copies, and "copies and memsets" fails.
#include "../graded_way.cuh"

namespace {

cudalab::transpose::launch_dims copy_engine_transpose(const float* in, float* out, std::size_t rows,
                                                      std::size_t cols, cudaStream_t stream) {
  for (std::size_t r = 0; r < rows; ++r)
    CUDALAB_CHECK_CUDA(cudaMemcpy2DAsync(out + r, rows * sizeof(float), in + r * cols,
                                         sizeof(float), sizeof(float), cols,
                                         cudaMemcpyDeviceToDevice, stream));
  return cudalab::transpose::tile_dims(rows, cols, 32);
}

}  // namespace

CUDALAB_TRANSPOSE_WAY_LAUNCHED(copy_engine_transpose,
                               "wrong way: a 2D copy a row, on the copy engine")
