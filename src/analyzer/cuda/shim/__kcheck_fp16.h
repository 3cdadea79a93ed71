/* kcheck shim: __half, __nv_bfloat16 and their pairs (cuda_fp16.h, cuda_bf16.h). */
#ifndef __KCHECK_FP16_H
#define __KCHECK_FP16_H
#define __KC_LOWP(T, T2)                                                        \
  struct __attribute__((aligned(2))) T {                                      \
    unsigned short __x;                                                       \
    T() = default;                                                            \
    __KC_HD T(float f); __KC_HD T(double f); __KC_HD T(int i);                \
    __KC_HD T(unsigned int i); __KC_HD T(long long i);                        \
    __KC_HD T(unsigned long long i); __KC_HD T(short i);                      \
    __KC_HD T(unsigned short i);                                              \
    __KC_HD operator float() const;                                           \
    __KC_HD T &operator=(float f); __KC_HD T &operator=(double f);            \
  };                                                                          \
  struct __attribute__((aligned(4))) T2 {                                     \
    T x, y;                                                                   \
    T2() = default;                                                           \
    __KC_HD T2(T a, T b) : x(a), y(b) {}                                      \
  };                                                                          \
  __KC_HD T operator+(const T &a, const T &b); __KC_HD T operator-(const T &a, const T &b); \
  __KC_HD T operator*(const T &a, const T &b); __KC_HD T operator/(const T &a, const T &b); \
  __KC_HD T &operator+=(T &a, const T &b); __KC_HD T &operator-=(T &a, const T &b); \
  __KC_HD T &operator*=(T &a, const T &b); __KC_HD T &operator/=(T &a, const T &b); \
  __KC_HD T operator-(const T &a);                                            \
  __KC_HD bool operator==(const T &a, const T &b); __KC_HD bool operator!=(const T &a, const T &b); \
  __KC_HD bool operator<(const T &a, const T &b); __KC_HD bool operator>(const T &a, const T &b); \
  __KC_HD bool operator<=(const T &a, const T &b); __KC_HD bool operator>=(const T &a, const T &b); \
  __KC_HD T2 operator+(const T2 &a, const T2 &b); __KC_HD T2 operator-(const T2 &a, const T2 &b); \
  __KC_HD T2 operator*(const T2 &a, const T2 &b); __KC_HD T2 operator/(const T2 &a, const T2 &b); \
  __KC_HD T2 &operator+=(T2 &a, const T2 &b); __KC_HD T2 &operator*=(T2 &a, const T2 &b); \
  __KC_D T __hadd(T a, T b); __KC_D T __hsub(T a, T b); __KC_D T __hmul(T a, T b); \
  __KC_D T __hdiv(T a, T b); __KC_D T __hfma(T a, T b, T c); __KC_D T __hneg(T a); \
  __KC_D T __hmax(T a, T b); __KC_D T __hmin(T a, T b); __KC_D T __habs(T a);     \
  __KC_D T2 __hadd2(T2 a, T2 b); __KC_D T2 __hsub2(T2 a, T2 b);              \
  __KC_D T2 __hmul2(T2 a, T2 b); __KC_D T2 __hfma2(T2 a, T2 b, T2 c);        \
  __KC_D T2 __hmax2(T2 a, T2 b); __KC_D T2 __hmin2(T2 a, T2 b); __KC_D T2 __habs2(T2 a); \
  __KC_D bool __hgt(T a, T b); __KC_D bool __hlt(T a, T b); __KC_D bool __hge(T a, T b); \
  __KC_D bool __hle(T a, T b); __KC_D bool __heq(T a, T b); __KC_D bool __hne(T a, T b); \
  __KC_D bool __hisnan(T a); __KC_D bool __hisinf(T a);                      \
  __KC_D T hsqrt(T a); __KC_D T hrsqrt(T a); __KC_D T hexp(T a); __KC_D T hexp2(T a); \
  __KC_D T hlog(T a); __KC_D T hlog2(T a); __KC_D T hrcp(T a); __KC_D T htanh(T a); \
  __KC_D T hsin(T a); __KC_D T hcos(T a); __KC_D T hfloor(T a); __KC_D T hceil(T a); \
  __KC_D T2 h2sqrt(T2 a); __KC_D T2 h2exp(T2 a); __KC_D T2 h2rcp(T2 a);     \
  __KC_HD float __low2float(T2 h); __KC_HD float __high2float(T2 h);          \
  __KC_HD T __low2half(T2 h); __KC_HD T __high2half(T2 h);                    \
  __KC_D T __ldg(const T *p); __KC_D T2 __ldg(const T2 *p);                  \
  __KC_D T atomicAdd(T *address, T val); __KC_D T2 atomicAdd(T2 *address, T2 val);
__KC_LOWP(__half, __half2)
__KC_LOWP(__nv_bfloat16, __nv_bfloat162)
#undef __KC_LOWP
typedef __half half;
typedef __half2 half2;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x, y; };
__KC_HD __half __float2half(float f);
__KC_HD __half __float2half_rn(float f);
__KC_HD __half __float2half_rz(float f);
__KC_HD __half __double2half(double f);
__KC_HD float __half2float(__half h);
__KC_HD __half2 __float2half2_rn(float f);
__KC_HD __half2 __floats2half2_rn(float a, float b);
__KC_HD __half2 __float22half2_rn(float2 f);
__KC_HD float2 __half22float2(__half2 h);
__KC_HD __half2 __halves2half2(__half a, __half b);
__KC_HD __half2 __half2half2(__half a);
__KC_HD __half __int2half_rn(int i);
__KC_HD int __half2int_rn(__half h);
__KC_HD int __half2int_rz(__half h);
__KC_HD __half __ushort_as_half(unsigned short u);
__KC_HD unsigned short __half_as_ushort(__half h);
__KC_HD __half __short_as_half(short u);
__KC_HD short __half_as_short(__half h);
__KC_HD __nv_bfloat16 __float2bfloat16(float f);
__KC_HD __nv_bfloat16 __float2bfloat16_rn(float f);
__KC_HD __nv_bfloat16 __double2bfloat16(double f);
__KC_HD float __bfloat162float(__nv_bfloat16 h);
__KC_HD __nv_bfloat162 __float2bfloat162_rn(float f);
__KC_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b);
__KC_HD __nv_bfloat162 __float22bfloat162_rn(float2 f);
__KC_HD float2 __bfloat1622float2(__nv_bfloat162 h);
__KC_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b);
__KC_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a);
__KC_HD __nv_bfloat16 __ushort_as_bfloat16(unsigned short u);
__KC_HD unsigned short __bfloat16_as_ushort(__nv_bfloat16 h);
#endif
