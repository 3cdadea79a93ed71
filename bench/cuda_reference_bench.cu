// Benchmark and check of the CUDA reference kernels (kernels/reference/cuda/).
//
//   nvcc -std=c++17 -O3 -arch=native -o /tmp/crb bench/cuda_reference_bench.cu
//   /tmp/crb [--quick] [--op NAME] [--reps N]
//
// For every op: generates inputs on the device (seeded, counter-based RNG,
// the op specs' distributions), runs the reference, and checks it against a
// double-precision CPU implementation: every output at the correctness
// sizes and at extra sizes that are not multiples of the block sizes (odd
// row lengths, misaligned rows, the fallback paths); sampled outputs (first,
// last and random rows) at the timing sizes, which also catches 32-bit
// offset overflow.  Times each reference at the timing sizes: warm-up, L2
// flushed (256 MiB memset) before every run, CUDA events around the call
// only, median of --reps (default 30) runs.  Also times a device-to-device
// cudaMemcpy of 1 GiB (copy bandwidth, bytes read + written).  The
// cross-entropy *_ex functions (ignore_index, label_smoothing) are checked
// with label_smoothing 0.1 and 0.5 at odd sizes with ignored rows (and one
// non-default ignore_index), and the forward is timed with
// label_smoothing 0.1 next to the plain line; those lines carry
// "label": "label_smoothing=0.1" (and the check names it).
//
// Output: one JSON object per line on stdout:
//   {"op", "impl": "cuda", "size": {...}, "ms", "gbps", "max_abs_err",
//    "max_rel_err", "ok", "check": "full"|"sampled", ...}
// max_rel_err is max|got - want| / max|want| over the checked outputs; ok
// means every checked output is within atol + rtol * |want| (the op spec's
// tolerances) and NaNs match.  ms/gbps are null when the size is not timed.
// A failing op prints "ok": false with "error" and the next op still runs.
// Exit status: 0 when every line is ok, 1 otherwise.
#include "../kernels/reference/cuda/axpy.cuh"
#include "../kernels/reference/cuda/block_sum.cuh"
#include "../kernels/reference/cuda/cross_entropy.cuh"
#include "../kernels/reference/cuda/decode_scores.cuh"
#include "../kernels/reference/cuda/matvec.cuh"
#include "../kernels/reference/cuda/softmax.cuh"
#include "../kernels/reference/cuda/transpose.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// ---------------------------------------------------------------- errors

struct BenchError {
    std::string msg;
};

static void check_cuda(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s: %s (line %d)", what, cudaGetErrorString(e), line);
        throw BenchError{buf};
    }
}
#define CK(x) check_cuda((x), #x, __LINE__)

// ---------------------------------------------------------------- options

static bool g_quick = false;
static const char *g_only = nullptr;
static int g_reps = 30;
static bool g_all_ok = true;
static void *g_flush = nullptr;
static const size_t g_flush_bytes = (size_t)256 << 20;

// ---------------------------------------------------------------- device buffers and RNG

struct DevBuf {
    void *p = nullptr;
    explicit DevBuf(size_t bytes) { CK(cudaMalloc(&p, bytes ? bytes : 16)); }
    ~DevBuf() { cudaFree(p); }
    DevBuf(const DevBuf &) = delete;
    DevBuf &operator=(const DevBuf &) = delete;
    template <class T> T *as() const { return static_cast<T *>(p); }
};

__host__ __device__ static inline uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

__device__ static inline double unit_open(uint64_t bits) { return ((double)(bits >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

template <class T> __device__ static inline T from_float(float v);
template <> __device__ inline float from_float<float>(float v) { return v; }
template <> __device__ inline __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <class T> __global__ void fill_normal(T *p, int64_t n, uint64_t seed, float mean, float sd)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const uint64_t h = mix64(seed ^ mix64((uint64_t)i));
        const double u1 = unit_open(h), u2 = unit_open(mix64(h));
        const double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        p[i] = from_float<T>((float)(mean + sd * z));
    }
}

__global__ void fill_uniform(float *p, int64_t n, uint64_t seed, float lo, float hi)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        p[i] = (float)(lo + (hi - lo) * unit_open(mix64(seed ^ mix64((uint64_t)i))));
}

__global__ void fill_randint(int64_t *p, int64_t n, uint64_t seed, int64_t lo, int64_t hi)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        p[i] = lo + (int64_t)(mix64(seed ^ mix64((uint64_t)i)) % (uint64_t)(hi - lo));
}

static unsigned fill_blocks(int64_t n)
{
    int64_t b = (n + 255) / 256;
    return (unsigned)std::max<int64_t>(1, std::min<int64_t>(b, 65536));
}

template <class T> static void dev_normal(T *p, int64_t n, uint64_t seed, float mean, float sd)
{
    fill_normal<T><<<fill_blocks(n), 256>>>(p, n, seed, mean, sd);
    CK(cudaGetLastError());
}

static void dev_uniform(float *p, int64_t n, uint64_t seed, float lo, float hi)
{
    fill_uniform<<<fill_blocks(n), 256>>>(p, n, seed, lo, hi);
    CK(cudaGetLastError());
}

static void dev_randint(int64_t *p, int64_t n, uint64_t seed, int64_t lo, int64_t hi)
{
    fill_randint<<<fill_blocks(n), 256>>>(p, n, seed, lo, hi);
    CK(cudaGetLastError());
}

static inline double to_d(float v) { return v; }
static inline double to_d(__half v) { return (double)__half2float(v); }
static inline double to_d(__nv_bfloat16 v) { return (double)__bfloat162float(v); }

