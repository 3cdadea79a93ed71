/* kcheck shim: the CUDA runtime, vector types, device intrinsics and math
 * functions as declarations. Not the real toolkit: enough for clang to
 * build an AST of kernel code quickly. */
#ifndef __KCHECK_CUDA_H
#define __KCHECK_CUDA_H
#include <stddef.h>
#include <stdint.h>
#include <float.h>
#include <limits.h>
#include <__clang_cuda_builtin_vars.h>
#ifdef __cplusplus
#include <__kcheck_ilist.h>
#endif

#define __KC_HD __attribute__((host)) __attribute__((device))
#define __KC_D __attribute__((device))
#define __KC_H __attribute__((host))

#define CUDA_VERSION 12080
#define CUDART_VERSION 12080
#define __CUDART_API_VERSION 12080

/* ---- vector types ---- */
struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  __KC_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __KC_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __KC_HD constexpr operator uint3() const { return uint3{x, y, z}; }
};
__KC_D inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__KC_D inline __cuda_builtin_threadIdx_t::operator uint3() const { return uint3{x, y, z}; }
__KC_D inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__KC_D inline __cuda_builtin_blockIdx_t::operator uint3() const { return uint3{x, y, z}; }
__KC_D inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__KC_D inline __cuda_builtin_blockDim_t::operator uint3() const { return uint3{x, y, z}; }
__KC_D inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__KC_D inline __cuda_builtin_gridDim_t::operator uint3() const { return uint3{x, y, z}; }

#define __KC_VEC(P, T, A1, A2, A3, A4)                                         \
  struct __attribute__((aligned(A1))) P##1 { T x; };                          \
  struct __attribute__((aligned(A2))) P##2 { T x, y; };                       \
  struct __attribute__((aligned(A3))) P##3 { T x, y, z; };                    \
  struct __attribute__((aligned(A4))) P##4 { T x, y, z, w; };                 \
  __KC_HD P##1 make_##P##1(T x);                                              \
  __KC_HD P##2 make_##P##2(T x, T y);                                         \
  __KC_HD P##3 make_##P##3(T x, T y, T z);                                    \
  __KC_HD P##4 make_##P##4(T x, T y, T z, T w);
__KC_VEC(char, signed char, 1, 2, 1, 4)
__KC_VEC(uchar, unsigned char, 1, 2, 1, 4)
__KC_VEC(short, short, 2, 4, 2, 8)
__KC_VEC(ushort, unsigned short, 2, 4, 2, 8)
__KC_VEC(int, int, 4, 8, 4, 16)
__KC_VEC(long, long, 8, 16, 8, 16)
__KC_VEC(ulong, unsigned long, 8, 16, 8, 16)
__KC_VEC(longlong, long long, 8, 16, 8, 16)
__KC_VEC(ulonglong, unsigned long long, 8, 16, 8, 16)
__KC_VEC(float, float, 4, 8, 4, 16)
__KC_VEC(double, double, 8, 16, 8, 16)
#undef __KC_VEC
struct uint1 { unsigned int x; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
__KC_HD uint1 make_uint1(unsigned int x);
__KC_HD uint2 make_uint2(unsigned int x, unsigned int y);
__KC_HD uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z);
__KC_HD uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w);

/* ---- runtime API ---- */
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5, cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16, cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18, cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35, cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidDeviceFunction = 98, cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101, cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200, cudaErrorInvalidSource = 300,
  cudaErrorFileNotFound = 301, cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401, cudaErrorNotFound = 500, cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700, cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702, cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705, cudaErrorAssert = 710,
  cudaErrorHardwareStackError = 714, cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716, cudaErrorInvalidAddressSpace = 717,
  cudaErrorInvalidPc = 718, cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720, cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801, cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2 };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97 };
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceMapHost 0x08
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
struct CUstream_st; typedef struct CUstream_st *cudaStream_t;
struct CUevent_st; typedef struct CUevent_st *cudaEvent_t;
struct CUgraph_st; typedef struct CUgraph_st *cudaGraph_t;
struct CUgraphExec_st; typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
struct cudaDeviceProp {
  char name[256]; size_t totalGlobalMem; size_t sharedMemPerBlock; int regsPerBlock;
  int warpSize; size_t memPitch; int maxThreadsPerBlock; int maxThreadsDim[3];
  int maxGridSize[3]; int clockRate; size_t totalConstMem; int major; int minor;
  size_t textureAlignment; int deviceOverlap; int multiProcessorCount;
  int kernelExecTimeoutEnabled; int integrated; int canMapHostMemory; int computeMode;
  int concurrentKernels; int ECCEnabled; int pciBusID; int pciDeviceID; int asyncEngineCount;
  int unifiedAddressing; int memoryClockRate; int memoryBusWidth; int l2CacheSize;
  int persistingL2CacheMaxSize; int maxThreadsPerMultiProcessor; int streamPrioritiesSupported;
  int globalL1CacheSupported; int localL1CacheSupported; size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor; int managedMemory; int isMultiGpuBoard; int multiGpuBoardGroupID;
  int singleToDoublePrecisionPerfRatio; int pageableMemoryAccess; int concurrentManagedAccess;
  int computePreemptionSupported; int cooperativeLaunch; int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin; int maxBlocksPerMultiProcessor; int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};
