//===- BodyExpr.h - general stencil bodies for the CPU reference -*- C++
//-*-===//
//
// The `body` of a launch description: the per-point expression of a
// general-form stencil (`stencil.apply`), e.g.
//
//   0.5*a(0,0) + 0.2*max(a(-1,0), a(1,0)) + 0.3*(a(0,-1)*a(0,1))
//
// Grammar (whitespace ignored):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := '-' unary | primary
//   primary := number | 'a' '(' int (',' int)* ')' | '(' expr ')'
//            | ('max' | 'min') '(' expr ',' expr ')' | 'abs' '(' expr ')'
//            | 'fma' '(' expr ',' expr ',' expr ')' | 'rnd' '(' expr ')'
//
// `a(o_0, .., o_{R-1})` is the input at the point's offset o (outermost
// dimension first). `rnd(x)` is x rounded to the evaluation's precision (a
// body computing in a wider type than the grid's converts back with it). The
// expression is compiled to a postfix program and evaluated in f64.
// `evaluateWithBound` also propagates a rigorous bound on the difference
// between the GPU's evaluation (every operation rounded to a precision with
// unit roundoff u) and the exact value (a running error analysis, Higham,
// "Accuracy and Stability of Numerical Algorithms", 3.3): with |x~ - x| <= E_x,
// |y~ - y| <= E_y and A the propagated part,
//   x +- y:  A = E_x + E_y
//   x * y:   A = |x| E_y + |y| E_x + E_x E_y
//   x / y:   A = (|x| E_y + |y| E_x) / (|y| (|y| - E_y))   (infinite if
//            |y| <= E_y)
//   fma:     A = that of x * y, plus E_z
//   max, min: max(E_x, E_y);  -x, |x|: E_x (exact operations)
//   rnd:     A = E_x
// and a rounded operation adds u (|v| + A) + eta (eta: subnormal spacing).
//
// Plain C++17: stencil-run builds without LLVM/MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUN_BODYEXPR_H
#define STENCIL_RUN_BODYEXPR_H

#include <cstdint>
#include <string>
#include <vector>

namespace stencil_run {

class BodyExpr {
public:
  /// Deepest nesting of unary minus, parentheses and function arguments
  /// that `parse` accepts (deeper: an error, so that hostile input cannot
  /// exhaust the stack).
  static constexpr size_t kMaxNesting = 256;

  /// Parses `text` for a grid of rank `rank`. On failure returns false and
  /// sets `error` (with the character position). Offsets outside int64
  /// are an error; their range is otherwise the caller's to check.
  bool parse(const std::string &text, int rank, std::string &error);

  /// The distinct offsets the body reads, in order of first appearance;
  /// `evaluate` takes their values in this order.
  const std::vector<std::vector<int64_t>> &accesses() const {
    return accessList;
  }
  /// The number of floating-point operations that round (+, -, *, /, fma,
  /// rnd).
  int roundedOps() const { return numRounded; }

  /// The body's value from the values of `accesses()`.
  double evaluate(const double *values) const;
  /// The body's value, and in `bound` a bound on |GPU value - value| when
  /// each input differs from its value by at most `inputError` and each
  /// rounded operation has unit roundoff `u` and absolute floor `eta`.
  double evaluateWithBound(const double *values, double inputError, double u,
                           double eta, double &bound) const;

private:
  enum class Op {
    Const,
    Access,
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Max,
    Min,
    Abs,
    Fma,
    Round
  };
  struct Instr {
    Op op;
    double value = 0; // Const
    int access = 0;   // Access: index into accessList
  };
  std::vector<Instr> code;
  std::vector<std::vector<int64_t>> accessList;
  int numRounded = 0;
  size_t maxDepth = 0;

  friend class BodyParser;
};

} // namespace stencil_run

#endif
