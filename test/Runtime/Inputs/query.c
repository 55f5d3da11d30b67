/* A C99 client of libStencilRuntime (test/Runtime/c-api.test): loads the
 * launch description given as argv[1], prints what the API says of it, and
 * shows each misuse's status; no GPU needed (a valid run stops at the
 * driver or the context). */
#include <stencil-runtime/StencilRuntime.h>

#include <stdio.h>

static void report(const char *what, stencil_status s) {
  printf("%s: %s: %s\n", what, stencil_status_name(s), stencil_last_error());
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  stencil_kernel *k = 0;
  stencil_status s = stencil_kernel_load_file(argv[1], &k);
  if (s != STENCIL_SUCCESS) {
    report("load", s);
    return 1;
  }
  int rank = stencil_kernel_rank(k);
  printf("kernel %s rank %d element bytes %zu steps per launch %d radius",
         stencil_kernel_name(k), rank,
         stencil_element_size(stencil_kernel_element_type(k)),
         stencil_kernel_steps_per_launch(k));
  for (int d = 0; d < rank; ++d)
    printf(" %lld", (long long)stencil_kernel_radius(k, d));
  printf(" boundary %d tail steps %d\n", (int)stencil_kernel_boundary(k),
         stencil_kernel_tail_steps(k));

  int64_t sizes[3] = {64, 64, 64}, small[3] = {2, 2, 2};
  CUdeviceptr in = 0x100000, out = 0x200000;
  report("same buffers",
         stencil_kernel_run(k, in, in, sizes, rank, 2, 0, 0, 0));
  report("rank", stencil_kernel_run(k, in, out, sizes, rank + 1, 2, 0, 0, 0));
  report("small", stencil_kernel_run(k, in, out, small, rank, 2, 0, 0, 0));
  report("steps",
         stencil_kernel_run(k, in, out, sizes, rank,
                            stencil_kernel_steps_per_launch(k) + 1, 0, 0, 0));
  report("valid",
         stencil_kernel_run(k, in, out, sizes, rank,
                            stencil_kernel_steps_per_launch(k), 0, 0, 0));
  stencil_kernel_destroy(k);
  s = stencil_kernel_load_file("missing.launch", &k);
  report("missing", s);
  return 0;
}