struct cudaFuncAttributes { size_t sharedSizeBytes; size_t constSizeBytes; size_t localSizeBytes;
  int maxThreadsPerBlock; int numRegs; int ptxVersion; int binaryVersion; int cacheModeCA;
  int maxDynamicSharedSizeBytes; int preferredShmemCarveout; };
struct cudaPointerAttributes { enum cudaMemoryType type; int device; void *devicePointer; void *hostPointer; };
struct cudaLaunchConfig_t { dim3 gridDim; dim3 blockDim; size_t dynamicSmemBytes; cudaStream_t stream; void *attrs; unsigned int numAttrs; };
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

extern "C" {
__KC_HD cudaError_t cudaMalloc(void **devPtr, size_t size);
__KC_H cudaError_t cudaMallocHost(void **ptr, size_t size);
__KC_H cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
__KC_H cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
__KC_H cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
__KC_H cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
__KC_HD cudaError_t cudaFree(void *devPtr);
__KC_H cudaError_t cudaFreeHost(void *ptr);
__KC_H cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
__KC_H cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
__KC_HD cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__KC_H cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__KC_H cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__KC_H cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count);
__KC_H cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__KC_HD cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0);
__KC_H cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
__KC_H cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
__KC_H cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
__KC_H cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);
__KC_H cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
__KC_H cudaError_t cudaHostUnregister(void *ptr);
__KC_H cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
__KC_H cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__KC_H cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__KC_H cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
__KC_H cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
__KC_HD cudaError_t cudaDeviceSynchronize(void);
__KC_H cudaError_t cudaDeviceReset(void);
__KC_H cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
__KC_HD cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
__KC_H cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
__KC_H cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
__KC_HD cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__KC_H cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
__KC_H cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
__KC_H cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
__KC_HD cudaError_t cudaGetLastError(void);
__KC_HD cudaError_t cudaPeekAtLastError(void);
__KC_HD const char *cudaGetErrorString(cudaError_t error);
__KC_HD const char *cudaGetErrorName(cudaError_t error);
__KC_HD cudaError_t cudaGetDeviceCount(int *count);
__KC_HD cudaError_t cudaGetDevice(int *device);
__KC_H cudaError_t cudaSetDevice(int device);
__KC_H cudaError_t cudaSetDeviceFlags(unsigned int flags);
__KC_H cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
__KC_H cudaError_t cudaDriverGetVersion(int *driverVersion);
__KC_HD cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
__KC_H cudaError_t cudaStreamCreate(cudaStream_t *pStream);
__KC_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
__KC_H cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority);
__KC_HD cudaError_t cudaStreamDestroy(cudaStream_t stream);
__KC_H cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__KC_H cudaError_t cudaStreamQuery(cudaStream_t stream);
__KC_HD cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
__KC_H cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData, unsigned int flags);
__KC_H cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
__KC_H cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode);
__KC_H cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
__KC_H cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
__KC_H cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
__KC_H cudaError_t cudaGraphDestroy(cudaGraph_t graph);
__KC_H cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);
__KC_H cudaError_t cudaEventCreate(cudaEvent_t *event);
__KC_HD cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
__KC_HD cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
__KC_H cudaError_t cudaEventSynchronize(cudaEvent_t event);
__KC_H cudaError_t cudaEventQuery(cudaEvent_t event);
__KC_H cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
__KC_HD cudaError_t cudaEventDestroy(cudaEvent_t event);
__KC_H cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
__KC_H cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
__KC_H cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
__KC_H cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
__KC_H cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
__KC_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize);
__KC_H cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, const void *func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0);
__KC_H cudaError_t cudaProfilerStart(void);
__KC_H cudaError_t cudaProfilerStop(void);
__KC_H cudaError_t cudaThreadSynchronize(void);
__KC_H cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
}
/* C++ conveniences of cuda_runtime.h */
template <class T> __KC_H cudaError_t cudaMalloc(T **devPtr, size_t size);
template <class T> __KC_H cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal);
template <class T> __KC_H cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0);
template <class T> __KC_H cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags);
template <class T> __KC_H cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height);
template <class T> __KC_H cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream);
template <class T> __KC_H cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value);
template <class T> __KC_H cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry);
template <class T> __KC_H cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig);
template <class T> __KC_H cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> __KC_H cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> __KC_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize, size_t dynamicSMemSize);
template <class T> __KC_H cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int blockSizeLimit = 0);
template <class T> __KC_H cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> __KC_H cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> __KC_H cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol);

