//===- CHeader.cpp - Ahead-of-time C++ headers of stencil kernels ---------===//
//
// See CHeader.h. The header embeds exactly what --to-ptx and --to-launch
// write (the description's `ptx` entry is unused: the PTX comes from
// memory), so a kernel run from the header is the kernel stencil-run checks.
//
//===----------------------------------------------------------------------===//

#include "stencil/Target/CHeader.h"
#include "DescriptionBuilder.h"
#include "HostUtil.h" // elemTypeName (runtime/lib)
#include "stencil/Dialect/Stencil/IR/LaunchRecord.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::stencil;

/// Writes `text` as a C string literal, one quoted piece per line of it.
static void writeStringLiteral(raw_ostream &os, StringRef text) {
  if (text.empty()) {
    os << "    \"\"";
    return;
  }
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    bool newline = text.size() > line.size();
    os << "    \"";
    for (char c : line) {
      if (c == '\\' || c == '"')
        os << '\\' << c;
      else if (c == '\t')
        os << "\\t";
      else if (llvm::isPrint(c))
        os << c;
      else // octal, three digits: never read together with a next digit
        os << '\\' << char('0' + ((unsigned char)c >> 6))
           << char('0' + (((unsigned char)c >> 3) & 7))
           << char('0' + ((unsigned char)c & 7));
    }
    os << (newline ? "\\n\"" : "\"");
    text = rest;
    if (!text.empty())
      os << "\n";
  }
}

