/* kcheck shim: the part of PyTorch's C++ extension API that CUDA extension
 * sources use (torch/extension.h, ATen/ATen.h, c10/cuda/...), declarations
 * only. Kernels take tensors as GenericPackedTensorAccessor parameters
 * (`torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> x`)
 * and index them `x[i][j]`; host code sizes launches from at::Tensor
 * (`x.size(0)`) and instantiates kernel templates through the AT_DISPATCH
 * macros. The dispatch macros here run their body once, with the first
 * type of the list they name (float for the floating-point lists): one
 * instantiation, as one build for one dtype would compile.
 *
 * The CUDA front end reads an accessor's subscripts as the element access
 * they are: x[i][j] is x.data()[i * x.stride(0) + j * x.stride(1)], with
 * the innermost stride presumed 1 (a contiguous tensor). */
#ifndef __KCHECK_TORCH_H
#define __KCHECK_TORCH_H
/* (standard names only: in toolkit mode this file stands in for PyTorch's
 * headers on top of the real toolkit and C++ library) */
#include <cstddef>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define __KC_TORCH_HD __host__ __device__
#define __KC_TORCH_D __device__

namespace c10 {
enum class ScalarType : signed char {
  Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat, ComplexDouble,
  Bool, QInt8, QUInt8, QInt32, BFloat16, QUInt4x2, QUInt2x4, Bits1x8, Bits2x4, Bits4x2, Bits8,
  Bits16, Float8_e5m2, Float8_e4m3fn, Float8_e5m2fnuz, Float8_e4m3fnuz, UInt16, UInt32, UInt64,
  Undefined
};
struct Half {
  unsigned short x;
  Half() = default;
  __KC_TORCH_HD Half(float f); __KC_TORCH_HD Half(double f); __KC_TORCH_HD Half(int i); __KC_TORCH_HD Half(__half h);
  __KC_TORCH_HD operator float() const; __KC_TORCH_HD operator __half() const;
};
struct BFloat16 {
  unsigned short x;
  BFloat16() = default;
  __KC_TORCH_HD BFloat16(float f); __KC_TORCH_HD BFloat16(double f); __KC_TORCH_HD BFloat16(int i);
  __KC_TORCH_HD BFloat16(__nv_bfloat16 h);
  __KC_TORCH_HD operator float() const; __KC_TORCH_HD operator __nv_bfloat16() const;
};
struct Float8_e4m3fn { unsigned char x; Float8_e4m3fn() = default; __KC_TORCH_HD Float8_e4m3fn(float f); __KC_TORCH_HD operator float() const; };
struct Float8_e5m2 { unsigned char x; Float8_e5m2() = default; __KC_TORCH_HD Float8_e5m2(float f); __KC_TORCH_HD operator float() const; };
template <typename T> struct complex {
  T real_, imag_;
  complex() = default;
  __KC_TORCH_HD complex(T re, T im = T());
  __KC_TORCH_HD T real() const; __KC_TORCH_HD T imag() const;
};
template <typename T> struct ArrayRef {
  const T *data_; size_t size_;
  ArrayRef(); template <class... A> ArrayRef(A &&...);
  size_t size() const; const T &operator[](size_t i) const; const T *begin() const; const T *end() const;
  const T *data() const; std::vector<T> vec() const;
};
using IntArrayRef = ArrayRef<int64_t>;
struct Device {
  template <class... A> Device(A &&...);
  bool is_cuda() const; int index() const;
};
struct TensorOptions {
  TensorOptions(); template <class... A> TensorOptions(A &&...);
  template <class... A> TensorOptions dtype(A &&...) const;
  template <class... A> TensorOptions device(A &&...) const;
  template <class... A> TensorOptions requires_grad(A &&...) const;
  template <class... A> TensorOptions layout(A &&...) const;
  ScalarType scalar_type() const;
};
struct Scalar { template <class T> Scalar(T v); template <class T> T to() const; };
template <typename T> struct optional {
  optional(); template <class U> optional(U &&);
  bool has_value() const; explicit operator bool() const;
  T &value(); const T &value() const; T &operator*(); T *operator->();
  template <class U> T value_or(U &&) const;
};
struct nullopt_t {};
constexpr nullopt_t nullopt{};
template <typename T> struct DefaultPtrTraits { typedef T *PtrType; };
template <typename T> struct RestrictPtrTraits { typedef T *__restrict__ PtrType; };
[[noreturn]] void __kcheck_throw(int);
} // namespace c10