/* ---- textures and surfaces: arrays, objects, the legacy references ---- */
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
struct cudaArray; typedef struct cudaArray *cudaArray_t; typedef const struct cudaArray *cudaArray_const_t;
struct cudaMipmappedArray; typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3 };
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void *devPtr; struct cudaChannelFormatDesc desc; size_t width; size_t height; size_t pitchInBytes; } pitch2D;
  } res;
};
struct cudaResourceViewDesc { int format; size_t width, height, depth; unsigned int firstMipmapLevel, lastMipmapLevel,
  firstLayer, lastLayer; };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3]; enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode; int sRGB; float borderColor[4]; int normalizedCoords;
  unsigned int maxAnisotropy; enum cudaTextureFilterMode mipmapFilterMode; float mipmapLevelBias;
  float minMipmapLevelClamp; float maxMipmapLevelClamp; int disableTrilinearOptimization; int seamlessCubemap;
};
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch; size_t xsize; size_t ysize; };
struct cudaMemcpy3DParms { cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr; struct cudaExtent extent;
  enum cudaMemcpyKind kind; };
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
extern "C" {
__KC_H cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
  const struct cudaTextureDesc *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc);
__KC_H cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
__KC_H cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc);
__KC_H cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
__KC_H cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
  size_t height = 0, unsigned int flags = 0);
__KC_H cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
  struct cudaExtent extent, unsigned int flags = 0);
__KC_H cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
__KC_H cudaError_t cudaFreeArray(cudaArray_t array);
__KC_H cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array);
__KC_H cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
__KC_H cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream = 0);
__KC_H cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
  enum cudaMemcpyKind kind);
__KC_H cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
  enum cudaMemcpyKind kind);
__KC_H cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
  size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind);
__KC_H cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
  size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind);
