//===- ReturnOnFailure.h - Return a failed call's status --------*- C++ -*-===//
//
// Private to the runtime's libraries (StencilRuntime.cpp, MultiGpu.cpp): the
// one shape of their checked calls into the CUDA driver, NCCL and the C API,
// each failure returned with the text of the call that failed.
//
//===----------------------------------------------------------------------===//
#ifndef STENCIL_RUNTIME_RETURNONFAILURE_H
#define STENCIL_RUNTIME_RETURNONFAILURE_H

/// Evaluates `call` once; unless its `Result` equals `ok`, returns
/// `onFailure(result, text)` from the enclosing function (`text`: the call
/// as written, which the caller's macro stringizes before expanding it).
#define STENCIL_RETURN_ON_FAILURE(Result, call, ok, onFailure, text)           \
  do {                                                                         \
    Result result_ = (call);                                                   \
    if (result_ != (ok))                                                       \
      return onFailure(result_, text);                                         \
  } while (0)

#endif