namespace at {
using c10::ScalarType; using c10::Half; using c10::BFloat16; using c10::IntArrayRef; using c10::ArrayRef;
using c10::Device; using c10::TensorOptions; using c10::Scalar; using c10::optional; using c10::nullopt;
using c10::DefaultPtrTraits; using c10::RestrictPtrTraits;
constexpr ScalarType kByte = ScalarType::Byte, kChar = ScalarType::Char, kShort = ScalarType::Short,
  kInt = ScalarType::Int, kLong = ScalarType::Long, kHalf = ScalarType::Half, kFloat = ScalarType::Float,
  kDouble = ScalarType::Double, kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16,
  kInt8 = ScalarType::Char, kUInt8 = ScalarType::Byte, kInt16 = ScalarType::Short, kInt32 = ScalarType::Int,
  kInt64 = ScalarType::Long, kFloat16 = ScalarType::Half, kFloat32 = ScalarType::Float,
  kFloat64 = ScalarType::Double, kFloat8_e4m3fn = ScalarType::Float8_e4m3fn,
  kFloat8_e5m2 = ScalarType::Float8_e5m2;
constexpr int kCUDA = 1, kCPU = 0;

/* One accessor per rank; rank 1 indexes elements. */
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessor {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __KC_TORCH_HD TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i);
  __KC_TORCH_HD const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const;
  __KC_TORCH_HD index_t size(index_t d) const; __KC_TORCH_HD index_t stride(index_t d) const;
  __KC_TORCH_HD PtrType data(); __KC_TORCH_HD const PtrType data() const;
};
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __KC_TORCH_HD T &operator[](index_t i); __KC_TORCH_HD const T &operator[](index_t i) const;
  __KC_TORCH_HD index_t size(index_t d) const; __KC_TORCH_HD index_t stride(index_t d) const;
  __KC_TORCH_HD PtrType data(); __KC_TORCH_HD const PtrType data() const;
};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessor {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __KC_TORCH_HD TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i);
  __KC_TORCH_HD const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const;
  __KC_TORCH_HD index_t size(index_t d) const; __KC_TORCH_HD index_t stride(index_t d) const;
  __KC_TORCH_HD PtrType data(); __KC_TORCH_HD const PtrType data() const;
};
template <typename T, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t> {
public:
  typedef typename PtrTraits<T>::PtrType PtrType;
  __KC_TORCH_HD T &operator[](index_t i); __KC_TORCH_HD const T &operator[](index_t i) const;
  __KC_TORCH_HD index_t size(index_t d) const; __KC_TORCH_HD index_t stride(index_t d) const;
  __KC_TORCH_HD PtrType data(); __KC_TORCH_HD const PtrType data() const;
};
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

class Tensor {
public:
  Tensor();
  int64_t size(int64_t d) const; IntArrayRef sizes() const; int64_t stride(int64_t d) const;
  IntArrayRef strides() const; int64_t numel() const; int64_t dim() const; int64_t ndimension() const;
  int64_t element_size() const; int64_t nbytes() const; int64_t storage_offset() const;
  template <typename T> T *data_ptr() const; void *data_ptr() const; template <typename T> T *data() const;
  template <typename T> T *mutable_data_ptr() const; template <typename T> const T *const_data_ptr() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> packed_accessor() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int32_t> packed_accessor32() const;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  GenericPackedTensorAccessor<T, N, PtrTraits, int64_t> packed_accessor64() const;
  template <typename T, size_t N> TensorAccessor<T, N> accessor() const;
  ScalarType scalar_type() const; ScalarType type() const; TensorOptions dtype() const; Device device() const;
  TensorOptions options() const; bool is_cuda() const; bool is_contiguous() const; bool defined() const;
  bool requires_grad() const; int get_device() const;
  template <typename T> T item() const; Scalar item() const;
  Tensor contiguous() const; Tensor clone() const; Tensor t() const;
  template <class... A> Tensor to(A &&...) const; template <class... A> Tensor view(A &&...) const;
  template <class... A> Tensor reshape(A &&...) const; template <class... A> Tensor select(A &&...) const;
  template <class... A> Tensor narrow(A &&...) const; template <class... A> Tensor slice(A &&...) const;
  template <class... A> Tensor transpose(A &&...) const; template <class... A> Tensor permute(A &&...) const;
  template <class... A> Tensor expand(A &&...) const; template <class... A> Tensor index_select(A &&...) const;
  template <class... A> Tensor sum(A &&...) const; template <class... A> Tensor mean(A &&...) const;
  template <class... A> Tensor unsqueeze(A &&...) const; template <class... A> Tensor squeeze(A &&...) const;
  template <class... A> Tensor flatten(A &&...) const; template <class... A> Tensor repeat(A &&...) const;
  template <class... A> Tensor &copy_(A &&...); template <class... A> Tensor &fill_(A &&...);
  template <class... A> Tensor &resize_(A &&...); Tensor &zero_();
  template <class... A> Tensor new_empty(A &&...) const; template <class... A> Tensor new_zeros(A &&...) const;
  template <class T> Tensor operator[](T) const;
};
template <class... A> Tensor empty(A &&...); template <class... A> Tensor zeros(A &&...);
template <class... A> Tensor ones(A &&...); template <class... A> Tensor full(A &&...);
template <class... A> Tensor empty_like(A &&...); template <class... A> Tensor zeros_like(A &&...);
template <class... A> Tensor ones_like(A &&...); template <class... A> Tensor full_like(A &&...);
template <class... A> Tensor arange(A &&...); template <class... A> Tensor from_blob(A &&...);
template <class... A> Tensor cat(A &&...); template <class... A> Tensor stack(A &&...);
template <class... A> Tensor empty_strided(A &&...); template <class... A> Tensor randn(A &&...);
template <class... A> Tensor rand(A &&...); template <class... A> Tensor tensor(A &&...);
Device device_of(const Tensor &t);
size_t elementSize(ScalarType t);
const char *toString(ScalarType t);

