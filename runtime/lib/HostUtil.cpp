//===- HostUtil.cpp - element types, .npy files, CPU reference ------------===//

#include "HostUtil.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <random>
#include <thread>

namespace stencil_run {

namespace {
/// What the host code knows of an element type: its name, its bytes, its
/// binary format (significand bits with the implicit one, the exponents of
/// the smallest normal and of the largest finite), and the .npy dtype it is
/// written as (bf16 as f4: NumPy has no bfloat16).
struct ElemTypeInfo {
  ElemType type;
  const char *name;
  unsigned bytes;
  int precision, emin, emax;
  const char *npyDtype;
};

constexpr ElemTypeInfo kElemTypes[] = {
    {ElemType::F16, "f16", 2, 11, -14, 15, "<f2"},
    {ElemType::BF16, "bf16", 2, 8, -126, 127, "<f4"},
    {ElemType::F32, "f32", 4, 24, -126, 127, "<f4"},
    {ElemType::F64, "f64", 8, 53, -1022, 1023, "<f8"},
};

const ElemTypeInfo &getInfo(ElemType t) {
  for (const ElemTypeInfo &info : kElemTypes)
    if (info.type == t)
      return info;
  return kElemTypes[3];
}
} // namespace

bool parseElemType(const std::string &s, ElemType &t) {
  for (const ElemTypeInfo &info : kElemTypes)
    if (s == info.name) {
      t = info.type;
      return true;
    }
  return false;
}

const char *elemTypeName(ElemType t) { return getInfo(t).name; }

unsigned elemTypeBytes(ElemType t) { return getInfo(t).bytes; }

double unitRoundoff(ElemType t) {
  return std::ldexp(1.0, -getInfo(t).precision);
}

double subnormalSpacing(ElemType t) {
  const ElemTypeInfo &f = getInfo(t);
  return std::ldexp(1.0, f.emin - (f.precision - 1));
}

namespace {
/// 2^k for -1022 <= k <= 1023, from its bits.
double pow2(int k) {
  uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}
} // namespace

double roundTo(ElemType t, double x) {
  if (t == ElemType::F64 || !std::isfinite(x) || x == 0.0)
    return x;
  if (t == ElemType::F32)
    return static_cast<double>(static_cast<float>(x)); // RNE
  const ElemTypeInfo &f = getInfo(t);
  // The quantum of x in the target format: 2^(e - p + 1) with e the
  // exponent of x (from its bits: x is a nonzero finite double) clamped to
  // the smallest normal's. Scaling by powers of two is exact here, and
  // nearbyint rounds to nearest even in the default rounding mode.
  uint64_t bits;
  std::memcpy(&bits, &x, 8);
  int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  int q = std::max(e, f.emin) - (f.precision - 1);
  double r = std::nearbyint(x * pow2(-q)) * pow2(q);
  double maxFinite = (2.0 - pow2(1 - f.precision)) * pow2(f.emax);
  if (std::fabs(r) > maxFinite)
    return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

uint16_t encodeF16(double v) {
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return 0x7e00;
  double a = std::fabs(v);
  if (std::isinf(a) || a > 65504.0)
    return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) // subnormal or zero: a = mant * 2^-24
    return sign | static_cast<uint16_t>(std::ldexp(a, 24));
  int e2;
  std::frexp(a, &e2);
  int e = e2 - 1; // a in [2^e, 2^(e+1))
  auto mant = static_cast<uint16_t>(std::ldexp(a, 10 - e) - 1024.0);
  return sign | static_cast<uint16_t>((e + 15) << 10) | mant;
}

double decodeF16(uint16_t bits) {
  int exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(static_cast<double>(mant), -24);
  else if (exp == 31)
    v = mant ? std::numeric_limits<double>::quiet_NaN()
             : std::numeric_limits<double>::infinity();
  else
    v = std::ldexp(static_cast<double>(1024 + mant), exp - 25);
  return (bits & 0x8000) ? -v : v;
}

uint16_t encodeBF16(double v) {
  if (std::isnan(v))
    return 0x7fc0;
  float f = static_cast<float>(v); // exact for bf16-representable v
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>(u >> 16);
}

double decodeBF16(uint16_t bits) {
  uint32_t u = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

void parallelRanges(size_t n, unsigned threads,
                    const std::function<void(size_t, size_t)> &fn,
                    size_t minPerThread) {
  size_t usable = std::max<size_t>(
      1, std::min<size_t>(threads, n / std::max<size_t>(1, minPerThread)));
  if (usable <= 1) {
    fn(0, n);
    return;
  }
  std::vector<std::thread> pool;
  for (size_t id = 0; id < usable; ++id)
    pool.emplace_back(fn, n * id / usable, n * (id + 1) / usable);
  for (auto &th : pool)
    th.join();
}

namespace {
/// decodeF16 of every bit pattern.
const std::vector<double> &f16Table() {
  static const std::vector<double> table = [] {
    std::vector<double> t(1 << 16);
    for (uint32_t bits = 0; bits < t.size(); ++bits)
      t[bits] = decodeF16(static_cast<uint16_t>(bits));
    return t;
  }();
  return table;
}
} // namespace

std::vector<uint8_t> packElements(const std::vector<double> &values, ElemType t,
                                  unsigned threads) {
  unsigned b = elemTypeBytes(t);
  std::vector<uint8_t> out(values.size() * b);
  parallelRanges(values.size(), threads, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      uint8_t *p = out.data() + i * b;
      switch (t) {
      case ElemType::F16: {
        uint16_t h = encodeF16(values[i]);
        std::memcpy(p, &h, 2);
        break;
      }
      case ElemType::BF16: {
        uint16_t h = encodeBF16(values[i]);
        std::memcpy(p, &h, 2);
        break;
      }
      case ElemType::F32: {
        float f = static_cast<float>(values[i]);
        std::memcpy(p, &f, 4);
        break;
      }
      case ElemType::F64:
        std::memcpy(p, &values[i], 8);
        break;
      }
    }
  });
  return out;
}