__KC_H struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);
}
template <class T> __KC_H struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
static inline __KC_H struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) { return cudaExtent{w, h, d}; }
static inline __KC_H struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) { return cudaPos{x, y, z}; }
static inline __KC_H struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{ return cudaPitchedPtr{d, p, xsz, ysz}; }
/* texture objects: device reads */
template <class T> __KC_D T tex1Dfetch(cudaTextureObject_t obj, int x);
template <class T> __KC_D T tex1D(cudaTextureObject_t obj, float x);
template <class T> __KC_D T tex2D(cudaTextureObject_t obj, float x, float y);
template <class T> __KC_D T tex3D(cudaTextureObject_t obj, float x, float y, float z);
template <class T> __KC_D T tex1DLayered(cudaTextureObject_t obj, float x, int layer);
template <class T> __KC_D T tex2DLayered(cudaTextureObject_t obj, float x, float y, int layer);
template <class T> __KC_D T texCubemap(cudaTextureObject_t obj, float x, float y, float z);
template <class T> __KC_D T tex1DLod(cudaTextureObject_t obj, float x, float level);
template <class T> __KC_D T tex2DLod(cudaTextureObject_t obj, float x, float y, float level);
template <class T> __KC_D T tex3DLod(cudaTextureObject_t obj, float x, float y, float z, float level);
template <class T> __KC_D T tex1DGrad(cudaTextureObject_t obj, float x, float dx, float dy);
template <class T> __KC_D T tex2DGrad(cudaTextureObject_t obj, float x, float y, float2 dx, float2 dy);
template <class T> __KC_D T tex3DGrad(cudaTextureObject_t obj, float x, float y, float z, float4 dx, float4 dy);
template <class T> __KC_D T tex2Dgather(cudaTextureObject_t obj, float x, float y, int comp = 0);
template <class T> __KC_D void tex1Dfetch(T *ret, cudaTextureObject_t obj, int x);
template <class T> __KC_D void tex1D(T *ret, cudaTextureObject_t obj, float x);
template <class T> __KC_D void tex2D(T *ret, cudaTextureObject_t obj, float x, float y);
template <class T> __KC_D void tex3D(T *ret, cudaTextureObject_t obj, float x, float y, float z);
/* surface objects */
template <class T> __KC_D T surf1Dread(cudaSurfaceObject_t s, int x, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D T surf2Dread(cudaSurfaceObject_t s, int x, int y, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf1Dread(T *ret, cudaSurfaceObject_t s, int x,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf2Dread(T *ret, cudaSurfaceObject_t s, int x, int y,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf3Dread(T *ret, cudaSurfaceObject_t s, int x, int y, int z,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf1Dwrite(T data, cudaSurfaceObject_t s, int x,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf2Dwrite(T data, cudaSurfaceObject_t s, int x, int y,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf3Dwrite(T data, cudaSurfaceObject_t s, int x, int y, int z,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
template <class T> __KC_D void surf2DLayeredwrite(T data, cudaSurfaceObject_t s, int x, int y, int layer,
  enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap);
/* texture references (removed in CUDA 12; older code binds them) */
template <class T, enum cudaTextureReadMode M> struct __kc_texel { typedef T type; };
template <class T> struct __kc_texel<T, cudaReadModeNormalizedFloat> { typedef float type; };
template <class T, int D = cudaTextureType1D, enum cudaTextureReadMode M = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture {
  int normalized; enum cudaTextureFilterMode filterMode; enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc; int sRGB; unsigned int maxAnisotropy;
};
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaBindTexture(size_t *offset,
  const struct texture<T, D, M> &tex, const void *devPtr, size_t size = UINT_MAX);
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaBindTexture(size_t *offset,
  const struct texture<T, D, M> &tex, const void *devPtr, const struct cudaChannelFormatDesc &desc, size_t size = UINT_MAX);
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaBindTexture2D(size_t *offset,
  const struct texture<T, D, M> &tex, const void *devPtr, size_t width, size_t height, size_t pitch);
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaBindTexture2D(size_t *offset,
  const struct texture<T, D, M> &tex, const void *devPtr, const struct cudaChannelFormatDesc &desc, size_t width,
  size_t height, size_t pitch);
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaBindTextureToArray(
  const struct texture<T, D, M> &tex, cudaArray_const_t array);
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaBindTextureToArray(
  const struct texture<T, D, M> &tex, cudaArray_const_t array, const struct cudaChannelFormatDesc &desc);
template <class T, int D, enum cudaTextureReadMode M> __KC_H cudaError_t cudaUnbindTexture(
  const struct texture<T, D, M> &tex);
template <class T, int D, enum cudaTextureReadMode M> __KC_D typename __kc_texel<T, M>::type tex1Dfetch(
  texture<T, D, M> t, int x);
template <class T, int D, enum cudaTextureReadMode M> __KC_D typename __kc_texel<T, M>::type tex1D(
  texture<T, D, M> t, float x);
template <class T, int D, enum cudaTextureReadMode M> __KC_D typename __kc_texel<T, M>::type tex2D(
  texture<T, D, M> t, float x, float y);
template <class T, int D, enum cudaTextureReadMode M> __KC_D typename __kc_texel<T, M>::type tex3D(
  texture<T, D, M> t, float x, float y, float z);
template <class T, int D, enum cudaTextureReadMode M> __KC_D typename __kc_texel<T, M>::type tex2DLayered(
  texture<T, D, M> t, float x, float y, int layer);

/* ---- driver API (cuda.h) ---- */
typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
#define CUDA_SUCCESS 0
extern "C" {
__KC_H CUresult cuInit(unsigned int flags);
__KC_H CUresult cuDeviceGet(CUdevice *device, int ordinal);
__KC_H CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
__KC_H CUresult cuCtxSynchronize(void);
__KC_H CUresult cuModuleLoad(CUmodule *module, const char *fname);
__KC_H CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
__KC_H CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params, void **extra);
__KC_H CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
__KC_H CUresult cuMemFree(CUdeviceptr dptr);
__KC_H CUresult cuGetErrorString(CUresult error, const char **pStr);
}

/* ---- C library pieces that CUDA device code may call ---- */
extern "C" {
__KC_HD int printf(const char *format, ...);
__KC_HD void *malloc(size_t size);
__KC_HD void free(void *ptr);
__KC_HD void *memcpy(void *dst, const void *src, size_t n);
__KC_HD void *memset(void *dst, int c, size_t n);
__KC_HD void __assertfail(const char *message, const char *file, unsigned int line, const char *function, size_t charSize);
__KC_HD void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function);
}
__KC_D long long clock64(void);
__KC_HD long clock(void);
__KC_D unsigned long long __globaltimer(void);

/* ---- synchronisation, warp functions ---- */
#if !__has_builtin(__syncthreads)
__KC_D void __syncthreads(void);
#endif
__KC_D int __syncthreads_count(int predicate);
__KC_D int __syncthreads_and(int predicate);
__KC_D int __syncthreads_or(int predicate);
__KC_D void __syncwarp(unsigned int mask = 0xffffffffu);
__KC_D void __threadfence(void);
__KC_D void __threadfence_block(void);
__KC_D void __threadfence_system(void);
__KC_D void __nanosleep(unsigned int ns);
__KC_D void __trap(void);
__KC_D void __brkpt(void);
__KC_D unsigned int __activemask(void);
__KC_D unsigned int __ballot_sync(unsigned int mask, int predicate);
__KC_D int __any_sync(unsigned int mask, int predicate);
__KC_D int __all_sync(unsigned int mask, int predicate);
__KC_D unsigned int __uni_sync(unsigned int mask, int predicate);
__KC_D unsigned int __ballot(int predicate);
__KC_D int __any(int predicate);
__KC_D int __all(int predicate);
template <class T> __KC_D T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);
template <class T> __KC_D T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __KC_D T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __KC_D T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);
template <class T> __KC_D T __shfl(T var, int srcLane, int width = 32);
template <class T> __KC_D T __shfl_up(T var, unsigned int delta, int width = 32);
template <class T> __KC_D T __shfl_down(T var, unsigned int delta, int width = 32);
template <class T> __KC_D T __shfl_xor(T var, int laneMask, int width = 32);
template <class T> __KC_D unsigned int __match_any_sync(unsigned int mask, T value);
template <class T> __KC_D unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
__KC_D unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__KC_D int __reduce_add_sync(unsigned int mask, int value);
__KC_D unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__KC_D int __reduce_min_sync(unsigned int mask, int value);
__KC_D unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__KC_D int __reduce_max_sync(unsigned int mask, int value);
__KC_D unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__KC_D unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__KC_D unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
__KC_D unsigned int __lanemask_lt(void);
__KC_D unsigned int __lanemask_le(void);
__KC_D unsigned int __lanemask_eq(void);
__KC_D unsigned int __lanemask_gt(void);
__KC_D unsigned int __lanemask_ge(void);

/* ---- memory access intrinsics ---- */
template <class T> __KC_D T __ldg(const T *ptr);
template <class T> __KC_D T __ldcg(const T *ptr);
template <class T> __KC_D T __ldca(const T *ptr);
template <class T> __KC_D T __ldcs(const T *ptr);
template <class T> __KC_D T __ldlu(const T *ptr);
template <class T> __KC_D T __ldcv(const T *ptr);
template <class T> __KC_D void __stwb(T *ptr, T value);
template <class T> __KC_D void __stcg(T *ptr, T value);
template <class T> __KC_D void __stcs(T *ptr, T value);
template <class T> __KC_D void __stwt(T *ptr, T value);
__KC_D unsigned int __cvta_generic_to_shared(const void *ptr);
__KC_D bool __isShared(const void *ptr);
__KC_D bool __isGlobal(const void *ptr);
__KC_D void __prefetch_global_l2(const void *ptr);

/* ---- atomics ---- */
#define __KC_ATOMIC_ALL(name)                                                   \
  __KC_D int name(int *address, int val);                                     \
  __KC_D unsigned int name(unsigned int *address, unsigned int val);          \
  __KC_D unsigned long long name(unsigned long long *address, unsigned long long val);
#define __KC_ATOMIC_SCOPES(M, name) M(name) M(name##_block) M(name##_system)
#define __KC_ATOMIC_ADD(name)                                                   \
  __KC_ATOMIC_ALL(name)                                                         \
  __KC_D float name(float *address, float val);                               \
  __KC_D double name(double *address, double val);
#define __KC_ATOMIC_EXCH(name)                                                  \
  __KC_ATOMIC_ALL(name)                                                         \
  __KC_D float name(float *address, float val);
#define __KC_ATOMIC_MINMAX(name)                                                \
  __KC_ATOMIC_ALL(name)                                                         \
  __KC_D long long name(long long *address, long long val);
#define __KC_ATOMIC_SUB(name)                                                   \
  __KC_D int name(int *address, int val);                                     \
  __KC_D unsigned int name(unsigned int *address, unsigned int val);
#define __KC_ATOMIC_INC(name)                                                   \
  __KC_D unsigned int name(unsigned int *address, unsigned int val);
#define __KC_ATOMIC_CAS(name)                                                   \
  __KC_D int name(int *address, int compare, int val);                        \
  __KC_D unsigned int name(unsigned int *address, unsigned int compare, unsigned int val); \
  __KC_D unsigned long long name(unsigned long long *address, unsigned long long compare, unsigned long long val); \
  __KC_D unsigned short name(unsigned short *address, unsigned short compare, unsigned short val);
__KC_ATOMIC_SCOPES(__KC_ATOMIC_ADD, atomicAdd)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_SUB, atomicSub)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_EXCH, atomicExch)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_MINMAX, atomicMin)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_MINMAX, atomicMax)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_INC, atomicInc)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_INC, atomicDec)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_CAS, atomicCAS)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_ALL, atomicAnd)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_ALL, atomicOr)
__KC_ATOMIC_SCOPES(__KC_ATOMIC_ALL, atomicXor)
#undef __KC_ATOMIC_ALL
#undef __KC_ATOMIC_SCOPES
#undef __KC_ATOMIC_ADD
#undef __KC_ATOMIC_EXCH
#undef __KC_ATOMIC_MINMAX
#undef __KC_ATOMIC_SUB
#undef __KC_ATOMIC_INC
#undef __KC_ATOMIC_CAS

