//===- BodyExpr.cpp - general stencil bodies for the CPU reference
//---------===//

#include "BodyExpr.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>

namespace stencil_run {

/// Recursive-descent parser emitting BodyExpr's postfix program.
class BodyParser {
public:
  BodyParser(const std::string &text, int rank, BodyExpr &expr)
      : text(text), rank(rank), expr(expr) {}

  bool run(std::string &error) {
    bool ok = parseExpr();
    skipSpace();
    if (ok && pos != text.size())
      ok = fail("unexpected '" + std::string(1, text[pos]) + "'");
    if (!ok) {
      error =
          "body, at character " + std::to_string(failPos + 1) + ": " + message;
      return false;
    }
    if (expr.accessList.empty()) {
      error = "body reads no input point (no a(...))";
      return false;
    }
    // The deepest evaluation stack of the program.
    size_t depth = 0;
    for (const BodyExpr::Instr &i : expr.code) {
      switch (i.op) {
      case BodyExpr::Op::Const:
      case BodyExpr::Op::Access:
        ++depth;
        break;
      case BodyExpr::Op::Neg:
      case BodyExpr::Op::Abs:
      case BodyExpr::Op::Round:
        break;
      case BodyExpr::Op::Fma:
        depth -= 2;
        break;
      default:
        --depth;
      }
      expr.maxDepth = std::max(expr.maxDepth, depth);
    }
    return true;
  }

private:
  using Op = BodyExpr::Op;

  bool fail(const std::string &m) { return failAt(pos, m); }
  bool failAt(size_t at, const std::string &m) {
    if (message.empty()) {
      message = m;
      failPos = at;
    }
    return false;
  }
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool expect(char c) {
    return consume(c) || fail(std::string("expected '") + c + "'");
  }
  void emit(Op op, double value = 0, int access = 0) {
    expr.code.push_back({op, value, access});
    if (op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div ||
        op == Op::Fma || op == Op::Round)
      ++expr.numRounded;
  }

  /// operand (op operand)* for the two left-associative operators of one
  /// precedence level, `first` emitting `firstOp` and `second` `secondOp`.
  bool parseLeftAssociative(bool (BodyParser::*parseOperand)(), char first,
                            Op firstOp, char second, Op secondOp) {
    if (!(this->*parseOperand)())
      return false;
    while (true) {
      Op op;
      if (consume(first))
        op = firstOp;
      else if (consume(second))
        op = secondOp;
      else
        return true;
      if (!(this->*parseOperand)())
        return false;
      emit(op);
    }
  }

  bool parseExpr() {
    return parseLeftAssociative(&BodyParser::parseTerm, '+', Op::Add, '-',
                                Op::Sub);
  }

  bool parseTerm() {
    return parseLeftAssociative(&BodyParser::parseUnary, '*', Op::Mul, '/',
                                Op::Div);
  }

  bool parseUnary() {
    // Every nesting (unary minus, parentheses, a function's arguments)
    // passes here: bound the recursion (and so the evaluation stack).
    if (nesting >= BodyExpr::kMaxNesting)
      return fail("nested more than " + std::to_string(BodyExpr::kMaxNesting) +
                  " levels deep");
    ++nesting;
    bool ok = parseUnaryUnbounded();
    --nesting;
    return ok;
  }

  bool parseUnaryUnbounded() {
    if (consume('-')) {
      if (!parseUnary())
        return false;
      emit(Op::Neg);
      return true;
    }
    return parsePrimary();
  }

  /// `count` comma-separated expressions in parentheses.
  bool parseArgs(int count) {
    if (!expect('('))
      return false;
    for (int i = 0; i < count; ++i) {
      if (i && !expect(','))
        return false;
      if (!parseExpr())
        return false;
    }
    return expect(')');
  }

  /// After the name `a` that starts at `start`.
  bool parseAccess(size_t start) {
    if (!expect('('))
      return false;
    std::vector<int64_t> offset;
    do {
      skipSpace();
      const char *begin = text.c_str() + pos;
      char *end = nullptr;
      errno = 0;
      long long v = std::strtoll(begin, &end, 10);
      if (end == begin || errno)
        return fail("expected an integer offset");
      pos += static_cast<size_t>(end - begin);
      offset.push_back(v);
    } while (consume(','));
    if (!expect(')'))
      return false;
    if (static_cast<int>(offset.size()) != rank)
      return failAt(start, "a(...) needs " + std::to_string(rank) +
                               " offsets, got " +
                               std::to_string(offset.size()));
    // A map, not a search of accessList: a long body of distinct accesses
    // parses in n log n.
    auto it =
        accessIndex.emplace(offset, static_cast<int>(accessIndex.size())).first;
    if (it->second == static_cast<int>(expr.accessList.size()))
      expr.accessList.push_back(offset);
    emit(Op::Access, 0, it->second);
    return true;
  }

