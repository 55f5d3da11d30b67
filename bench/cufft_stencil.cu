// cufft_stencil.cu - the "indirect" FFT stencil baseline of seed 004
// (FlashFFTStencil, section 5: "cuFFT-based Stencil"): T steps of a linear
// stencil on a periodic grid as one whole-grid real-to-complex cuFFT, a
// pointwise product with the kernel spectrum raised to the T, and the
// inverse transform. f64 (D2Z / Z2D). The stencil comes from a launch
// description's `offsets` and `weights` (any of the compiler's).
//
//   nvcc -O3 -o cufft_stencil bench/cufft_stencil.cu -lcufft
//   cufft_stencil DESC.launch --grid N0[,N1[,N2]] --fused T --steps S [--check]
//
// Prints one line: RESULT cufft grid=... T=... steps=... ms=... gstencil_s=...
// (GStencil/s = steps * points / s / 1e9, as stencil-run). --check compares
// one launch (T periodic steps) with a CPU reference (small grids only).
#include <cufft.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    auto e_ = (x);                                                             \
    if (e_ != 0) {                                                             \
      std::fprintf(stderr, "%s:%d: error %d in %s\n", __FILE__, __LINE__,      \
                   int(e_), #x);                                               \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

struct Stencil {
  int rank = 0;
  std::vector<int> offsets; // rank-major, outermost first
  std::vector<double> weights;
};

static Stencil readStencil(const char *path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(2);
  }
  Stencil s;
  std::string line;
  while (std::getline(in, line)) {
    auto eq = line.find(" = ");
    if (eq == std::string::npos)
      continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 3);
    if (key == "rank")
      s.rank = std::atoi(value.c_str());
    if (key == "offsets" || key == "weights")
      for (char &c : value)
        if (c == ',' || c == ';')
          c = ' ';
    std::istringstream is(value);
    if (key == "offsets")
      for (int o; is >> o;)
        s.offsets.push_back(o);
    if (key == "weights")
      for (double w; is >> w;)
        s.weights.push_back(w);
  }
  if (s.rank < 1 || s.offsets.size() != s.weights.size() * s.rank) {
    std::fprintf(stderr, "%s: no linear stencil (offsets/weights)\n", path);
    std::exit(2);
  }
  return s;
}

