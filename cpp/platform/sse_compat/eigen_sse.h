// Force-included (-include) where Eigen is built with -msse4.2 for wasm.
// Eigen 3.4's SSE code has two kinds of x86 inline asm that wasm cannot take:
// pmin/pmax use `asm("minps ...")` when the compiler claims GCC < 6.3 (clang
// claims 4.2; -fgnuc-version=7.0 moves it past that), and the GEBP kernel
// puts empty `__asm__("" : "+x,m"(...))` register hints after each step when
// it claims GCC >= 6. The hints only steer x86 register allocation, so they
// are dropped here while Eigen's headers are read; every other header is
// included first so that its own __asm__ uses are untouched.
#pragma once

#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <limits>
#include <new>
#include <string>
#include <type_traits>

#define __asm__(...)
#include <Eigen/Core>
#undef __asm__