/* ---- integer and bit intrinsics ---- */
__KC_D int __popc(unsigned int x);
__KC_D int __popcll(unsigned long long x);
__KC_D int __clz(int x);
__KC_D int __clzll(long long x);
__KC_D int __ffs(int x);
__KC_D int __ffsll(long long x);
__KC_D unsigned int __brev(unsigned int x);
__KC_D unsigned long long __brevll(unsigned long long x);
__KC_D unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);
__KC_D unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__KC_D unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__KC_D int __mul24(int x, int y);
__KC_D unsigned int __umul24(unsigned int x, unsigned int y);
__KC_D int __mulhi(int x, int y);
__KC_D unsigned int __umulhi(unsigned int x, unsigned int y);
__KC_D long long __mul64hi(long long x, long long y);
__KC_D unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__KC_D int __sad(int x, int y, unsigned int z);
__KC_D unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
__KC_D int __hadd(int x, int y);
__KC_D int __rhadd(int x, int y);
__KC_D unsigned int __uhadd(unsigned int x, unsigned int y);
__KC_D int __dp4a(int srcA, int srcB, int c);
__KC_D unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c);

/* ---- float conversion and fast-math intrinsics ---- */
__KC_D int __float_as_int(float x);
__KC_D unsigned int __float_as_uint(float x);
__KC_D float __int_as_float(int x);
__KC_D float __uint_as_float(unsigned int x);
__KC_D long long __double_as_longlong(double x);
__KC_D double __longlong_as_double(long long x);
__KC_D int __double2hiint(double x);
__KC_D int __double2loint(double x);
__KC_D double __hiloint2double(int hi, int lo);
#define __KC_ROUNDED(M) M(rn) M(rz) M(ru) M(rd)
#define __KC_CVT(r)                                                             \
  __KC_D int __float2int_##r(float x); __KC_D unsigned int __float2uint_##r(float x); \
  __KC_D long long __float2ll_##r(float x); __KC_D unsigned long long __float2ull_##r(float x); \
  __KC_D float __int2float_##r(int x); __KC_D float __uint2float_##r(unsigned int x); \
  __KC_D float __ll2float_##r(long long x); __KC_D float __ull2float_##r(unsigned long long x); \
  __KC_D int __double2int_##r(double x); __KC_D unsigned int __double2uint_##r(double x); \
  __KC_D long long __double2ll_##r(double x); __KC_D float __double2float_##r(double x); \
  __KC_D double __ll2double_##r(long long x); \
  __KC_D float __fadd_##r(float x, float y); __KC_D float __fsub_##r(float x, float y); \
  __KC_D float __fmul_##r(float x, float y); __KC_D float __fdiv_##r(float x, float y); \
  __KC_D float __fmaf_##r(float x, float y, float z); __KC_D float __frcp_##r(float x); \
  __KC_D float __fsqrt_##r(float x); \
  __KC_D double __dadd_##r(double x, double y); __KC_D double __dsub_##r(double x, double y); \
  __KC_D double __dmul_##r(double x, double y); __KC_D double __ddiv_##r(double x, double y); \
  __KC_D double __fma_##r(double x, double y, double z); __KC_D double __drcp_##r(double x); \
  __KC_D double __dsqrt_##r(double x);