static bool isIdentifier(StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Why `name` cannot name the header's function (empty when it can): a C++
/// keyword, a name reserved to the implementation, or a name the header's
/// code uses, which the function would hide.
static std::string getFunctionNameProblem(StringRef name) {
  if (!isIdentifier(name))
    return "is not a C++ identifier";
  static constexpr StringRef kKeywords[] = {
      "alignas",       "alignof",     "and",
      "and_eq",        "asm",         "auto",
      "bitand",        "bitor",       "bool",
      "break",         "case",        "catch",
      "char",          "char8_t",     "char16_t",
      "char32_t",      "class",       "compl",
      "concept",       "const",       "consteval",
      "constexpr",     "constinit",   "const_cast",
      "continue",      "co_await",    "co_return",
      "co_yield",      "decltype",    "default",
      "delete",        "do",          "double",
      "dynamic_cast",  "else",        "enum",
      "explicit",      "export",      "extern",
      "false",         "float",       "for",
      "friend",        "goto",        "if",
      "inline",        "int",         "long",
      "mutable",       "namespace",   "new",
      "noexcept",      "not",         "not_eq",
      "nullptr",       "operator",    "or",
      "or_eq",         "private",     "protected",
      "public",        "register",    "reinterpret_cast",
      "requires",      "return",      "short",
      "signed",        "sizeof",      "static",
      "static_assert", "static_cast", "struct",
      "switch",        "template",    "this",
      "thread_local",  "throw",       "true",
      "try",           "typedef",     "typeid",
      "typename",      "union",       "unsigned",
      "using",         "virtual",     "void",
      "volatile",      "wchar_t",     "while",
      "xor",           "xor_eq"};
  if (llvm::is_contained(kKeywords, name))
    return "is a C++ keyword";
  if (name.starts_with("__") ||
      (name.size() > 1 && name[0] == '_' && llvm::isUpper(name[1])))
    return "is reserved to the C++ implementation (a leading '__' or '_' "
           "and a capital)";
  static constexpr StringRef kUsed[] = {"stencil_kernel",
                                        "stencil_status",
                                        "stencil_kernel_load_memory",
                                        "stencil_kernel_destroy",
                                        "stencil_kernel_run",
                                        "CUstream",
                                        "CUdeviceptr",
                                        "int64_t",
                                        "__half",
                                        "__nv_bfloat16",
                                        "STENCIL_SUCCESS"};
  if (llvm::is_contained(kUsed, name))
    return "is a name the header's code uses";
  return "";
}

namespace {
/// What the header of one kernel is made of.
struct HeaderParts {
  std::string function; ///< the header's function (and namespace) name
  StringRef kernel, type, cType, tail;
  int64_t rank = 0, steps = 1; ///< steps: per launch
  std::string description, ptx;
};
} // namespace

/// Writes the header of `h`.
static void printHeader(raw_ostream &os, const HeaderParts &h) {
  const std::string &function = h.function;
  StringRef kernel = h.kernel, type = h.type, cType = h.cType;
  int64_t rank = h.rank, steps = h.steps;
  std::string guard = "STENCIL_KERNELS_" + StringRef(function).upper() + "_H";
  std::string sizes, sizeArgs;
  for (int64_t d = 0; d < rank; ++d) {
    sizeArgs += "int64_t n" + std::to_string(d) + ", ";
    sizes += (d ? ", n" : "n") + std::to_string(d);
  }

  os << "// " << function << ".h: kernel '" << kernel
     << "', written by stencil-translate --to-c-header; do not edit.\n"
     << "// Rank " << rank << ", element type " << type << " (" << cType
     << "), " << steps << " time step(s) per launch";
  StringRef tail = h.tail;
  if (!tail.empty())
    os << "; any number of steps\n// (the tail kernel '" << tail
       << "' does those a launch of the kernel leaves over)";
  else if (steps != 1)
    os << "; steps must be a multiple of " << steps
       << "\n// (this kernel has no tail kernel)";
  os << ". The PTX and the launch description are\n"
     << "// embedded; the kernel runs through libStencilRuntime "
        "(docs/Runtime.md):\n"
     << "// link -lStencilRuntime, with cuda.h on the include path.\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stencil-runtime/StencilRuntime.h>\n\n";
  if (type == "f16")
    os << "#include <cuda_fp16.h>\n";
  if (type == "bf16")
    os << "#include <cuda_bf16.h>\n";
  os << "#include <cstdint>\n\n"
     << "namespace stencil_kernels {\nnamespace " << function << "_detail {\n\n"
     << "/// The launch description (docs/LaunchDescription.md).\n"
     << "inline const char description[] =\n";
  writeStringLiteral(os, h.description);
  os << ";\n\n/// The PTX of the kernel's module.\ninline const char ptx[] =\n";
  writeStringLiteral(os, h.ptx);
  os << ";\n\n"
     << "/// The kernel, loaded at the first call (null when that failed).\n"
     << "inline stencil_kernel *kernel() {\n"
     << "  static stencil_kernel *k = [] {\n"
     << "    stencil_kernel *loaded = nullptr;\n"
     << "    stencil_kernel_load_memory(description, sizeof(description) - 1, "
        "ptx,\n"
     << "                               sizeof(ptx) - 1, \"" << function
     << "\", &loaded);\n"
     << "    return loaded;\n"
     << "  }();\n"
     << "  return k;\n"
     << "}\n\n"
     << "} // namespace " << function << "_detail\n\n"
     << "/// Runs `steps` time steps of '" << kernel << "' on the grid of "
     << rank << " size(s)\n"
     << "/// (outermost first) in `in`, ping-ponging with `out`, on `stream`; "
        "`*result`\n"
     << "/// is the buffer that holds the result. As stencil_kernel_run "
        "(docs/Runtime.md),\n"
     << "/// whose status and stencil_last_error() it returns.\n"
     << "inline stencil_status " << function << "(" << cType << " *in, "
     << cType << " *out, " << sizeArgs << "int64_t steps,\n"
     << "    CUstream stream = nullptr, " << cType
     << " **result = nullptr, unsigned flags = 0) {\n"
     << "  stencil_kernel *k = " << function << "_detail::kernel();\n"
     << "  if (!k) { // the load failed: again, for its status and message "
        "here\n"
     << "    stencil_status s = stencil_kernel_load_memory(\n"
     << "        " << function << "_detail::description,\n"
     << "        sizeof(" << function << "_detail::description) - 1, "
     << function << "_detail::ptx,\n"
     << "        sizeof(" << function << "_detail::ptx) - 1, \"" << function
     << "\", &k);\n"
     << "    stencil_kernel_destroy(k);\n"
     << "    return s;\n"
     << "  }\n"
     << "  const int64_t sizes[] = {" << sizes << "};\n"
     << "  CUdeviceptr r = 0;\n"
     << "  stencil_status s = stencil_kernel_run(\n"
     << "      k, reinterpret_cast<CUdeviceptr>(in), "
        "reinterpret_cast<CUdeviceptr>(out), sizes,\n"
     << "      " << rank << ", steps, stream, flags, &r);\n"
     << "  if (s == STENCIL_SUCCESS && result)\n"
     << "    *result = reinterpret_cast<" << cType << " *>(r);\n"
     << "  return s;\n"
     << "}\n\n"
     << "} // namespace stencil_kernels\n\n"
     << "#endif // " << guard << "\n";
}

/// The C++ type of the element type `type`.
static StringRef getCType(stencil_run::ElemType type) {
  switch (type) {
  case stencil_run::ElemType::F16:
    return "__half";
  case stencil_run::ElemType::BF16:
    return "__nv_bfloat16";
  case stencil_run::ElemType::F32:
    return "float";
  case stencil_run::ElemType::F64:
    return "double";
  }
  llvm_unreachable("unknown element type");
}

LogicalResult mlir::stencil::emitCHeader(Operation *module, raw_ostream &os,
                                         const CHeaderOptions &options) {
  // 1. The kernel's description (the runtime's struct and its text) and PTX.
  LaunchDescriptionOptions launch;
  launch.kernel = options.kernel;
  stencil_run::LaunchDescription desc;
  stencil_run::LaunchDescriptionNotes notes;
  if (failed(buildLaunchDescription(module, launch, desc, notes)))
    return failure();
  HeaderParts h;
  h.description = writeLaunchDescription(desc, notes);
  {
    llvm::raw_string_ostream s(h.ptx);
    if (failed(emitPTX(module, s)))
      return failure();
  }

  // 2. The entry point: its name, sizes and element type (the record's
  // verifier took a rank of 1 to 3 and f16, bf16, f32 or f64).
  h.kernel = desc.kernel;
  h.function = options.function.empty() ? desc.kernel : options.function;
  if (std::string problem = getFunctionNameProblem(h.function);
      !problem.empty())
    return mlir::emitError(getLaunchRecordsLoc(module), "--header-function: '")
           << h.function << "' " << problem
           << "; choose another name for the header's function";
  h.rank = desc.rank;
  h.type = stencil_run::elemTypeName(desc.elementType);
  h.cType = getCType(desc.elementType);
  h.steps = desc.stepsPerLaunch;
  h.tail = desc.tailKernel;
  printHeader(os, h);
  return success();
}