std::vector<double> unpackElements(const std::vector<uint8_t> &bytes,
                                   ElemType t, unsigned threads) {
  unsigned b = elemTypeBytes(t);
  std::vector<double> out(bytes.size() / b);
  const double *f16 = t == ElemType::F16 ? f16Table().data() : nullptr;
  parallelRanges(out.size(), threads, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const uint8_t *p = bytes.data() + i * b;
      switch (t) {
      case ElemType::F16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        out[i] = f16[h];
        break;
      }
      case ElemType::BF16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        out[i] = decodeBF16(h);
        break;
      }
      case ElemType::F32: {
        float f;
        std::memcpy(&f, p, 4);
        out[i] = f;
        break;
      }
      case ElemType::F64:
        std::memcpy(&out[i], p, 8);
        break;
      }
    }
  });
  return out;
}

std::vector<double> randomInput(size_t n, ElemType t, uint64_t seed,
                                unsigned threads) {
  return randomInputRange(0, n, t, seed, threads);
}

std::vector<double> randomInputRange(size_t first, size_t count, ElemType t,
                                     uint64_t seed, unsigned threads) {
  constexpr unsigned kChunkBits = 16;
  std::vector<double> values(count);
  if (count == 0)
    return values;
  const size_t last = first + count;
  const size_t firstChunk = first >> kChunkBits;
  const size_t chunks = ((last - 1) >> kChunkBits) + 1 - firstChunk;
  parallelRanges(
      chunks, threads,
      [&](size_t begin, size_t end) {
        for (size_t c = firstChunk + begin; c < firstChunk + end; ++c) {
          std::mt19937_64 rng(seed + c * 0x9E3779B97F4A7C15ull);
          size_t from = std::max(first, c << kChunkBits);
          rng.discard(from - (c << kChunkBits));
          size_t to = std::min(last, (c + 1) << kChunkBits);
          for (size_t i = from; i < to; ++i)
            values[i - first] = roundTo(
                t, std::ldexp(static_cast<double>(rng() >> 11), -52) - 1.0);
        }
      },
      /*minPerThread=*/1);
  return values;
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

const char *npyDtypeFor(ElemType t) { return getInfo(t).npyDtype; }

namespace {
// Value of `key` in the header dict, as the raw text after the colon.
bool npyField(const std::string &header, const std::string &key,
              std::string &value) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    k = header.find("\"" + key + "\"");
  if (k == std::string::npos)
    return false;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return false;
  size_t v = header.find_first_not_of(" \t", colon + 1);
  if (v == std::string::npos)
    return false;
  size_t end;
  if (header[v] == '(') {
    end = header.find(')', v);
    if (end == std::string::npos)
      return false;
    ++end;
  } else if (header[v] == '\'' || header[v] == '"') {
    end = header.find(header[v], v + 1);
    if (end == std::string::npos)
      return false;
    ++end;
  } else {
    end = header.find_first_of(",}", v);
    if (end == std::string::npos)
      end = header.size();
  }
  value = header.substr(v, end - v);
  return true;
}
} // namespace

