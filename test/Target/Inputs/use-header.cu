// A program built against a header of stencil-translate --to-c-header
// (test/Target/c-header.test): the header is included as HEADER, its entry
// point is FUNCTION over element type ELEM and the sizes N0[, N1[, N2]]
// (macros: nvcc splits a -D value at its commas). No GPU: the calls stop
// at the misuse or at the driver / context, and print their status.
#include HEADER

#if defined(N2)
#define SIZES N0, N1, N2
#elif defined(N1)
#define SIZES N0, N1
#else
#define SIZES N0
#endif

#include <cstdio>

int main() {
  stencil_kernel *k = stencil_kernels::KERNEL_DETAIL::kernel();
  if (!k) {
    std::printf("load: %s\n", stencil_last_error());
    return 1;
  }
  std::printf("embedded kernel %s, rank %d, %d step(s) per launch, tail "
              "kernel of %d step(s)\n",
              stencil_kernel_name(k), stencil_kernel_rank(k),
              stencil_kernel_steps_per_launch(k), stencil_kernel_tail_steps(k));
  ELEM *in = reinterpret_cast<ELEM *>(0x100000);
  ELEM *out = reinterpret_cast<ELEM *>(0x200000);
  ELEM *result = nullptr;
  int64_t f = stencil_kernel_steps_per_launch(k);
  // f + 1 steps: a fused launch and a tail launch with a tail kernel (the
  // run then stops at the driver), refused without one.
  stencil_status s = stencil_kernels::FUNCTION(in, out, SIZES, f + 1);
  std::printf("steps: %s: %s\n", stencil_status_name(s), stencil_last_error());
  for (int64_t steps : {int64_t(1), int64_t(2), int64_t(3), int64_t(5),
                        int64_t(7)}) {
    s = stencil_kernels::FUNCTION(in, out, SIZES, steps);
    std::printf("%lld steps: %s\n", static_cast<long long>(steps),
                stencil_status_name(s));
  }
  s = stencil_kernels::FUNCTION(in, in, SIZES, f);
  std::printf("same: %s\n", stencil_status_name(s));
  s = stencil_kernels::FUNCTION(in, out, SIZES, f, nullptr, &result);
  std::printf("valid: %s: %s\n", stencil_status_name(s),
              *stencil_last_error() ? "message" : "none");
  return 0;
}