template <typename T, bool is_cuda> struct AccumulateType { using type = T; };
template <bool c> struct AccumulateType<Half, c> { using type = float; };
template <bool c> struct AccumulateType<BFloat16, c> { using type = float; };
template <bool c> struct AccumulateType<__half, c> { using type = float; };
template <typename T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;
template <typename T> struct OpMathType { using type = T; };
template <> struct OpMathType<Half> { using type = float; };
template <> struct OpMathType<BFloat16> { using type = float; };
template <typename T> using opmath_type = typename OpMathType<T>::type;

/* The C++ type of a ScalarType, for the dispatch macros. */
template <ScalarType S> struct __kcheck_scalar { using type = float; };
template <> struct __kcheck_scalar<ScalarType::Double> { using type = double; };
template <> struct __kcheck_scalar<ScalarType::Half> { using type = Half; };
template <> struct __kcheck_scalar<ScalarType::BFloat16> { using type = BFloat16; };
template <> struct __kcheck_scalar<ScalarType::Int> { using type = int; };
template <> struct __kcheck_scalar<ScalarType::Long> { using type = int64_t; };
template <> struct __kcheck_scalar<ScalarType::Short> { using type = short; };
template <> struct __kcheck_scalar<ScalarType::Char> { using type = signed char; };
template <> struct __kcheck_scalar<ScalarType::Byte> { using type = unsigned char; };
template <> struct __kcheck_scalar<ScalarType::Bool> { using type = bool; };

namespace cuda {
struct CUDAStream {
  operator cudaStream_t() const; cudaStream_t stream() const; int device_index() const;
};
CUDAStream getCurrentCUDAStream(int device = -1);
CUDAStream getDefaultCUDAStream(int device = -1);
template <class... A> CUDAStream getStreamFromPool(A &&...);
cudaDeviceProp *getCurrentDeviceProperties();
cudaDeviceProp *getDeviceProperties(int device);
int current_device();
struct CUDAGuard { template <class... A> explicit CUDAGuard(A &&...); };
struct OptionalCUDAGuard { template <class... A> explicit OptionalCUDAGuard(A &&...); };
struct CUDAStreamGuard { template <class... A> explicit CUDAStreamGuard(A &&...); };
} // namespace cuda
} // namespace at

namespace c10 {
namespace cuda {
using at::cuda::CUDAStream; using at::cuda::getCurrentCUDAStream; using at::cuda::getDefaultCUDAStream;
using at::cuda::getStreamFromPool; using at::cuda::CUDAGuard; using at::cuda::OptionalCUDAGuard;
using at::cuda::CUDAStreamGuard; using at::cuda::current_device;
} // namespace cuda
using at::acc_type;
} // namespace c10

namespace pybind11 {
struct handle {};
struct object : handle {};
struct module_ {
  template <class... A> module_ &def(A &&...);
  template <class... A> module_ def_submodule(A &&...);
};
typedef module_ module;
struct arg {
  arg(const char *name);
  template <class T> arg &operator=(T &&);
  arg &noconvert(bool flag = true);
};
} // namespace pybind11
namespace py = pybind11;

namespace torch {
using namespace at;
struct Library {
  template <class... A> Library &def(A &&...);
  template <class... A> Library &impl(A &&...);
};
} // namespace torch