template <class T> static std::vector<T> d2h(const T *d, int64_t n)
{
    std::vector<T> h((size_t)std::max<int64_t>(n, 0));
    if (n > 0)
        CK(cudaMemcpy(h.data(), d, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <class T> static void h2d(T *d, const std::vector<T> &h)
{
    if (!h.empty())
        CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// Rows to check: all of them, or the first two, the middle, the last two and
// some random ones.
static std::vector<int64_t> pick(int64_t n, bool all, uint64_t seed, int count = 12)
{
    std::vector<int64_t> r;
    if (all || n <= count + 5) {
        for (int64_t i = 0; i < n; ++i)
            r.push_back(i);
        return r;
    }
    r = {0, 1, n / 2, n - 2, n - 1};
    for (int i = 0; i < count; ++i)
        r.push_back((int64_t)(mix64(seed + (uint64_t)i) % (uint64_t)n));
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
}

// ---------------------------------------------------------------- comparison

struct Cmp {
    double atol, rtol;
    double max_abs = 0, max_ref = 0;
    int64_t bad = 0, count = 0;
    Cmp(double a, double r) : atol(a), rtol(r) {}
    void add(double got, double want)
    {
        ++count;
        double d = std::fabs(got - want);
        if (std::isnan(got) != std::isnan(want) || (std::isnan(d) && !(std::isnan(got) && std::isnan(want))))
            d = INFINITY;
        if (std::isnan(got) && std::isnan(want))
            d = 0;
        if (d > atol + rtol * std::fabs(want))
            ++bad;
        if (d > max_abs)
            max_abs = d;
        if (std::isfinite(want) && std::fabs(want) > max_ref)
            max_ref = std::fabs(want);
    }
    bool ok() const { return bad == 0 && count > 0; }
    double rel() const { return max_ref > 0 ? max_abs / max_ref : max_abs; }
};

// ---------------------------------------------------------------- timing

template <class F> static double median_ms(F f, int reps)
{
    for (int i = 0; i < 3; ++i)
        f();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int i = 0; i < reps; ++i) {
        if (g_flush)
            CK(cudaMemsetAsync(g_flush, i & 0xff, g_flush_bytes));
        CK(cudaEventRecord(a));
        f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

// ---------------------------------------------------------------- reporting

struct Size {
    std::vector<std::pair<std::string, long long>> kv;
    std::string json() const
    {
        std::string s = "{";
        for (size_t i = 0; i < kv.size(); ++i) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s\"%s\": %lld", i ? ", " : "", kv[i].first.c_str(), kv[i].second);
            s += buf;
        }
        return s + "}";
    }
};

static std::string num(double v)
{
    if (!std::isfinite(v))
        return v > 0 ? "1e308" : (v < 0 ? "-1e308" : "null");
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

static void report(const char *op, const Size &size, double ms, double bytes, const Cmp *c, const char *check,
                   const std::string &extra = "")
{
    bool ok = c ? c->ok() : true;
    if (!ok)
        g_all_ok = false;
    printf("{\"op\": \"%s\", \"impl\": \"cuda\", \"size\": %s, \"ms\": %s, \"gbps\": %s, \"bytes\": %.0f, "
           "\"max_abs_err\": %s, \"max_rel_err\": %s, \"ok\": %s, \"checked\": %lld, \"mismatches\": %lld, "
           "\"check\": \"%s\"%s}\n",
           op, size.json().c_str(), ms > 0 ? num(ms).c_str() : "null",
           ms > 0 ? num(bytes / (ms * 1e-3) / 1e9).c_str() : "null", bytes, c ? num(c->max_abs).c_str() : "null",
           c ? num(c->rel()).c_str() : "null", ok ? "true" : "false", c ? (long long)c->count : 0LL,
           c ? (long long)c->bad : 0LL, check, extra.c_str());
    fflush(stdout);
}

static void report_error(const char *op, const Size &size, const std::string &msg)
{
    g_all_ok = false;
    std::string m;
    for (char ch : msg)
        m += (ch == '"' || ch == '\\') ? '\'' : ch;
    printf("{\"op\": \"%s\", \"impl\": \"cuda\", \"size\": %s, \"ms\": null, \"gbps\": null, \"max_rel_err\": null, "
           "\"ok\": false, \"error\": \"%s\"}\n",
           op, size.json().c_str(), m.c_str());
    fflush(stdout);
}

// A case: sizes, whether every output is checked, whether it is timed.
struct Case {
    bool full;
    bool time;
};

// ---------------------------------------------------------------- cross entropy

// Options of the *_ex functions.  ex == false: the spec function (ignore_index
// -100, no smoothing).
struct CeOpt {
    bool ex = false;
    int64_t ignore_index = -100;
    float eps = 0.0f;
    std::string label() const
    {
        if (!ex)
            return "";
        char buf[96];
        if (ignore_index != -100)
            snprintf(buf, sizeof buf, "ignore_index=%lld, label_smoothing=%g", (long long)ignore_index, eps);
        else
            snprintf(buf, sizeof buf, "label_smoothing=%g", eps);
        return buf;
    }
};

static CeOpt ce_opt(float eps, int64_t ignore_index = -100)
{
    CeOpt o;
    o.ex = true;
    o.eps = eps;
    o.ignore_index = ignore_index;
    return o;
}

// The check name ("full" or "sampled", with the options in parentheses) and
// the "label" field of a line.
static std::string ce_check(const Case &cs, const CeOpt &o)
{
    std::string c = cs.full ? "full" : "sampled";
    return o.ex ? c + " (" + o.label() + ")" : c;
}

static std::string ce_label_json(const CeOpt &o) { return o.ex ? ", \"label\": \"" + o.label() + "\"" : ""; }

// Double-precision oracle of one row: lse, and the sum of the logits.
template <class T> static void ce_row_oracle(const std::vector<T> &x, double &lse, double &sum)
{
    double mx = -INFINITY;
    for (const T &v : x)
        mx = std::max(mx, to_d(v));
    double s = 0;
    sum = 0;
    for (const T &v : x) {
        s += std::exp(to_d(v) - mx);
        sum += to_d(v);
    }
    lse = mx + std::log(s);
}

// PyTorch's loss for a class-index target with label smoothing eps: (1 - eps) *
// (lse - x[t]) + eps * (lse - mean(x)); 0 for an ignored row.
template <class T>
static double ce_loss_oracle(const std::vector<T> &x, int64_t t, const CeOpt &o, double lse, double sum)
{
    if (t == o.ignore_index)
        return 0.0;
    const double n = (double)x.size();
    const double eps = o.eps;
    return eps != 0.0 ? lse - (1.0 - eps) * to_d(x[(size_t)t]) - eps / n * sum : lse - to_d(x[(size_t)t]);
}

static void ce_mark_ignored(int64_t *target, int64_t M, int64_t ignore_index)
{
    std::vector<int64_t> t = d2h(target, M);
    for (int64_t i = 0; i < M; i += 5)
        t[(size_t)i] = ignore_index;
    h2d(target, t);
}

template <class T>
static void ce_fwd(const char *op, int64_t M, int64_t N, Case cs, bool ignore_some,
                   void (*ref)(const T *, const int64_t *, float *, int64_t, int64_t, cudaStream_t),
                   void (*ref_ex)(const T *, const int64_t *, float *, int64_t, int64_t, int64_t, float, cudaStream_t) =
                       nullptr,
                   CeOpt opt = CeOpt())
{
    Size size{{{"M", M}, {"N", N}}};
    if (ignore_some)
        size.kv.push_back({"ignored_rows", 1});
    DevBuf logits((size_t)(M * N) * sizeof(T)), target((size_t)M * 8), loss((size_t)M * 4);
    dev_normal<T>(logits.as<T>(), M * N, 11, 0.0f, 2.0f);
    dev_randint(target.as<int64_t>(), M, 12, 0, N);
    if (ignore_some)
        ce_mark_ignored(target.as<int64_t>(), M, opt.ignore_index);
    CK(cudaDeviceSynchronize());
    auto call = [&] {
        if (opt.ex)
            ref_ex(logits.as<T>(), target.as<int64_t>(), loss.as<float>(), M, N, opt.ignore_index, opt.eps, 0);
        else
            ref(logits.as<T>(), target.as<int64_t>(), loss.as<float>(), M, N, 0);
    };
    call();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int64_t> tg = d2h(target.as<int64_t>(), M);
    std::vector<float> ls = d2h(loss.as<float>(), M);
    Cmp c(1e-4, 1e-4);
    std::vector<T> row((size_t)N);
    for (int64_t i : pick(M, cs.full, 99)) {
        CK(cudaMemcpy(row.data(), logits.as<T>() + i * N, (size_t)N * sizeof(T), cudaMemcpyDeviceToHost));
        double lse, sum;
        ce_row_oracle(row, lse, sum);
        c.add(ls[(size_t)i], ce_loss_oracle(row, tg[(size_t)i], opt, lse, sum));
    }
    double ms = 0;
    if (cs.time)
        ms = median_ms(call, g_reps);
    report(op, size, ms, (double)M * N * sizeof(T) + M * 8.0 + M * 4.0, &c, ce_check(cs, opt).c_str(),
           ce_label_json(opt));
}

template <class T>
static void ce_fwd_bwd(const char *op, int64_t M, int64_t N, Case cs, bool ignore_some,
                       void (*ref)(const T *, const int64_t *, float *, T *, int64_t, int64_t, float, cudaStream_t),
                       double grad_atol, double grad_rtol,
                       void (*ref_ex)(const T *, const int64_t *, float *, T *, int64_t, int64_t, float, int64_t,
                                      float, cudaStream_t) = nullptr,
                       CeOpt opt = CeOpt())
{
    Size size{{{"M", M}, {"N", N}}};
    if (ignore_some)
        size.kv.push_back({"ignored_rows", 1});
    const float grad_scale = ignore_some ? 0.5f : 1.0f;
    DevBuf logits((size_t)(M * N) * sizeof(T)), target((size_t)M * 8), loss((size_t)M * 4);
    dev_normal<T>(logits.as<T>(), M * N, 21, 0.0f, 2.0f);
    dev_randint(target.as<int64_t>(), M, 22, 0, N);
    if (ignore_some)
        ce_mark_ignored(target.as<int64_t>(), M, opt.ignore_index);
    CK(cudaDeviceSynchronize());
    // in place, as the op spec says: the gradient overwrites the logits
    auto call = [&] {
        if (opt.ex)
            ref_ex(logits.as<T>(), target.as<int64_t>(), loss.as<float>(), logits.as<T>(), M, N, grad_scale,
                   opt.ignore_index, opt.eps, 0);
        else
            ref(logits.as<T>(), target.as<int64_t>(), loss.as<float>(), logits.as<T>(), M, N, grad_scale, 0);
    };
    const std::vector<int64_t> rows = pick(M, cs.full, 98);
    std::vector<std::vector<T>> orig;
    for (int64_t i : rows) {
        orig.emplace_back((size_t)N);
        CK(cudaMemcpy(orig.back().data(), logits.as<T>() + i * N, (size_t)N * sizeof(T), cudaMemcpyDeviceToHost));
    }
    call();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<int64_t> tg = d2h(target.as<int64_t>(), M);
    std::vector<float> ls = d2h(loss.as<float>(), M);
    Cmp cl(1e-4, 1e-4), cg(grad_atol, grad_rtol);
    std::vector<T> g((size_t)N);
    for (size_t r = 0; r < rows.size(); ++r) {
        const int64_t i = rows[r];
        const std::vector<T> &x = orig[r];
        CK(cudaMemcpy(g.data(), logits.as<T>() + i * N, (size_t)N * sizeof(T), cudaMemcpyDeviceToHost));
        double lse, sum;
        ce_row_oracle(x, lse, sum);
        const int64_t t = tg[(size_t)i];
        const bool ign = t == opt.ignore_index;
        cl.add(ls[(size_t)i], ce_loss_oracle(x, t, opt, lse, sum));
        // d loss / d x_j = softmax_j - (1 - eps) * [j == t] - eps / N
        const double eps = opt.eps, eps_n = eps / (double)N;
        for (int64_t j = 0; j < N; ++j) {
            const double want =
                ign ? 0.0 : (std::exp(to_d(x[(size_t)j]) - lse) - (j == t ? 1.0 - eps : 0.0) - eps_n) * grad_scale;
            cg.add(to_d(g[(size_t)j]), want);
        }
    }
    double ms = 0;
    if (cs.time)   // the logits keep being overwritten: the work per call is the same
        ms = median_ms(call, g_reps);
    Cmp both = cl;
    both.max_abs = std::max(cl.max_abs, cg.max_abs);
    both.bad += cg.bad;
    both.count += cg.count;
    both.max_ref = std::max(cl.max_ref, cg.max_ref);
    char extra[256];
    snprintf(extra, sizeof extra, ", \"loss_max_abs_err\": %s, \"grad_max_abs_err\": %s, \"grad_rel_err\": %s",
             num(cl.max_abs).c_str(), num(cg.max_abs).c_str(), num(cg.rel()).c_str());
    report(op, size, ms, 2.0 * M * N * sizeof(T) + M * 8.0 + M * 4.0, &both, ce_check(cs, opt).c_str(),
           extra + ce_label_json(opt));
}

// ---------------------------------------------------------------- decode scores

template <class T>
static void decode(const char *op, int64_t B, int64_t H, int64_t L, int64_t D, Case cs,
                   void (*ref)(const T *, const T *, float *, int64_t, int64_t, int64_t, int64_t, cudaStream_t),
                   double atol, double rtol)
{
    Size size{{{"B", B}, {"H", H}, {"L", L}, {"D", D}}};
    DevBuf q((size_t)(B * H * D) * sizeof(T)), k((size_t)(B * L * H * D) * sizeof(T)), s((size_t)(B * H * L) * 4);
    dev_normal<T>(q.as<T>(), B * H * D, 31, 0.0f, 1.0f);
    dev_normal<T>(k.as<T>(), B * L * H * D, 32, 0.0f, 1.0f);
    CK(cudaMemset(s.p, 0xff, (size_t)(B * H * L) * 4));   // NaN: an unwritten score fails the check
    CK(cudaDeviceSynchronize());
    ref(q.as<T>(), k.as<T>(), s.as<float>(), B, H, L, D, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<T> qh = d2h(q.as<T>(), B * H * D);
    std::vector<float> sh;
    if (cs.full)
        sh = d2h(s.as<float>(), B * H * L);
    Cmp c(atol, rtol);
    std::vector<T> krow((size_t)(H * D));
    for (int64_t bl : pick(B * L, cs.full, 97, 24)) {   // (b, l) rows of K
        const int64_t b = bl / L, l = bl % L;
        CK(cudaMemcpy(krow.data(), k.as<T>() + bl * H * D, (size_t)(H * D) * sizeof(T), cudaMemcpyDeviceToHost));
        for (int64_t h = 0; h < H; ++h) {
            double want = 0;
            for (int64_t d = 0; d < D; ++d)
                want += to_d(qh[(size_t)((b * H + h) * D + d)]) * to_d(krow[(size_t)(h * D + d)]);
            float got = 0;
            if (cs.full)
                got = sh[(size_t)((b * H + h) * L + l)];
            else
                CK(cudaMemcpy(&got, s.as<float>() + (b * H + h) * L + l, 4, cudaMemcpyDeviceToHost));
            c.add(got, want);
        }
    }
    double ms = 0;
    if (cs.time)
        ms = median_ms([&] { ref(q.as<T>(), k.as<T>(), s.as<float>(), B, H, L, D, 0); }, g_reps);
    report(op, size, ms, (double)B * L * H * D * sizeof(T) + (double)B * H * D * sizeof(T) + B * H * L * 4.0, &c,
           cs.full ? "full" : "sampled");
}

// ---------------------------------------------------------------- softmax

static void softmax(int64_t M, int64_t N, Case cs)
{
    Size size{{{"M", M}, {"N", N}}};
    DevBuf x((size_t)(M * N) * 4), y((size_t)(M * N) * 4);
    dev_normal<float>(x.as<float>(), M * N, 41, 0.0f, 2.0f);
    CK(cudaMemset(y.p, 0xff, (size_t)(M * N) * 4));
    CK(cudaDeviceSynchronize());
    kcref_softmax_rows(x.as<float>(), y.as<float>(), M, N, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    Cmp c(1e-6, 1e-4);
    std::vector<float> xr((size_t)N), yr((size_t)N);
    for (int64_t i : pick(M, cs.full, 96)) {
        CK(cudaMemcpy(xr.data(), x.as<float>() + i * N, (size_t)N * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(yr.data(), y.as<float>() + i * N, (size_t)N * 4, cudaMemcpyDeviceToHost));
        double mx = -INFINITY, s = 0;
        for (float v : xr)
            mx = std::max(mx, (double)v);
        for (float v : xr)
            s += std::exp((double)v - mx);
        for (int64_t j = 0; j < N; ++j)
            c.add(yr[(size_t)j], std::exp((double)xr[(size_t)j] - mx) / s);
    }
    double ms = 0;
    if (cs.time)
        ms = median_ms([&] { kcref_softmax_rows(x.as<float>(), y.as<float>(), M, N, 0); }, g_reps);
    report("softmax_rows", size, ms, 2.0 * M * N * 4, &c, cs.full ? "full" : "sampled");
}

// ---------------------------------------------------------------- block sum

static void block_sum(int64_t n, int64_t offset, Case cs)
{
    Size size{{{"n", n}}};
    if (offset)
        size.kv.push_back({"offset", offset});
    DevBuf xb((size_t)(n + offset) * 4), out(4);
    float *x = xb.as<float>() + offset;   // offset: a misaligned start (scalar head)
    dev_uniform(xb.as<float>(), n + offset, 51, 0.0f, 1.0f);
    CK(cudaDeviceSynchronize());
    kcref_block_sum(x, out.as<float>(), n, 0);
    CK(cudaGetLastError());
    float r1 = 0, r2 = 0;
    CK(cudaMemcpy(&r1, out.p, 4, cudaMemcpyDeviceToHost));
    kcref_block_sum(x, out.as<float>(), n, 0);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&r2, out.p, 4, cudaMemcpyDeviceToHost));
    std::vector<float> h = d2h(x, n);
    double want = 0;
    for (float v : h)
        want += v;
    Cmp c(1e-3, 1e-5);
    c.add(r1, want);
    const bool det = std::memcmp(&r1, &r2, 4) == 0;
    if (!det)
        c.bad++;
    double ms = 0;
    if (cs.time)
        ms = median_ms([&] { kcref_block_sum(x, out.as<float>(), n, 0); }, g_reps);
    report("block_sum", size, ms, n * 4.0 + 4.0, &c, "full", det ? ", \"deterministic\": true" : ", \"deterministic\": false");
}

// ---------------------------------------------------------------- transpose

static void transpose(int64_t M, int64_t N, Case cs)
{
    Size size{{{"M", M}, {"N", N}}};
    DevBuf x((size_t)(M * N) * 4), y((size_t)(M * N) * 4);
    dev_normal<float>(x.as<float>(), M * N, 61, 0.0f, 1.0f);
    CK(cudaMemset(y.p, 0xff, (size_t)(M * N) * 4));
    CK(cudaDeviceSynchronize());
    kcref_transpose(x.as<float>(), y.as<float>(), M, N, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    Cmp c(0.0, 0.0);
    if (cs.full) {
        std::vector<float> xh = d2h(x.as<float>(), M * N), yh = d2h(y.as<float>(), M * N);
        for (int64_t i = 0; i < M; ++i)
            for (int64_t j = 0; j < N; ++j)
                c.add(yh[(size_t)(j * M + i)], xh[(size_t)(i * N + j)]);
    } else {
        // whole output rows j (columns of x) for sampled j, plus sampled elements
        std::vector<float> yr((size_t)M);
        for (int64_t j : pick(N, false, 95, 4)) {
            CK(cudaMemcpy(yr.data(), y.as<float>() + j * M, (size_t)M * 4, cudaMemcpyDeviceToHost));
            std::vector<float> col((size_t)M);
            CK(cudaMemcpy2D(col.data(), 4, x.as<float>() + j, (size_t)N * 4, 4, (size_t)M, cudaMemcpyDeviceToHost));
            for (int64_t i = 0; i < M; ++i)
                c.add(yr[(size_t)i], col[(size_t)i]);
        }
    }
    double ms = 0;
    if (cs.time)
        ms = median_ms([&] { kcref_transpose(x.as<float>(), y.as<float>(), M, N, 0); }, g_reps);
    report("transpose", size, ms, 2.0 * M * N * 4, &c, cs.full ? "full" : "sampled");
}

// ---------------------------------------------------------------- axpy

static void axpy(int64_t n, int64_t offset, Case cs)
{
    Size size{{{"n", n}}};
    if (offset)
        size.kv.push_back({"offset", offset});
    const float a = 2.5f;
    DevBuf xb((size_t)(n + offset) * 4), yb((size_t)(n + offset) * 4);
    float *x = xb.as<float>() + offset, *y = yb.as<float>() + offset;
    dev_normal<float>(xb.as<float>(), n + offset, 71, 0.0f, 1.0f);
    dev_normal<float>(yb.as<float>(), n + offset, 72, 0.0f, 1.0f);
    CK(cudaDeviceSynchronize());
    const std::vector<int64_t> idx = pick(n, cs.full, 94, 4096);
    std::vector<float> x0, y0;
    if (cs.full) {
        x0 = d2h(x, n);
        y0 = d2h(y, n);
    } else {
        for (int64_t i : idx) {
            float v;
            CK(cudaMemcpy(&v, x + i, 4, cudaMemcpyDeviceToHost));
            x0.push_back(v);
            CK(cudaMemcpy(&v, y + i, 4, cudaMemcpyDeviceToHost));
            y0.push_back(v);
        }
    }
    kcref_axpy(x, y, y, n, a, 0);   // in place, as the op spec says
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    Cmp c(1e-6, 1e-6);
    if (cs.full) {
        std::vector<float> y1 = d2h(y, n);
        for (int64_t i = 0; i < n; ++i)
            c.add(y1[(size_t)i], (double)a * x0[(size_t)i] + y0[(size_t)i]);
    } else {
        for (size_t k = 0; k < idx.size(); ++k) {
            float v;
            CK(cudaMemcpy(&v, y + idx[k], 4, cudaMemcpyDeviceToHost));
            c.add(v, (double)a * x0[k] + y0[k]);
        }
    }
    double ms = 0;
    if (cs.time)
        ms = median_ms([&] { kcref_axpy(x, y, y, n, a, 0); }, g_reps);
    report("axpy", size, ms, 3.0 * n * 4, &c, cs.full ? "full" : "sampled");
}

// ---------------------------------------------------------------- matvec

static void matvec(int64_t M, int64_t K, Case cs)
{
    Size size{{{"M", M}, {"K", K}}};
    DevBuf A((size_t)(M * K) * 4), x((size_t)K * 4), y((size_t)M * 4);
    dev_normal<float>(A.as<float>(), M * K, 81, 0.0f, 1.0f);
    dev_normal<float>(x.as<float>(), K, 82, 0.0f, 1.0f);
    CK(cudaMemset(y.p, 0xff, (size_t)M * 4));
    CK(cudaDeviceSynchronize());
    kcref_matvec(A.as<float>(), x.as<float>(), y.as<float>(), M, K, 0);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> xh = d2h(x.as<float>(), K), yh = d2h(y.as<float>(), M), ar((size_t)K);
    Cmp c(1e-4, 1e-4);
    for (int64_t i : pick(M, cs.full, 93, 24)) {
        CK(cudaMemcpy(ar.data(), A.as<float>() + i * K, (size_t)K * 4, cudaMemcpyDeviceToHost));
        double want = 0;
        for (int64_t k = 0; k < K; ++k)
            want += (double)ar[(size_t)k] * xh[(size_t)k];
        c.add(yh[(size_t)i], want);
    }
    double ms = 0;
    if (cs.time)
        ms = median_ms([&] { kcref_matvec(A.as<float>(), x.as<float>(), y.as<float>(), M, K, 0); }, g_reps);
    report("matvec", size, ms, M * K * 4.0 + K * 4.0 + M * 4.0, &c, cs.full ? "full" : "sampled");
}

// ---------------------------------------------------------------- copy bandwidth

static void copy_bandwidth()
{
    const size_t bytes = (size_t)1 << 30;
    Size size{{{"bytes", (long long)bytes}}};
    DevBuf a(bytes), b(bytes);
    CK(cudaMemset(a.p, 1, bytes));
    const double ms = median_ms([&] { CK(cudaMemcpyAsync(b.p, a.p, bytes, cudaMemcpyDeviceToDevice)); }, 20);
    printf("{\"op\": \"copy\", \"impl\": \"cuda\", \"size\": %s, \"ms\": %s, \"gbps\": %s, \"bytes\": %.0f, "
           "\"note\": \"cudaMemcpy device to device, bytes read + written\"}\n",
           size.json().c_str(), num(ms).c_str(), num(2.0 * bytes / (ms * 1e-3) / 1e9).c_str(), 2.0 * bytes);
    fflush(stdout);
}

// ---------------------------------------------------------------- driver

template <class F> static void run(const char *op, const Size &size, F f)
{
    if (g_only && strcmp(g_only, op) != 0)
        return;
    try {
        f();
    } catch (const BenchError &e) {
        report_error(op, size, e.msg);
        cudaGetLastError();   // clear a non-sticky error
    }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--quick"))
            g_quick = true;
        else if (!strcmp(argv[i], "--op") && i + 1 < argc)
            g_only = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            g_reps = std::max(1, atoi(argv[++i]));
        else {
            fprintf(stderr, "usage: %s [--quick] [--op NAME] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp prop;
    int dev = 0, drv = 0, rt = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        printf("{\"op\": \"device\", \"ok\": false, \"error\": \"no CUDA device\"}\n");
        return 1;
    }
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("{\"op\": \"device\", \"impl\": \"cuda\", \"name\": \"%s\", \"cc\": \"%d.%d\", \"sms\": %d, "
           "\"l2_bytes\": %d, \"driver_api\": %d, \"runtime\": %d}\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize, drv, rt);
    fflush(stdout);
    if (cudaMalloc(&g_flush, g_flush_bytes) != cudaSuccess) {
        g_flush = nullptr;
        cudaGetLastError();
        fprintf(stderr, "warning: no L2 flush buffer\n");
    }
    const Case full{true, false}, timed{false, true};
    const Case full_q{true, !g_quick};   // correctness sizes: timed too (cheap) unless --quick

    if (!g_quick && !g_only)
        run("copy", Size{{{"bytes", 1LL << 30}}}, [] { copy_bandwidth(); });

    // cross_entropy_fwd (fp32) and _bf16
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}, {3, 7}, {33, 4096}})
        run("cross_entropy_fwd", Size{{{"M", mn.first}, {"N", mn.second}}},
            [&] { ce_fwd<float>("cross_entropy_fwd", mn.first, mn.second, mn.first == 67 ? full_q : full, false, kcref_cross_entropy_fwd); });
    run("cross_entropy_fwd", Size{{{"M", 67}, {"N", 1003}}},
        [&] { ce_fwd<float>("cross_entropy_fwd", 67, 1003, full, true, kcref_cross_entropy_fwd); });
    // the _ex path: label_smoothing (and one non-default ignore_index) at odd sizes with ignored rows
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}, {3, 7}})
        for (float eps : {0.1f, 0.5f})
            run("cross_entropy_fwd", Size{{{"M", mn.first}, {"N", mn.second}}}, [&] {
                ce_fwd<float>("cross_entropy_fwd", mn.first, mn.second, full, true, kcref_cross_entropy_fwd,
                              kcref_cross_entropy_fwd_ex, ce_opt(eps));
            });
    run("cross_entropy_fwd", Size{{{"M", 33}, {"N", 999}}}, [&] {
        ce_fwd<float>("cross_entropy_fwd", 33, 999, full, true, kcref_cross_entropy_fwd, kcref_cross_entropy_fwd_ex,
                      ce_opt(0.1f, 3));
    });
    if (!g_quick) {
        run("cross_entropy_fwd", Size{{{"M", 4096}, {"N", 32000}}},
            [&] { ce_fwd<float>("cross_entropy_fwd", 4096, 32000, timed, false, kcref_cross_entropy_fwd); });
        run("cross_entropy_fwd", Size{{{"M", 4096}, {"N", 32000}}}, [&] {
            ce_fwd<float>("cross_entropy_fwd", 4096, 32000, timed, false, kcref_cross_entropy_fwd,
                          kcref_cross_entropy_fwd_ex, ce_opt(0.1f));
        });
    }
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}, {3, 7}})
        run("cross_entropy_fwd_bf16", Size{{{"M", mn.first}, {"N", mn.second}}}, [&] {
            ce_fwd<__nv_bfloat16>("cross_entropy_fwd_bf16", mn.first, mn.second, mn.first == 67 ? full_q : full, false,
                                  kcref_cross_entropy_fwd_bf16);
        });
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}})
        run("cross_entropy_fwd_bf16", Size{{{"M", mn.first}, {"N", mn.second}}}, [&] {
            ce_fwd<__nv_bfloat16>("cross_entropy_fwd_bf16", mn.first, mn.second, full, true,
                                  kcref_cross_entropy_fwd_bf16, kcref_cross_entropy_fwd_bf16_ex, ce_opt(0.1f));
        });
    if (!g_quick) {
        run("cross_entropy_fwd_bf16", Size{{{"M", 8192}, {"N", 128256}}}, [&] {
            ce_fwd<__nv_bfloat16>("cross_entropy_fwd_bf16", 8192, 128256, timed, false, kcref_cross_entropy_fwd_bf16);
        });
        run("cross_entropy_fwd_bf16", Size{{{"M", 8192}, {"N", 128256}}}, [&] {
            ce_fwd<__nv_bfloat16>("cross_entropy_fwd_bf16", 8192, 128256, timed, false, kcref_cross_entropy_fwd_bf16,
                                  kcref_cross_entropy_fwd_bf16_ex, ce_opt(0.1f));
        });
    }

    // cross_entropy_fwd_bwd (fp32) and _bf16
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}, {3, 7}})
        run("cross_entropy_fwd_bwd", Size{{{"M", mn.first}, {"N", mn.second}}}, [&] {
            ce_fwd_bwd<float>("cross_entropy_fwd_bwd", mn.first, mn.second, mn.first == 67 ? full_q : full, false,
                              kcref_cross_entropy_fwd_bwd, 1e-6, 1e-4);
        });
    run("cross_entropy_fwd_bwd", Size{{{"M", 67}, {"N", 1003}}}, [&] {
        ce_fwd_bwd<float>("cross_entropy_fwd_bwd", 67, 1003, full, true, kcref_cross_entropy_fwd_bwd, 1e-6, 1e-4);
    });
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}, {3, 7}})
        run("cross_entropy_fwd_bwd", Size{{{"M", mn.first}, {"N", mn.second}}}, [&] {
            ce_fwd_bwd<float>("cross_entropy_fwd_bwd", mn.first, mn.second, full, true, kcref_cross_entropy_fwd_bwd,
                              1e-6, 1e-4, kcref_cross_entropy_fwd_bwd_ex, ce_opt(0.1f));
        });
    run("cross_entropy_fwd_bwd", Size{{{"M", 33}, {"N", 999}}}, [&] {
        ce_fwd_bwd<float>("cross_entropy_fwd_bwd", 33, 999, full, true, kcref_cross_entropy_fwd_bwd, 1e-6, 1e-4,
                          kcref_cross_entropy_fwd_bwd_ex, ce_opt(0.5f, 3));
    });
    if (!g_quick)
        run("cross_entropy_fwd_bwd", Size{{{"M", 4096}, {"N", 32000}}}, [&] {
            ce_fwd_bwd<float>("cross_entropy_fwd_bwd", 4096, 32000, timed, false, kcref_cross_entropy_fwd_bwd, 1e-6,
                              1e-4);
        });
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {5, 100003}})
        run("cross_entropy_fwd_bwd_bf16", Size{{{"M", mn.first}, {"N", mn.second}}}, [&] {
            ce_fwd_bwd<__nv_bfloat16>("cross_entropy_fwd_bwd_bf16", mn.first, mn.second,
                                      mn.first == 67 ? full_q : full, false, kcref_cross_entropy_fwd_bwd_bf16, 1e-6,
                                      1.6e-2);
        });
    run("cross_entropy_fwd_bwd_bf16", Size{{{"M", 67}, {"N", 1003}}}, [&] {
        ce_fwd_bwd<__nv_bfloat16>("cross_entropy_fwd_bwd_bf16", 67, 1003, full, true, kcref_cross_entropy_fwd_bwd_bf16,
                                  1e-6, 1.6e-2, kcref_cross_entropy_fwd_bwd_bf16_ex, ce_opt(0.1f));
    });
    if (!g_quick)
        run("cross_entropy_fwd_bwd_bf16", Size{{{"M", 8192}, {"N", 128256}}}, [&] {
            ce_fwd_bwd<__nv_bfloat16>("cross_entropy_fwd_bwd_bf16", 8192, 128256, timed, false,
                                      kcref_cross_entropy_fwd_bwd_bf16, 1e-6, 1.6e-2);
        });

    // decode_scores (fp16) and decode_scores_fp32
    struct Bhld {
        int64_t B, H, L, D;
    };
    for (Bhld s : std::vector<Bhld>{{3, 6, 1003, 128}, {2, 5, 77, 64}, {1, 3, 33, 100}, {2, 48, 40, 128}})
        run("decode_scores", Size{{{"B", s.B}, {"H", s.H}, {"L", s.L}, {"D", s.D}}}, [&] {
            decode<__half>("decode_scores", s.B, s.H, s.L, s.D, s.L == 1003 ? full_q : full, kcref_decode_scores, 1e-3,
                           1e-3);
        });
    if (!g_quick)
        run("decode_scores", Size{{{"B", 8}, {"H", 32}, {"L", 16384}, {"D", 128}}}, [&] {
            decode<__half>("decode_scores", 8, 32, 16384, 128, timed, kcref_decode_scores, 1e-3, 1e-3);
        });
    for (Bhld s : std::vector<Bhld>{{4, 8, 60, 16}, {2, 40, 77, 32}, {2, 3, 50, 15}, {1, 1, 5, 4}})
        run("decode_scores_fp32", Size{{{"B", s.B}, {"H", s.H}, {"L", s.L}, {"D", s.D}}}, [&] {
            decode<float>("decode_scores_fp32", s.B, s.H, s.L, s.D, s.L == 60 ? full_q : full, kcref_decode_scores_fp32,
                          1e-4, 1e-4);
        });
    if (!g_quick)
        run("decode_scores_fp32", Size{{{"B", 8}, {"H", 32}, {"L", 65536}, {"D", 16}}}, [&] {
            decode<float>("decode_scores_fp32", 8, 32, 65536, 16, timed, kcref_decode_scores_fp32, 1e-4, 1e-4);
        });

    // softmax_rows
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{
             {67, 1003}, {9, 3001}, {5, 8190}, {3, 12001}, {3, 20001}, {2, 65536}, {4, 1}})
        run("softmax_rows", Size{{{"M", mn.first}, {"N", mn.second}}},
            [&] { softmax(mn.first, mn.second, mn.first == 67 ? full_q : full); });
    if (!g_quick)
        run("softmax_rows", Size{{{"M", 8192}, {"N", 8192}}}, [&] { softmax(8192, 8192, timed); });

    // block_sum
    for (auto no : std::vector<std::pair<int64_t, int64_t>>{{100003, 0}, {3, 0}, {(1 << 20) + 7, 1}, {100003, 3}})
        run("block_sum", Size{{{"n", no.first}}},
            [&] { block_sum(no.first, no.second, no.first == 100003 && !no.second ? full_q : full); });
    if (!g_quick)
        run("block_sum", Size{{{"n", 268435456}}}, [&] { block_sum(268435456, 0, Case{true, true}); });

    // transpose
    for (auto mn : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {1000, 67}, {130, 129}, {1, 1}})
        run("transpose", Size{{{"M", mn.first}, {"N", mn.second}}},
            [&] { transpose(mn.first, mn.second, mn.first == 67 ? full_q : full); });
    if (!g_quick)
        run("transpose", Size{{{"M", 8192}, {"N", 8192}}}, [&] { transpose(8192, 8192, timed); });

    // axpy
    for (auto no : std::vector<std::pair<int64_t, int64_t>>{{100003, 0}, {3, 0}, {1001, 1}})
        run("axpy", Size{{{"n", no.first}}}, [&] { axpy(no.first, no.second, no.first == 100003 ? full_q : full); });
    if (!g_quick)
        run("axpy", Size{{{"n", 268435456}}}, [&] { axpy(268435456, 0, timed); });

    // matvec
    for (auto mk : std::vector<std::pair<int64_t, int64_t>>{{67, 1003}, {33, 4096}, {5, 100003}, {3, 2}})
        run("matvec", Size{{{"M", mk.first}, {"K", mk.second}}},
            [&] { matvec(mk.first, mk.second, mk.first == 67 ? full_q : full); });
    if (!g_quick)
        run("matvec", Size{{{"M", 16384}, {"K", 4096}}}, [&] { matvec(16384, 4096, timed); });

    if (g_flush)
        cudaFree(g_flush);
    return g_all_ok ? 0 : 1;
}
