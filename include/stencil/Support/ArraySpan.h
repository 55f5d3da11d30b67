//===- ArraySpan.h - A read-only view of contiguous elements ----*- C++ -*-===//
//
// The parameter type of the LLVM-free Support code that libStencilRuntime
// shares with the compiler (the MMA fragment models and the coefficient
// packing, CoefficientPacking.h): a pointer and a size, like llvm::ArrayRef
// (which it converts from, as from std::vector and llvm::SmallVector),
// without LLVM's headers, which the runtime's CUDA-only build does not have.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_ARRAYSPAN_H
#define STENCIL_SUPPORT_ARRAYSPAN_H

#include <cassert>
#include <cstddef>
#include <type_traits>
#include <utility>

namespace mlir {
namespace stencil {

template <typename T> class ArraySpan {
public:
  ArraySpan() = default;
  ArraySpan(const T *data, size_t size) : ptr(data), count(size) {}
  /// Any container of contiguous `T` with data() and size().
  template <typename C,
            typename = std::enable_if_t<std::is_convertible_v<
                decltype(std::declval<const C &>().data()), const T *>>>
  ArraySpan(const C &container)
      : ptr(container.data()), count(container.size()) {}
  template <size_t N> ArraySpan(const T (&array)[N]) : ptr(array), count(N) {}

  const T *data() const { return ptr; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  const T *begin() const { return ptr; }
  const T *end() const { return ptr + count; }
  const T &operator[](size_t i) const {
    assert(i < count && "ArraySpan index out of range");
    return ptr[i];
  }

private:
  const T *ptr = nullptr;
  size_t count = 0;
};

} // namespace stencil
} // namespace mlir

#endif // STENCIL_SUPPORT_ARRAYSPAN_H