#define TORCH_EXTENSION_NAME kcheck_torch_extension
#define PYBIND11_MODULE(name, variable) static void __kcheck_pybind_module_##name(::pybind11::module_ &variable)
#define TORCH_LIBRARY(ns, m) static void __kcheck_torch_library_##ns(::torch::Library &m)
#define TORCH_LIBRARY_FRAGMENT(ns, m) static void __kcheck_torch_library_fragment_##ns(::torch::Library &m)
#define TORCH_LIBRARY_IMPL(ns, k, m) static void __kcheck_torch_library_impl_##ns##_##k(::torch::Library &m)

/* Checks throw when the condition is false. */
#define TORCH_CHECK(cond, ...) do { if (!(cond)) ::c10::__kcheck_throw(0); } while (0)
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b))
#define TORCH_CHECK_NE(a, b) TORCH_CHECK((a) != (b))
#define TORCH_CHECK_LE(a, b) TORCH_CHECK((a) <= (b))
#define TORCH_CHECK_LT(a, b) TORCH_CHECK((a) < (b))
#define TORCH_CHECK_GE(a, b) TORCH_CHECK((a) >= (b))
#define TORCH_CHECK_GT(a, b) TORCH_CHECK((a) > (b))
#define TORCH_INTERNAL_ASSERT(cond, ...) TORCH_CHECK(cond)
#define TORCH_WARN(...) ((void)0)
#define AT_ASSERT(cond, ...) TORCH_CHECK(cond)
#define AT_ASSERTM(cond, ...) TORCH_CHECK(cond)
#define AT_ERROR(...) ::c10::__kcheck_throw(0)
#define C10_CUDA_CHECK(EXPR) do { cudaError_t __kcheck_err = (EXPR); if (__kcheck_err != cudaSuccess) ::c10::__kcheck_throw(__kcheck_err); } while (0)
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
#define AT_CUDA_CHECK(EXPR) C10_CUDA_CHECK(EXPR)
#define C10_HOST_DEVICE __KC_TORCH_HD
#define C10_DEVICE __KC_TORCH_D
#define C10_HOST __host__
#define C10_LAUNCH_BOUNDS_1(max_threads) __launch_bounds__(max_threads)
#define C10_LAUNCH_BOUNDS_2(max_threads, min_blocks) __launch_bounds__(max_threads, min_blocks)
#define C10_WARP_SIZE 32
#define C10_UNUSED __attribute__((unused))
#define C10_LIKELY(x) (x)
#define C10_UNLIKELY(x) (x)

/* Dispatch: the body runs once, with the first type of the list. */
#define __KCHECK_DISPATCH(T, TYPE, ...) [&] { using scalar_t = T; (void)(TYPE); return __VA_ARGS__(); }()
#define AT_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND_HALF(TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND(S1, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND2(S1, S2, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_TYPES_AND3(S1, S2, S3, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_REDUCED_FLOATING_TYPES(TYPE, NAME, ...) __KCHECK_DISPATCH(::at::Half, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND1(S1, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(S1, S2, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES(TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND(S1, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND2(S1, S2, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND3(S1, S2, S3, TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_ALL_TYPES_AND_HALF(TYPE, NAME, ...) __KCHECK_DISPATCH(float, TYPE, __VA_ARGS__)
#define AT_DISPATCH_COMPLEX_TYPES(TYPE, NAME, ...) __KCHECK_DISPATCH(::c10::complex<float>, TYPE, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES(TYPE, NAME, ...) __KCHECK_DISPATCH(int, TYPE, __VA_ARGS__)
#define AT_DISPATCH_INTEGRAL_TYPES_AND(S1, TYPE, NAME, ...) __KCHECK_DISPATCH(int, TYPE, __VA_ARGS__)
#define AT_DISPATCH_INDEX_TYPES(TYPE, NAME, ...) [&] { using index_t = int64_t; (void)(TYPE); return __VA_ARGS__(); }()
#define AT_DISPATCH_SWITCH(TYPE, NAME, ...) [&] { switch (TYPE) { __VA_ARGS__ default: break; } }()
#define AT_DISPATCH_CASE(S, ...) case S: { using scalar_t = typename ::at::__kcheck_scalar<S>::type; __VA_ARGS__(); } break;
#define AT_DISPATCH_CASE_FLOATING_TYPES(...) AT_DISPATCH_CASE(::at::ScalarType::Float, __VA_ARGS__)
#define AT_PRIVATE_CASE_TYPE(NAME, S, T, ...) case S: { using scalar_t = T; __VA_ARGS__(); } break;
#endif
