// Eigen's SSE path includes <mmintrin.h> (MMX) before the SSE headers;
// Emscripten 3.1.6 ships SSE1-4.2 headers that map to wasm SIMD128 but no MMX
// one, and Eigen uses no MMX intrinsic. This empty header lets Eigen build with
// -msse4.2 in wasm (the compiler's own mmintrin.h refuses non-x86 targets).
#pragma once