__KC_ROUNDED(__KC_CVT)
#undef __KC_CVT
#undef __KC_ROUNDED
__KC_D float __frsqrt_rn(float x);
__KC_D float __saturatef(float x);
__KC_D float __fdividef(float x, float y);
__KC_D float __expf(float x);
__KC_D float __exp10f(float x);
__KC_D float __logf(float x);
__KC_D float __log2f(float x);
__KC_D float __log10f(float x);
__KC_D float __powf(float x, float y);
__KC_D float __sinf(float x);
__KC_D float __cosf(float x);
__KC_D float __tanf(float x);
__KC_D void __sincosf(float x, float *s, float *c);
__KC_D float __tanhf(float x);

/* ---- math library: C functions (float and double) ---- */
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VAL (__builtin_huge_val())
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
#define M_LN2 0.69314718055994530942
#define M_SQRT2 1.41421356237309504880
#define M_PI_2 1.57079632679489661923
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT1_2 0.70710678118654752440
#define M_LOG2E 1.4426950408889634074
template <class T> struct __kc_is_int { static const bool value = false; };
template <> struct __kc_is_int<bool> { static const bool value = true; };
template <> struct __kc_is_int<char> { static const bool value = true; };
template <> struct __kc_is_int<signed char> { static const bool value = true; };
template <> struct __kc_is_int<unsigned char> { static const bool value = true; };
template <> struct __kc_is_int<short> { static const bool value = true; };
template <> struct __kc_is_int<unsigned short> { static const bool value = true; };
template <> struct __kc_is_int<int> { static const bool value = true; };
template <> struct __kc_is_int<unsigned int> { static const bool value = true; };
template <> struct __kc_is_int<long> { static const bool value = true; };
template <> struct __kc_is_int<unsigned long> { static const bool value = true; };
template <> struct __kc_is_int<long long> { static const bool value = true; };
template <> struct __kc_is_int<unsigned long long> { static const bool value = true; };
template <bool B, class T = void> struct __kc_enable_if {};
template <class T> struct __kc_enable_if<true, T> { typedef T type; };
#define __KC_INTARG(T) typename __kc_enable_if<__kc_is_int<T>::value, double>::type
/* f(x): C double and float functions, C++ float overload, integral overload. */
#define __KC_M1(N)                                                              \
  extern "C" __KC_HD double N(double x);                                      \
  extern "C" __KC_HD float N##f(float x);                                     \
  __KC_HD float N(float x);                                                   \
  template <class T> __KC_HD __KC_INTARG(T) N(T x);