  bool parsePrimary() {
    skipSpace();
    if (pos >= text.size())
      return fail("unexpected end of the body");
    char c = text[pos];
    if (c == '(') {
      ++pos;
      return parseExpr() && expect(')');
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char *begin = text.c_str() + pos;
      char *end = nullptr;
      errno = 0;
      double v = std::strtod(begin, &end);
      if (end == begin || errno || !std::isfinite(v))
        return fail("bad number");
      pos += static_cast<size_t>(end - begin);
      emit(Op::Const, v);
      return true;
    }
    size_t start = pos;
    while (pos < text.size() &&
           std::isalpha(static_cast<unsigned char>(text[pos])))
      ++pos;
    std::string name = text.substr(start, pos - start);
    if (name == "a")
      return parseAccess(start);
    if (name == "max" || name == "min") {
      if (!parseArgs(2))
        return false;
      emit(name == "max" ? Op::Max : Op::Min);
      return true;
    }
    if (name == "abs" || name == "rnd") {
      if (!parseArgs(1))
        return false;
      emit(name == "abs" ? Op::Abs : Op::Round);
      return true;
    }
    if (name == "fma") {
      if (!parseArgs(3))
        return false;
      emit(Op::Fma);
      return true;
    }
    pos = start;
    return fail(name.empty() ? "expected a number, a(...), a function or '('"
                             : "unknown function '" + name + "'");
  }

  const std::string &text;
  int rank;
  BodyExpr &expr;
  size_t pos = 0;
  size_t failPos = 0;
  std::string message;
  size_t nesting = 0;
  std::map<std::vector<int64_t>, int> accessIndex;
};

bool BodyExpr::parse(const std::string &text, int rank, std::string &error) {
  *this = BodyExpr();
  return BodyParser(text, rank, *this).run(error);
}

double BodyExpr::evaluate(const double *values) const {
  double bound;
  return evaluateWithBound(values, 0, 0, 0, bound);
}

double BodyExpr::evaluateWithBound(const double *values, double inputError,
                                   double u, double eta, double &bound) const {
  // Small fixed stacks: bodies are short; fall back to the heap otherwise.
  constexpr size_t kInline = 32;
  double vInline[kInline] = {}, eInline[kInline] = {};
  std::vector<double> vHeap, eHeap;
  double *v = vInline, *e = eInline;
  if (maxDepth > kInline) {
    vHeap.resize(maxDepth);
    eHeap.resize(maxDepth);
    v = vHeap.data();
    e = eHeap.data();
  }
  const double inf = std::numeric_limits<double>::infinity();
  size_t sp = 0;
  auto rounded = [&](double value, double propagated) {
    return propagated + u * (std::fabs(value) + propagated) + eta;
  };
  for (const Instr &i : code) {
    switch (i.op) {
    case Op::Const:
      v[sp] = i.value;
      e[sp++] = 0;
      break;
    case Op::Access:
      v[sp] = values[i.access];
      e[sp++] = inputError;
      break;
    case Op::Neg:
      v[sp - 1] = -v[sp - 1];
      break;
    case Op::Abs:
      v[sp - 1] = std::fabs(v[sp - 1]);
      break;
    case Op::Round: // the value is the exact one; only the bound grows
      e[sp - 1] = rounded(v[sp - 1], e[sp - 1]);
      break;
    case Op::Fma: {
      double x = v[sp - 3], y = v[sp - 2], z = v[sp - 1];
      double ex = e[sp - 3], ey = e[sp - 2], ez = e[sp - 1];
      sp -= 2;
      v[sp - 1] = x * y + z;
      e[sp - 1] = rounded(v[sp - 1],
                          std::fabs(x) * ey + std::fabs(y) * ex + ex * ey + ez);
      break;
    }
    default: {
      double x = v[sp - 2], y = v[sp - 1];
      double ex = e[sp - 2], ey = e[sp - 1];
      --sp;
      double r = 0, a = 0;
      switch (i.op) {
      case Op::Add:
        r = x + y;
        a = rounded(r, ex + ey);
        break;
      case Op::Sub:
        r = x - y;
        a = rounded(r, ex + ey);
        break;
      case Op::Mul:
        r = x * y;
        a = rounded(r, std::fabs(x) * ey + std::fabs(y) * ex + ex * ey);
        break;
      case Op::Div:
        r = x / y;
        a = std::fabs(y) > ey
                ? rounded(r, (std::fabs(x) * ey + std::fabs(y) * ex) /
                                 (std::fabs(y) * (std::fabs(y) - ey)))
                : inf;
        break;
      case Op::Max:
        r = std::max(x, y);
        a = std::max(ex, ey);
        break;
      case Op::Min:
        r = std::min(x, y);
        a = std::max(ex, ey);
        break;
      default:
        break;
      }
      v[sp - 1] = r;
      e[sp - 1] = a;
    }
    }
  }
  bound = e[0];
  return v[0];
}

} // namespace stencil_run
