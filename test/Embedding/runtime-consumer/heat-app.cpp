// A CUDA application that runs a stencil compiled at build time
// (stencil_add_kernel: heat2d.h). Without a GPU the run stops at the driver
// or the context, with a status and a message, which it prints.
#include "heat2d.h"

#include <cstdio>

int main() {
  stencil_kernel *k = stencil_kernels::heat2d_detail::kernel();
  if (!k) {
    std::printf("load failed: %s\n", stencil_last_error());
    return 1;
  }
  std::printf("kernel %s steps per launch %d tail steps %d\n",
              stencil_kernel_name(k), stencil_kernel_steps_per_launch(k),
              stencil_kernel_tail_steps(k));
  __half *in = reinterpret_cast<__half *>(0x100000);
  __half *out = reinterpret_cast<__half *>(0x200000);
  stencil_status s = stencil_kernels::heat2d(in, out, 64, 64, /*steps=*/5);
  std::printf("run: %s\n", stencil_status_name(s));
  return 0;
}