#define __KC_M2(N)                                                              \
  extern "C" __KC_HD double N(double x, double y);                            \
  extern "C" __KC_HD float N##f(float x, float y);                            \
  __KC_HD float N(float x, float y);                                          \
  template <class T> __KC_HD __KC_INTARG(T) N(T x, T y);
#define __KC_MX(r, f, a) extern "C" __KC_HD r f a;
__KC_M1(acos) __KC_M1(asin) __KC_M1(atan) __KC_M1(cos) __KC_M1(sin) __KC_M1(tan)
__KC_M1(acosh) __KC_M1(asinh) __KC_M1(atanh) __KC_M1(cosh) __KC_M1(sinh) __KC_M1(tanh)
__KC_M1(exp) __KC_M1(exp2) __KC_M1(exp10) __KC_M1(expm1) __KC_M1(log) __KC_M1(log10)
__KC_M1(log1p) __KC_M1(log2) __KC_M1(logb) __KC_M1(cbrt) __KC_M1(fabs) __KC_M1(sqrt)
__KC_M1(rsqrt) __KC_M1(rcbrt) __KC_M1(erf) __KC_M1(erfc) __KC_M1(erfinv) __KC_M1(erfcinv)
__KC_M1(erfcx) __KC_M1(lgamma) __KC_M1(tgamma) __KC_M1(ceil) __KC_M1(floor) __KC_M1(trunc)
__KC_M1(round) __KC_M1(rint) __KC_M1(nearbyint) __KC_M1(sinpi) __KC_M1(cospi)
__KC_M1(normcdf) __KC_M1(normcdfinv) __KC_M1(j0) __KC_M1(j1) __KC_M1(y0) __KC_M1(y1)
__KC_M2(atan2) __KC_M2(hypot) __KC_M2(pow) __KC_M2(fmod) __KC_M2(remainder)
__KC_M2(copysign) __KC_M2(nextafter) __KC_M2(fdim) __KC_M2(fmax) __KC_M2(fmin) __KC_M2(rhypot)
__KC_MX(double, fma, (double x, double y, double z)) __KC_MX(float, fmaf, (float x, float y, float z))
__KC_MX(double, frexp, (double x, int *e)) __KC_MX(float, frexpf, (float x, int *e))
__KC_MX(double, ldexp, (double x, int e)) __KC_MX(float, ldexpf, (float x, int e))
__KC_MX(double, modf, (double x, double *i)) __KC_MX(float, modff, (float x, float *i))
__KC_MX(double, scalbn, (double x, int n)) __KC_MX(float, scalbnf, (float x, int n))
__KC_MX(double, scalbln, (double x, long n)) __KC_MX(float, scalblnf, (float x, long n))
__KC_MX(int, ilogb, (double x)) __KC_MX(int, ilogbf, (float x))
__KC_MX(long, lround, (double x)) __KC_MX(long, lroundf, (float x))
__KC_MX(long long, llround, (double x)) __KC_MX(long long, llroundf, (float x))
__KC_MX(long, lrint, (double x)) __KC_MX(long, lrintf, (float x))
__KC_MX(long long, llrint, (double x)) __KC_MX(long long, llrintf, (float x))
__KC_MX(double, nan, (const char *t)) __KC_MX(float, nanf, (const char *t))
__KC_MX(double, remquo, (double x, double y, int *q)) __KC_MX(float, remquof, (float x, float y, int *q))
__KC_MX(void, sincos, (double x, double *s, double *c)) __KC_MX(void, sincosf, (float x, float *s, float *c))
__KC_MX(void, sincospi, (double x, double *s, double *c)) __KC_MX(void, sincospif, (float x, float *s, float *c))
__KC_MX(double, norm3d, (double a, double b, double c)) __KC_MX(float, norm3df, (float a, float b, float c))
__KC_MX(double, rnorm3d, (double a, double b, double c)) __KC_MX(float, rnorm3df, (float a, float b, float c))
__KC_MX(double, norm4d, (double a, double b, double c, double d)) __KC_MX(float, norm4df, (float a, float b, float c, float d))
__KC_MX(int, abs, (int x)) __KC_MX(long, labs, (long x)) __KC_MX(long long, llabs, (long long x))
__KC_HD float fma(float x, float y, float z);
__KC_HD float frexp(float x, int *e);
__KC_HD float ldexp(float x, int e);
__KC_HD float modf(float x, float *i);
__KC_HD float scalbn(float x, int n);
__KC_HD int ilogb(float x);
__KC_HD long lround(float x);
__KC_HD long long llround(float x);
__KC_HD long lrint(float x);
__KC_HD long long llrint(float x);
__KC_HD void sincos(float x, float *s, float *c);
__KC_HD long abs(long x);
__KC_HD long long abs(long long x);
__KC_HD float abs(float x);
__KC_HD double abs(double x);
__KC_HD bool isnan(float x);
__KC_HD bool isnan(double x);
__KC_HD bool isinf(float x);
__KC_HD bool isinf(double x);
__KC_HD bool isfinite(float x);
__KC_HD bool isfinite(double x);
__KC_HD bool signbit(float x);
__KC_HD bool signbit(double x);
extern "C" __KC_HD int __isnanf(float x);
extern "C" __KC_HD int __isinff(float x);
extern "C" __KC_HD int __finitef(float x);
/* CUDA min/max overloads (math_functions.hpp) */
#define __KC_MINMAX(T)                                                          \
  __KC_HD T min(T a, T b); __KC_HD T max(T a, T b);