/// spec[k] *= S[k] for the half spectrum.
__global__ void multiply(cufftDoubleComplex *spec, const cufftDoubleComplex *s,
                         size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= n)
    return;
  cufftDoubleComplex a = spec[i], b = s[i];
  spec[i] = {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cufft_stencil DESC --grid N0[,N1[,N2]] "
                         "--fused T --steps S [--check]\n");
    return 2;
  }
  Stencil st = readStencil(argv[1]);
  std::vector<long> dims;
  int fused = 1, steps = 32;
  bool check = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--grid" && i + 1 < argc) {
      std::string g = argv[++i];
      for (char &c : g)
        if (c == ',')
          c = ' ';
      std::istringstream is(g);
      for (long n; is >> n;)
        dims.push_back(n);
    } else if (a == "--fused" && i + 1 < argc) {
      fused = std::atoi(argv[++i]);
    } else if (a == "--steps" && i + 1 < argc) {
      steps = std::atoi(argv[++i]);
    } else if (a == "--check") {
      check = true;
    }
  }
  int rank = st.rank;
  if ((int)dims.size() != rank || fused < 1 || steps % fused) {
    std::fprintf(stderr, "bad --grid / --fused / --steps\n");
    return 2;
  }
  size_t points = 1, half = 1;
  for (int d = 0; d < rank; ++d) {
    points *= dims[d];
    half *= d == rank - 1 ? dims[d] / 2 + 1 : dims[d];
  }
  // S[k] = H(k)^T / N on the half spectrum (host, not timed):
  // exp(2 pi i k . o / n) is a product over dimensions of tables of
  // exp(2 pi i k_d o_d / n_d) (each entry in long double, rounded once).
  std::vector<cufftDoubleComplex> s(half);
  {
    size_t numPoints = st.weights.size();
    std::vector<std::vector<double>> tabRe(rank), tabIm(rank);
    for (int d = 0; d < rank; ++d) {
      long ext = d == rank - 1 ? dims[d] / 2 + 1 : dims[d];
      tabRe[d].resize(ext * numPoints);
      tabIm[d].resize(ext * numPoints);
      for (long k = 0; k < ext; ++k)
        for (size_t p = 0; p < numPoints; ++p) {
          long o = ((st.offsets[p * rank + d] % dims[d]) + dims[d]) % dims[d];
          long double a = 2 * M_PIl * (long double)((k * o) % dims[d]) / dims[d];
          tabRe[d][k * numPoints + p] = double(std::cos(a));
          tabIm[d][k * numPoints + p] = double(std::sin(a));
        }
    }
    std::vector<long> k(rank, 0);
    for (size_t i = 0; i < half; ++i) {
      size_t rest = i;
      for (int d = rank - 1; d >= 0; --d) {
        long ext = d == rank - 1 ? dims[d] / 2 + 1 : dims[d];
        k[d] = rest % ext;
        rest /= ext;
      }
      double re = 0, im = 0;
      for (size_t p = 0; p < numPoints; ++p) {
        double tr = st.weights[p], ti = 0;
        for (int d = 0; d < rank; ++d) {
          double cr = tabRe[d][k[d] * numPoints + p];
          double ci = tabIm[d][k[d] * numPoints + p];
          double r = tr * cr - ti * ci;
          ti = tr * ci + ti * cr;
          tr = r;
        }
        re += tr;
        im += ti;
      }
      double pr = 1, pi = 0;
      for (int t = 0; t < fused; ++t) {
        double r = pr * re - pi * im;
        pi = pr * im + pi * re;
        pr = r;
      }
      s[i] = {pr / double(points), pi / double(points)};
    }
  }
  std::vector<double> host(points);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (double &v : host)
    v = dist(rng);

  double *grid;
  cufftDoubleComplex *spec, *dS;
  CK(cudaMalloc(&grid, points * sizeof(double)));
  CK(cudaMalloc(&spec, half * sizeof(cufftDoubleComplex)));
  CK(cudaMalloc(&dS, half * sizeof(cufftDoubleComplex)));
  CK(cudaMemcpy(grid, host.data(), points * sizeof(double),
                cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dS, s.data(), half * sizeof(cufftDoubleComplex),
                cudaMemcpyHostToDevice));
  std::vector<int> n(dims.begin(), dims.end());
  cufftHandle fwd, inv;
  CK(cufftPlanMany(&fwd, rank, n.data(), nullptr, 1, 0, nullptr, 1, 0,
                   CUFFT_D2Z, 1));
  CK(cufftPlanMany(&inv, rank, n.data(), nullptr, 1, 0, nullptr, 1, 0,
                   CUFFT_Z2D, 1));
  auto launch = [&]() {
    CK(cufftExecD2Z(fwd, grid, spec));
    multiply<<<(half + 255) / 256, 256>>>(spec, dS, half);
    CK(cufftExecZ2D(inv, spec, grid));
  };

  if (check) {
    launch();
    std::vector<double> gpu(points);
    CK(cudaMemcpy(gpu.data(), grid, points * sizeof(double),
                  cudaMemcpyDeviceToHost));
    std::vector<double> a = host, b(points);
    std::vector<long> x(rank);
    for (int t = 0; t < fused; ++t) {
      for (size_t p = 0; p < points; ++p) {
        size_t rest = p;
        for (int d = rank - 1; d >= 0; --d) {
          x[d] = rest % dims[d];
          rest /= dims[d];
        }
        long double sum = 0;
        for (size_t q = 0; q < st.weights.size(); ++q) {
          size_t idx = 0;
          for (int d = 0; d < rank; ++d)
            idx = idx * dims[d] +
                  ((x[d] + st.offsets[q * rank + d]) % dims[d] + dims[d]) %
                      dims[d];
          sum += st.weights[q] * a[idx];
        }
        b[p] = double(sum);
      }
      std::swap(a, b);
    }
    double err = 0;
    for (size_t p = 0; p < points; ++p)
      err = std::fmax(err, std::fabs(gpu[p] - a[p]));
    std::printf("check: %d periodic steps, max abs error %.3g\n", fused, err);
    CK(cudaMemcpy(grid, host.data(), points * sizeof(double),
                  cudaMemcpyHostToDevice));
  }

  launch(); // warm-up
  CK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  CK(cudaEventRecord(start));
  for (int l = 0; l < steps / fused; ++l)
    launch();
  CK(cudaEventRecord(stop));
  CK(cudaEventSynchronize(stop));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, start, stop));
  std::string gridText = std::to_string(dims[0]);
  for (int d = 1; d < rank; ++d)
    gridText += "x" + std::to_string(dims[d]);
  std::printf("RESULT cufft grid=%s T=%d steps=%d ms=%.6f gstencil_s=%.6f\n",
              gridText.c_str(), fused, steps, ms,
              double(steps) * double(points) / (ms * 1e-3) / 1e9);
  return 0;
}
