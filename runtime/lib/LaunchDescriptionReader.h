//===- LaunchDescriptionReader.h - The readers' shared steps ----*- C++ -*-===//
//
// Private to the launch description codec (LaunchDescription.h,
// LaunchProgram.h): what the reader of one kernel's description and the
// reader of a program share. The text is split into sections of
// `key = value` lines (a description of version 1 is one section, the
// header; a program adds `[buffer NAME]`, `[kernel NAME]` and
// `[launch KERNEL]` sections), and a kernel's keys, the whole of a version 1
// file or one `[kernel NAME]` section, are read by one function.
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUN_LAUNCHDESCRIPTIONREADER_H
#define STENCIL_RUN_LAUNCHDESCRIPTIONREADER_H

#include "LaunchDescription.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stencil_run {
namespace detail {

/// `s` without the spaces, tabs and line ends around it.
std::string trim(const std::string &s);
/// `s` split at `sep`, each item trimmed; a trailing `sep` gives a last
/// empty item.
std::vector<std::string> split(const std::string &s, char sep);
/// A decimal integer, or a finite f64 (strtoll, strtod), that is the whole
/// of `s` and in range; false otherwise.
bool parseInt(const std::string &s, int64_t &v);
bool parseDouble(const std::string &s, double &v);
/// Integers separated by `,`; at least one.
bool parseIntList(const std::string &s, std::vector<int64_t> &out);
/// A name a description gives a PTX symbol or a program's buffer, kernel or
/// argument: 1 to 255 letters, digits, `_`, `$` and `.`.
bool isName(const std::string &name);

/// The name of `value` in `table` (pairs of a value and its name, as the
/// files spell it); `fallback` where it has none.
template <typename T, size_t N>
const char *getName(const std::pair<T, const char *> (&table)[N], T value,
                    const char *fallback) {
  for (const auto &[entry, name] : table)
    if (entry == value)
      return name;
  return fallback;
}

/// The value `name` names in `table`; false when none.
template <typename T, size_t N>
bool parseName(const std::pair<T, const char *> (&table)[N],
               const std::string &name, T &value) {
  for (const auto &[entry, entryName] : table)
    if (name == entryName) {
      value = entry;
      return true;
    }
  return false;
}

/// A section's `key = value` lines: the value and its line, by key.
using KeyValues = std::map<std::string, std::pair<std::string, size_t>>;

/// One section of a description: the header (the lines before the first
/// `[kind name]` line; empty `kind`) or a `[kind name]` section.
struct Section {
  std::string kind;
  std::string name;
  size_t line = 0; ///< the `[kind name]` line; 0 for the header
  KeyValues kv;
};

/// Splits `text` into sections (the header first, then one per `[kind
/// name]` line, in order): `#` starts a comment, blank lines are skipped,
/// each key appears once per section. A line that holds no `=` and starts
/// with `[` opens a section (one that does was a `key = value` line in
/// version 1, and stays one). Fails with `path:line: ` and a message.
bool readSections(const std::string &text, const std::string &path,
                  std::vector<Section> &sections, std::string &error);

/// Reads the keys of one kernel into `desc`: a whole description of version
/// 1 (`section` null: `version` must be 1), or a program's `[kernel NAME]`
/// section, whose `rank` and `ptx` the program's header supplies where the
/// section gives none (the caller adds them to `kv`) and whose `args` may
/// name their arguments (`name:role`); `argNames` then gets each
/// argument's name (its role when unnamed). Errors are located at the key's
/// line, or for a missing key at the section's. Unknown keys are warnings.
bool readKernelKeys(KeyValues &kv, const std::string &path,
                    const Section *section, LaunchDescription &desc,
                    std::vector<std::string> *argNames, std::string &error,
                    std::vector<std::string> &warnings);

/// The sections of a description of one kernel (version 1: the header
/// alone) into `desc`; a program's sections are an error.
bool readSingleKernel(std::vector<Section> &sections, const std::string &path,
                      LaunchDescription &desc, std::string &error,
                      std::vector<std::string> &warnings);

/// Reads at most kMaxLaunchDescriptionBytes of the file `path` into `text`;
/// `what` names the file in messages ("launch description").
bool readDescriptionFile(const std::string &path, const char *what,
                         std::string &text, std::string &error);

/// A reader of a description's text (parseLaunchDescriptionText,
/// parseLaunchProgramText).
template <typename T>
using TextReader = bool (*)(const std::string &text, const std::string &path,
                            T &out, std::string &error,
                            std::vector<std::string> &warnings);

/// The file `path` (readDescriptionFile) read by `readText`.
template <typename T>
bool readFile(const std::string &path, const char *what, TextReader<T> readText,
              T &out, std::string &error, std::vector<std::string> &warnings) {
  std::string text;
  return readDescriptionFile(path, what, text, error) &&
         readText(text, path, out, error, warnings);
}

} // namespace detail
} // namespace stencil_run

#endif