__KC_MINMAX(int) __KC_MINMAX(unsigned int) __KC_MINMAX(long) __KC_MINMAX(unsigned long)
__KC_MINMAX(long long) __KC_MINMAX(unsigned long long) __KC_MINMAX(float) __KC_MINMAX(double)
__KC_HD unsigned int min(int a, unsigned int b); __KC_HD unsigned int min(unsigned int a, int b);
__KC_HD unsigned int max(int a, unsigned int b); __KC_HD unsigned int max(unsigned int a, int b);
__KC_HD long long min(long long a, int b); __KC_HD long long min(int a, long long b);
__KC_HD long long max(long long a, int b); __KC_HD long long max(int a, long long b);
__KC_HD float min(float a, double b); __KC_HD float min(double a, float b);
__KC_HD float max(float a, double b); __KC_HD float max(double a, float b);
__KC_HD unsigned long umin(unsigned long a, unsigned long b);
__KC_HD unsigned long umax(unsigned long a, unsigned long b);
__KC_HD long long llmin(long long a, long long b);
__KC_HD long long llmax(long long a, long long b);
__KC_HD unsigned long long ullmin(unsigned long long a, unsigned long long b);
__KC_HD unsigned long long ullmax(unsigned long long a, unsigned long long b);
#undef __KC_MINMAX
namespace std {
using ::size_t; using ::ptrdiff_t;
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::intptr_t; using ::uintptr_t;
#define __KC_STD1(N) using ::N; using ::N##f;
__KC_STD1(acos) __KC_STD1(asin) __KC_STD1(atan) __KC_STD1(cos) __KC_STD1(sin) __KC_STD1(tan)
__KC_STD1(acosh) __KC_STD1(asinh) __KC_STD1(atanh) __KC_STD1(cosh) __KC_STD1(sinh) __KC_STD1(tanh)
__KC_STD1(exp) __KC_STD1(exp2) __KC_STD1(expm1) __KC_STD1(log) __KC_STD1(log10)
__KC_STD1(log1p) __KC_STD1(log2) __KC_STD1(logb) __KC_STD1(cbrt) __KC_STD1(fabs) __KC_STD1(sqrt)
__KC_STD1(erf) __KC_STD1(erfc) __KC_STD1(lgamma) __KC_STD1(tgamma) __KC_STD1(ceil) __KC_STD1(floor)
__KC_STD1(trunc) __KC_STD1(round) __KC_STD1(rint) __KC_STD1(nearbyint)
__KC_STD1(atan2) __KC_STD1(hypot) __KC_STD1(pow) __KC_STD1(fmod) __KC_STD1(remainder)
__KC_STD1(copysign) __KC_STD1(nextafter) __KC_STD1(fdim) __KC_STD1(fmax) __KC_STD1(fmin)
__KC_STD1(fma) __KC_STD1(frexp) __KC_STD1(ldexp) __KC_STD1(modf) __KC_STD1(scalbn)
__KC_STD1(ilogb) __KC_STD1(lround) __KC_STD1(llround) __KC_STD1(lrint) __KC_STD1(llrint)
__KC_STD1(nan) __KC_STD1(remquo)
#undef __KC_STD1
using ::abs; using ::labs; using ::llabs;
using ::isnan; using ::isinf; using ::isfinite; using ::signbit;
using ::printf; using ::malloc; using ::free; using ::memcpy; using ::memset;
}
#undef __KC_M1
#undef __KC_M2
#undef __KC_MX
#undef __KC_INTARG

#endif