namespace {
/// The header text for messages: at most 200 characters, the rest elided.
std::string headerForMessage(const std::string &header) {
  std::string shown = header.substr(0, 200);
  for (char &c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      c = '?';
  return header.size() > 200 ? shown + "..." : shown;
}

/// Bytes left in `in` after the current position, or -1 when the stream
/// cannot tell (not seekable: a pipe). Leaves the position where it was.
int64_t remainingBytes(std::istream &in) {
  std::streampos here = in.tellg();
  if (here == std::streampos(-1)) {
    in.clear();
    return -1;
  }
  in.seekg(0, std::ios::end);
  std::streampos end = in.tellg();
  in.clear();
  in.seekg(here);
  if (end == std::streampos(-1) || !in || end < here) {
    in.clear();
    in.seekg(here);
    return -1;
  }
  return static_cast<int64_t>(end - here);
}
} // namespace

bool readNpy(const std::string &path, std::vector<int64_t> &shape,
             std::vector<double> &values, std::string &dtype,
             std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  return readNpy(in, path, shape, values, dtype, error);
}

namespace {
/// The header dictionary of a .npy stream after its magic, version and
/// length (versions 1 to 3), within kMaxNpyHeaderBytes and what the stream
/// holds.
bool readNpyHeader(std::istream &in, const std::string &path,
                   std::string &header, std::string &error) {
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    error = "'" + path + "' is not a .npy file";
    return false;
  }
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLen = 0;
  if (major == 1) {
    unsigned char l[2];
    if (!in.read(reinterpret_cast<char *>(l), 2)) {
      error = "'" + path + "': truncated header";
      return false;
    }
    headerLen = l[0] | (l[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char l[4];
    if (!in.read(reinterpret_cast<char *>(l), 4)) {
      error = "'" + path + "': truncated header";
      return false;
    }
    headerLen = l[0] | (l[1] << 8) | (l[2] << 16) | (uint32_t(l[3]) << 24);
  } else {
    error = "'" + path + "': unsupported .npy version " + std::to_string(major);
    return false;
  }
  if (headerLen > kMaxNpyHeaderBytes) {
    error = "'" + path + "': header length " + std::to_string(headerLen) +
            " exceeds the limit of " + std::to_string(kMaxNpyHeaderBytes) +
            " bytes";
    return false;
  }
  int64_t headerAvail = remainingBytes(in);
  if (headerAvail >= 0 && headerAvail < static_cast<int64_t>(headerLen)) {
    error = "'" + path + "': truncated header (" + std::to_string(headerLen) +
            " bytes announced, " + std::to_string(headerAvail) + " present)";
    return false;
  }
  header.assign(headerLen, '\0');
  if (headerLen && !in.read(&header[0], headerLen)) {
    error = "'" + path + "': truncated header";
    return false;
  }
  return true;
}

/// The header's descr ('<f2', '<f4', '<f8', quoted) and fortran_order
/// (False): the dtype and its bytes per element.
bool parseNpyType(const std::string &path, const std::string &descr,
                  std::string fortran, std::string &type, unsigned &bytes,
                  std::string &error) {
  if (descr.size() < 2 || (descr[0] != '\'' && descr[0] != '"') ||
      descr.back() != descr[0]) {
    error = "'" + path +
            "': descr is not a quoted string: " + headerForMessage(descr);
    return false;
  }
  type = descr.substr(1, descr.size() - 2);
  if (type == "<f2")
    bytes = 2;
  else if (type == "<f4")
    bytes = 4;
  else if (type == "<f8")
    bytes = 8;
  else {
    error = "'" + path + "': dtype '" + headerForMessage(type) +
            "' not supported (need '<f2', '<f4' or '<f8')";
    return false;
  }
  size_t fEnd = fortran.find_last_not_of(" \t\r\n");
  fortran.erase(fEnd == std::string::npos ? 0 : fEnd + 1);
  if (fortran == "True") {
    error = "'" + path + "': Fortran-order arrays are not supported";
    return false;
  }
  if (fortran != "False") {
    error = "'" + path + "': fortran_order is '" + headerForMessage(fortran) +
            "' (need True or False)";
    return false;
  }
  return true;
}

/// The header's shape: a tuple of non-negative integers, "()" for a
/// scalar, "(n,)" for one dimension.
bool parseNpyShape(const std::string &path, const std::string &shapeText,
                   std::vector<int64_t> &dims, std::string &error) {
  if (shapeText.size() < 2 || shapeText.front() != '(' ||
      shapeText.back() != ')') {
    error = "'" + path + "': bad shape " + headerForMessage(shapeText);
    return false;
  }
  std::string inner = shapeText.substr(1, shapeText.size() - 2);
  size_t i = 0;
  while (true) {
    size_t j = inner.find(',', i);
    std::string item =
        inner.substr(i, j == std::string::npos ? std::string::npos : j - i);
    size_t b = item.find_first_not_of(" \t");
    item = b == std::string::npos
               ? std::string()
               : item.substr(b, item.find_last_not_of(" \t") - b + 1);
    bool last = j == std::string::npos;
    if (item.empty()) {
      // Only "()" and the trailing comma of "(n,)" / "(n, m,)" leave an
      // empty item.
      if (!last || (dims.empty() && i != 0)) {
        error = "'" + path + "': bad shape " + headerForMessage(shapeText);
        return false;
      }
      return true;
    }
    if (item.back() == 'L') // Python 2 long
      item.pop_back();
    char *end = nullptr;
    errno = 0;
    long long v = item.empty() ? 0 : std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || errno || end != item.c_str() + item.size() ||
        (!std::isdigit(static_cast<unsigned char>(item[0])) &&
         item[0] != '-')) {
      error = "'" + path + "': bad shape " + headerForMessage(shapeText);
      return false;
    }
    if (v < 0) {
      error = "'" + path + "': negative dimension " + std::to_string(v) +
              " in shape " + headerForMessage(shapeText);
      return false;
    }
    dims.push_back(v);
    if (last)
      return true;
    i = j + 1;
  }
}

/// The data of `dims` elements of `bytes` each: its size computed without
/// overflow and checked against what the stream holds before anything that
/// large is allocated.
bool readNpyData(std::istream &in, const std::string &path,
                 const std::string &shapeText, const std::vector<int64_t> &dims,
                 unsigned bytes, std::vector<uint8_t> &raw,
                 std::string &error) {
  uint64_t n = 1;
  for (int64_t d : dims) {
    if (d != 0 && n > std::numeric_limits<uint64_t>::max() / bytes /
                          static_cast<uint64_t>(d)) {
      error = "'" + path + "': shape " + headerForMessage(shapeText) +
              " is too large (the data size overflows)";
      return false;
    }
    n *= static_cast<uint64_t>(d);
  }
  uint64_t need = n * bytes;
  if (need > std::numeric_limits<size_t>::max() / 8) {
    error = "'" + path + "': shape " + headerForMessage(shapeText) +
            " is too large";
    return false;
  }
  int64_t avail = remainingBytes(in);
  if (avail >= 0) {
    if (static_cast<uint64_t>(avail) < need) {
      error = "'" + path + "': truncated data (shape " +
              headerForMessage(shapeText) + " needs " + std::to_string(need) +
              " bytes, " + std::to_string(avail) + " present)";
      return false;
    }
    raw.resize(static_cast<size_t>(need));
    if (need && !in.read(reinterpret_cast<char *>(raw.data()),
                         static_cast<std::streamsize>(need))) {
      error = "'" + path + "': truncated data";
      return false;
    }
    return true;
  }
  // Not seekable: read in chunks, so that memory follows the data read.
  constexpr size_t kChunk = size_t(1) << 20;
  while (raw.size() < need) {
    size_t old = raw.size();
    size_t chunk = std::min<size_t>(kChunk, static_cast<size_t>(need) - old);
    raw.resize(old + chunk);
    if (!in.read(reinterpret_cast<char *>(raw.data() + old),
                 static_cast<std::streamsize>(chunk))) {
      error = "'" + path + "': truncated data (shape " +
              headerForMessage(shapeText) + " needs " + std::to_string(need) +
              " bytes)";
      return false;
    }
  }
  return true;
}
} // namespace

bool readNpy(std::istream &in, const std::string &path,
             std::vector<int64_t> &shape, std::vector<double> &values,
             std::string &dtype, std::string &error) {
  shape.clear();
  values.clear();
  dtype.clear();
  std::string header;
  if (!readNpyHeader(in, path, header, error))
    return false;
  std::string descr, fortran, shapeText;
  if (!npyField(header, "descr", descr) ||
      !npyField(header, "fortran_order", fortran) ||
      !npyField(header, "shape", shapeText)) {
    error = "'" + path + "': malformed header: " + headerForMessage(header);
    return false;
  }
  std::string type;
  unsigned bytes = 0;
  std::vector<int64_t> dims;
  std::vector<uint8_t> raw;
  if (!parseNpyType(path, descr, fortran, type, bytes, error) ||
      !parseNpyShape(path, shapeText, dims, error) ||
      !readNpyData(in, path, shapeText, dims, bytes, raw, error))
    return false;
  values = unpackElements(raw, bytes == 2   ? ElemType::F16
                               : bytes == 4 ? ElemType::F32
                                            : ElemType::F64);
  shape = dims;
  dtype = type;
  return true;
}

bool writeNpy(const std::string &path, const std::vector<int64_t> &shape,
              const std::vector<double> &values, const std::string &dtype,
              std::string &error) {
  ElemType t;
  if (dtype == "<f2")
    t = ElemType::F16;
  else if (dtype == "<f4")
    t = ElemType::F32;
  else if (dtype == "<f8")
    t = ElemType::F64;
  else {
    error = "unsupported dtype " + dtype;
    return false;
  }
  std::string shapeText = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    shapeText += std::to_string(shape[i]) +
                 (shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : ""));
  shapeText += ")";
  std::string header = "{'descr': '" + dtype +
                       "', 'fortran_order': False, 'shape': " + shapeText +
                       ", }";
  // Version 1.0: magic(6) + version(2) + len(2) + header, padded with spaces
  // and ending in '\n' so that the data starts at a multiple of 64.
  size_t total = 10 + header.size() + 1;
  size_t padded = (total + 63) / 64 * 64;
  header.append(padded - total, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  unsigned char l[2] = {static_cast<unsigned char>(header.size() & 0xff),
                        static_cast<unsigned char>(header.size() >> 8)};
  out.write(reinterpret_cast<char *>(l), 2);
  out.write(header.data(), header.size());
  std::vector<uint8_t> raw = packElements(values, t);
  out.write(reinterpret_cast<char *>(raw.data()), raw.size());
  if (!out) {
    error = "error writing '" + path + "'";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// CPU reference
//===----------------------------------------------------------------------===//

void interiorBounds(const ReferenceStencil &s, std::vector<int64_t> &lo,
                    std::vector<int64_t> &hi) {
  lo.assign(s.rank, 0);
  hi.assign(s.rank, 0);
  for (int d = 0; d < s.rank; ++d) {
    hi[d] = s.dims[d] - 1;
    if (s.boundary != Boundary::Halo)
      continue;
    // The dialect's halo has the symmetric width r_d = max |o_d| on both
    // sides (docs/Rationale.md), even for an asymmetric pattern.
    int64_t r = 0;
    for (const auto &o : s.offsets)
      r = std::max<int64_t>(r, o[d] < 0 ? -o[d] : o[d]);
    lo[d] = r;
    hi[d] -= r;
  }
}

std::vector<double> runReference(const ReferenceStencil &s,
                                 const std::vector<double> &input, int steps,
                                 unsigned threads, double &maxAbs,
                                 const BodyRounding &rounding,
                                 double *bodyBound) {
  // Pad to 3-D: (D0, D1, D2), the last contiguous.
  int pad = 3 - s.rank;
  int64_t D[3] = {1, 1, 1};
  for (int d = 0; d < s.rank; ++d)
    D[pad + d] = s.dims[d];
  std::vector<int64_t> lo0, hi0;
  interiorBounds(s, lo0, hi0);
  int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int d = 0; d < s.rank; ++d) {
    lo[pad + d] = lo0[d];
    hi[pad + d] = hi0[d];
  }
  // Offsets padded to 3-D, their linear distance, and the radius per dim.
  size_t P = s.offsets.size();
  std::vector<std::array<int64_t, 3>> off(P, {0, 0, 0});
  std::vector<int64_t> delta(P);
  int64_t radius[3] = {0, 0, 0};
  for (size_t i = 0; i < P; ++i) {
    for (int d = 0; d < s.rank; ++d)
      off[i][pad + d] = s.offsets[i][d];
    for (int d = 0; d < 3; ++d)
      radius[d] = std::max<int64_t>(radius[d], std::abs(off[i][d]));
    delta[i] = (off[i][0] * D[1] + off[i][1]) * D[2] + off[i][2];
  }

  maxAbs = 0;
  for (double v : input)
    maxAbs = std::max(maxAbs, std::fabs(v));
  if (s.boundary == Boundary::Dirichlet)
    maxAbs = std::max(maxAbs, std::fabs(s.dirichletValue));
  std::vector<double> a = input, b = input;
  bool empty = lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2];
  int64_t rows = empty ? 0 : (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1);
  if (threads == 0)
    threads = 1;
  threads = static_cast<unsigned>(
      std::max<int64_t>(1, std::min<int64_t>(threads, rows)));
  std::vector<double> threadMax(threads, 0.0), threadBound(threads, 0.0);
  double inputBound = 0; // the previous step's bound (general bodies)
  for (int t = 0; t < steps && !empty; ++t) {
    const double *src = a.data();
    double *dst = b.data();
    auto work = [&](unsigned id) {
      int64_t r0 = rows * id / threads, r1 = rows * (id + 1) / threads;
      double m = threadMax[id], bound = 0;
      int64_t ny = hi[1] - lo[1] + 1;
      std::vector<double> values(P);
      for (int64_t r = r0; r < r1; ++r) {
        int64_t z = lo[0] + r / ny, y = lo[1] + r % ny;
        int64_t base = (z * D[1] + y) * D[2];
        bool rowInside = z >= radius[0] && z < D[0] - radius[0] &&
                         y >= radius[1] && y < D[1] - radius[1];
        for (int64_t x = lo[2]; x <= hi[2]; ++x) {
          const double *c = src + base + x;
          bool inside = rowInside && x >= radius[2] && x < D[2] - radius[2];
          double sum = 0.0, error = 0.0;
          if (inside && !s.body) { // the common case, without the gather
            for (size_t i = 0; i < P; ++i)
              sum += s.weights[i] * c[delta[i]];
          } else {
            // The neighbours; outside the grid they wrap (periodic) or read
            // the Dirichlet value (the halo boundary never reads outside).
            for (size_t i = 0; i < P; ++i) {
              if (inside) {
                values[i] = c[delta[i]];
                continue;
              }
              int64_t p[3] = {z + off[i][0], y + off[i][1], x + off[i][2]};
              bool outside = false;
              for (int d = 0; d < 3; ++d) {
                if (p[d] >= 0 && p[d] < D[d])
                  continue;
                outside = true;
                p[d] = ((p[d] % D[d]) + D[d]) % D[d];
              }
              values[i] = outside && s.boundary == Boundary::Dirichlet
                              ? s.dirichletValue
                              : src[(p[0] * D[1] + p[1]) * D[2] + p[2]];
            }
            if (s.body) {
              sum = s.body->evaluateWithBound(values.data(), inputBound,
                                              rounding.u, rounding.eta, error);
            } else {
              for (size_t i = 0; i < P; ++i)
                sum += s.weights[i] * values[i];
            }
          }
          double v = roundTo(s.elementType, sum);
          if (s.body) // the reference's own rounding adds to the bound
            bound = std::max(bound, error + std::fabs(v - sum));
          dst[base + x] = v;
          m = std::max(m, std::fabs(v));
        }
      }
      threadMax[id] = m;
      threadBound[id] = bound;
    };
    if (threads == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      for (unsigned id = 0; id < threads; ++id)
        pool.emplace_back(work, id);
      for (auto &th : pool)
        th.join();
    }
    std::swap(a, b);
    double stepBound = 0;
    for (double e : threadBound)
      stepBound = std::max(stepBound, e);
    inputBound = stepBound;
  }
  for (double m : threadMax)
    maxAbs = std::max(maxAbs, m);
  if (bodyBound)
    *bodyBound = inputBound;
  return a;
}

} // namespace stencil_run

int64_t stencil_run::countBandTiles(const std::vector<int64_t> &dims,
                                    const std::vector<int64_t> &tile,
                                    const std::vector<int64_t> &margins) {
  int64_t all = 1, inner = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t n = (dims[d] + tile[d] - 1) / tile[d];
    int64_t lo = std::min(n, (margins[d] + tile[d] - 1) / tile[d]);
    int64_t hi = n;
    if (margins[d] != 0)
      hi = std::max(lo, dims[d] >= margins[d] ? (dims[d] - margins[d]) / tile[d]
                                              : int64_t(0));
    all *= n;
    inner *= hi - lo;
  }
  return all - inner;
}
