/* kcheck shim: a very small C++ standard library, enough for the host code
 * of typical .cu files to parse (declarations only). */
#ifndef __KCHECK_CXX_H
#define __KCHECK_CXX_H
#include <__kcheck_libc.h>
#include <__kcheck_ilist.h>
namespace std {
typedef decltype(nullptr) nullptr_t;
template <class T, T v> struct integral_constant { static constexpr T value = v; typedef T value_type; constexpr operator T() const { return v; } };
typedef integral_constant<bool, true> true_type;
typedef integral_constant<bool, false> false_type;
template <bool B> using bool_constant = integral_constant<bool, B>;
template <class A, class B> struct is_same : false_type {};
template <class A> struct is_same<A, A> : true_type {};
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { typedef T type; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> struct remove_reference<T &&> { typedef T type; };
template <class T> using remove_reference_t = typename remove_reference<T>::type;
template <class T> struct remove_cv { typedef T type; };
template <class T> struct remove_cv<const T> { typedef T type; };
template <class T> struct remove_cv<volatile T> { typedef T type; };
template <class T> struct remove_cv<const volatile T> { typedef T type; };
template <class T> using remove_cv_t = typename remove_cv<T>::type;
template <class T> struct remove_pointer { typedef T type; };
template <class T> struct remove_pointer<T *> { typedef T type; };
template <class T> struct decay { typedef typename remove_cv<typename remove_reference<T>::type>::type type; };
template <class T> using decay_t = typename decay<T>::type;
template <class T> struct is_integral : integral_constant<bool, __kc_is_int<typename remove_cv<T>::type>::value> {};
template <class T> inline constexpr bool is_integral_v = is_integral<T>::value;
template <class T> struct is_floating_point : false_type {};
template <> struct is_floating_point<float> : true_type {};
template <> struct is_floating_point<double> : true_type {};
template <> struct is_floating_point<long double> : true_type {};
template <class T> inline constexpr bool is_floating_point_v = is_floating_point<T>::value;
template <class T> struct is_pointer : false_type {};
template <class T> struct is_pointer<T *> : true_type {};
template <class T> struct is_signed : integral_constant<bool, (T(-1) < T(0))> {};
template <class T> struct is_unsigned : integral_constant<bool, !(T(-1) < T(0))> {};
template <class T> struct is_arithmetic : integral_constant<bool, is_integral<T>::value || is_floating_point<T>::value> {};
template <class T> struct is_trivially_copyable : integral_constant<bool, __is_trivially_copyable(T)> {};
template <class T> struct make_unsigned { typedef unsigned int type; };
template <class T> T &&declval() noexcept;
template <class T> __KC_HD constexpr typename remove_reference<T>::type &&move(T &&t) noexcept { return static_cast<typename remove_reference<T>::type &&>(t); }
template <class T> __KC_HD constexpr T &&forward(typename remove_reference<T>::type &t) noexcept { return static_cast<T &&>(t); }
template <class T> __KC_HD void swap(T &a, T &b);
template <class T> __KC_HD constexpr const T &min(const T &a, const T &b);
template <class T> __KC_HD constexpr const T &max(const T &a, const T &b);
template <class T> __KC_HD constexpr T min(initializer_list<T> l);
template <class T> __KC_HD constexpr T max(initializer_list<T> l);
template <class T, class C> __KC_HD constexpr const T &min(const T &a, const T &b, C cmp);
template <class T, class C> __KC_HD constexpr const T &max(const T &a, const T &b, C cmp);
template <class T> __KC_HD constexpr const T &clamp(const T &v, const T &lo, const T &hi);
template <class A, class B> struct pair {
  A first; B second;
  pair(); pair(const A &a, const B &b);
  template <class U, class V> pair(U &&a, V &&b);
};
template <class A, class B> pair<A, B> make_pair(A a, B b);
template <class It> void sort(It first, It last);
template <class It, class C> void sort(It first, It last, C cmp);
template <class It> void stable_sort(It first, It last);
template <class It, class T> void fill(It first, It last, const T &v);
template <class It, class Size, class T> It fill_n(It first, Size n, const T &v);
template <class In, class Out> Out copy(In first, In last, Out out);
template <class In, class Size, class Out> Out copy_n(In first, Size n, Out out);
template <class In, class Out, class F> Out transform(In first, In last, Out out, F f);
template <class It, class F> F for_each(It first, It last, F f);
template <class It, class T> It find(It first, It last, const T &v);
template <class It> It max_element(It first, It last);
template <class It> It min_element(It first, It last);
template <class It, class T> T accumulate(It first, It last, T init);
template <class It, class T, class Op> T accumulate(It first, It last, T init, Op op);
template <class It, class T> void iota(It first, It last, T v);
template <class It> void reverse(It first, It last);
template <class It, class G> void shuffle(It first, It last, G &&g);
template <class It1, class It2> bool equal(It1 a, It1 b, It2 c);
template <class T> struct numeric_limits {
  static constexpr bool is_specialized = true;
  static constexpr bool is_integer = __kc_is_int<T>::value;
  static constexpr int digits = sizeof(T) * 8;
  __KC_HD static constexpr T min() noexcept { return T(); }
  __KC_HD static constexpr T max() noexcept { return T(); }
  __KC_HD static constexpr T lowest() noexcept { return T(); }
  __KC_HD static constexpr T epsilon() noexcept { return T(); }
  __KC_HD static constexpr T infinity() noexcept { return T(); }
  __KC_HD static constexpr T quiet_NaN() noexcept { return T(); }
  __KC_HD static constexpr T denorm_min() noexcept { return T(); }
};
template <> struct numeric_limits<int> {
  static constexpr bool is_integer = true; static constexpr int digits = 31;
  __KC_HD static constexpr int min() noexcept { return INT_MIN; }
  __KC_HD static constexpr int max() noexcept { return INT_MAX; }
  __KC_HD static constexpr int lowest() noexcept { return INT_MIN; }
};
template <> struct numeric_limits<unsigned int> {
  static constexpr bool is_integer = true; static constexpr int digits = 32;
  __KC_HD static constexpr unsigned int min() noexcept { return 0; }
  __KC_HD static constexpr unsigned int max() noexcept { return UINT_MAX; }
  __KC_HD static constexpr unsigned int lowest() noexcept { return 0; }
};
template <> struct numeric_limits<long long> {
  static constexpr bool is_integer = true; static constexpr int digits = 63;
  __KC_HD static constexpr long long min() noexcept { return LLONG_MIN; }
  __KC_HD static constexpr long long max() noexcept { return LLONG_MAX; }
  __KC_HD static constexpr long long lowest() noexcept { return LLONG_MIN; }
};
template <> struct numeric_limits<long> {
  static constexpr bool is_integer = true; static constexpr int digits = 63;
  __KC_HD static constexpr long min() noexcept { return LONG_MIN; }
  __KC_HD static constexpr long max() noexcept { return LONG_MAX; }
  __KC_HD static constexpr long lowest() noexcept { return LONG_MIN; }
};
template <> struct numeric_limits<float> {
  static constexpr bool is_integer = false; static constexpr int digits = 24;
  __KC_HD static constexpr float min() noexcept { return FLT_MIN; }
  __KC_HD static constexpr float max() noexcept { return FLT_MAX; }
  __KC_HD static constexpr float lowest() noexcept { return -FLT_MAX; }
  __KC_HD static constexpr float epsilon() noexcept { return FLT_EPSILON; }
  __KC_HD static constexpr float infinity() noexcept { return __builtin_inff(); }
  __KC_HD static constexpr float quiet_NaN() noexcept { return __builtin_nanf(""); }
};
template <> struct numeric_limits<double> {
  static constexpr bool is_integer = false; static constexpr int digits = 53;
  __KC_HD static constexpr double min() noexcept { return DBL_MIN; }
  __KC_HD static constexpr double max() noexcept { return DBL_MAX; }
  __KC_HD static constexpr double lowest() noexcept { return -DBL_MAX; }
  __KC_HD static constexpr double epsilon() noexcept { return DBL_EPSILON; }
  __KC_HD static constexpr double infinity() noexcept { return __builtin_inf(); }
  __KC_HD static constexpr double quiet_NaN() noexcept { return __builtin_nan(""); }
};
template <class T> class allocator {};
template <class T, class A = allocator<T>> class vector {
public:
  typedef T value_type; typedef size_t size_type; typedef T *iterator; typedef const T *const_iterator;
  typedef T &reference; typedef const T &const_reference;
  vector(); explicit vector(size_t n); vector(size_t n, const T &v);
  vector(initializer_list<T> l); template <class It> vector(It a, It b);
  vector(const vector &o); vector(vector &&o); ~vector();
  vector &operator=(const vector &o); vector &operator=(vector &&o);
  T &operator[](size_t i); const T &operator[](size_t i) const;
  T &at(size_t i); const T &at(size_t i) const;
  T *data(); const T *data() const; size_t size() const; bool empty() const;
  size_t capacity() const;
  void resize(size_t n); void resize(size_t n, const T &v); void reserve(size_t n); void clear();
  void push_back(const T &v); void push_back(T &&v);
  template <class... Args> T &emplace_back(Args &&...args); void pop_back();
  void assign(size_t n, const T &v);
  T &front(); T &back(); const T &front() const; const T &back() const;
  T *begin(); T *end(); const T *begin() const; const T *end() const;
  const T *cbegin() const; const T *cend() const;
  T *insert(const T *pos, const T &v); T *erase(const T *pos);
};
template <class T, size_t N> struct array {
  T __elems[N];
  typedef T value_type; typedef T *iterator;
  __KC_HD T &operator[](size_t i); __KC_HD const T &operator[](size_t i) const;
  __KC_HD T *data(); __KC_HD const T *data() const;
  __KC_HD constexpr size_t size() const { return N; }
  __KC_HD T *begin(); __KC_HD T *end(); __KC_HD const T *begin() const; __KC_HD const T *end() const;
  void fill(const T &v);
};
class string {
public:
  typedef char value_type; typedef size_t size_type;
  static const size_t npos = (size_t)-1;
  string(); string(const char *s); string(const char *s, size_t n); string(size_t n, char c);
  string(const string &o); string(string &&o); ~string();
  string &operator=(const string &o); string &operator=(const char *s);
  string &operator+=(const string &o); string &operator+=(const char *s); string &operator+=(char c);
  const char *c_str() const; const char *data() const; size_t size() const; size_t length() const;
  bool empty() const; char &operator[](size_t i); const char &operator[](size_t i) const;
  size_t find(const string &s, size_t pos = 0) const; size_t find(char c, size_t pos = 0) const;
  string substr(size_t pos = 0, size_t n = npos) const;
  int compare(const string &o) const;
  const char *begin() const; const char *end() const;
};
string operator+(const string &a, const string &b);
string operator+(const string &a, const char *b);
string operator+(const char *a, const string &b);
bool operator==(const string &a, const string &b);
bool operator==(const string &a, const char *b);
bool operator!=(const string &a, const string &b);
bool operator<(const string &a, const string &b);
string to_string(int v); string to_string(long v); string to_string(long long v);
string to_string(unsigned v); string to_string(unsigned long v); string to_string(unsigned long long v);
string to_string(float v); string to_string(double v);
int stoi(const string &s, size_t *pos = 0, int base = 10);
long stol(const string &s, size_t *pos = 0, int base = 10);
float stof(const string &s, size_t *pos = 0);
double stod(const string &s, size_t *pos = 0);
class ios_base { public: typedef unsigned fmtflags; static const fmtflags fixed = 4, scientific = 8; static const unsigned in = 1, out = 2, binary = 4, app = 8; };
class ostream;
typedef ostream &(*__kc_manip)(ostream &);
class ostream : public ios_base {
public:
  ostream &operator<<(const char *s); ostream &operator<<(const string &s); ostream &operator<<(char c);
  ostream &operator<<(bool v); ostream &operator<<(int v); ostream &operator<<(unsigned v);
  ostream &operator<<(long v); ostream &operator<<(unsigned long v); ostream &operator<<(long long v);
  ostream &operator<<(unsigned long long v); ostream &operator<<(float v); ostream &operator<<(double v);
  ostream &operator<<(const void *p); ostream &operator<<(__kc_manip m);
  ostream &write(const char *s, long n); ostream &flush(); unsigned precision(unsigned p);
  void setf(fmtflags f);
};
class istream : public ios_base {
public:
  istream &operator>>(int &v); istream &operator>>(float &v); istream &operator>>(double &v);
  istream &operator>>(string &s); istream &read(char *s, long n); explicit operator bool() const;
};
class ofstream : public ostream { public: ofstream(); ofstream(const char *p, unsigned m = ios_base::out); ofstream(const string &p, unsigned m = ios_base::out); void open(const char *p, unsigned m = ios_base::out); bool is_open() const; void close(); };
class ifstream : public istream { public: ifstream(); ifstream(const char *p, unsigned m = ios_base::in); ifstream(const string &p, unsigned m = ios_base::in); void open(const char *p, unsigned m = ios_base::in); bool is_open() const; void close(); };
class stringstream : public ostream { public: stringstream(); string str() const; };
class ostringstream : public ostream { public: ostringstream(); string str() const; };
extern ostream cout, cerr, clog;
extern istream cin;
ostream &endl(ostream &o); ostream &flush(ostream &o);
ostream &fixed(ostream &o); ostream &scientific(ostream &o);
struct __kc_iomanip { };
ostream &operator<<(ostream &o, __kc_iomanip m);
__kc_iomanip setprecision(int n); __kc_iomanip setw(int n); __kc_iomanip setfill(char c);
istream &getline(istream &in, string &s);
class exception { public: exception() noexcept; virtual ~exception(); virtual const char *what() const noexcept; };
class runtime_error : public exception { public: explicit runtime_error(const string &s); explicit runtime_error(const char *s); };
class logic_error : public exception { public: explicit logic_error(const string &s); explicit logic_error(const char *s); };
class invalid_argument : public logic_error { public: explicit invalid_argument(const string &s); explicit invalid_argument(const char *s); };
class out_of_range : public logic_error { public: explicit out_of_range(const string &s); explicit out_of_range(const char *s); };
class bad_alloc : public exception { public: bad_alloc() noexcept; };
template <class T> struct default_delete { void operator()(T *p) const; };
template <class T> struct default_delete<T[]> { void operator()(T *p) const; };
template <class T, class D = default_delete<T>> class unique_ptr {
public:
  unique_ptr(); explicit unique_ptr(T *p); unique_ptr(T *p, D d); unique_ptr(unique_ptr &&o); ~unique_ptr();
  unique_ptr &operator=(unique_ptr &&o);
  T *get() const; T *operator->() const; T &operator*() const; T *release(); void reset(T *p = nullptr);
  explicit operator bool() const;
};
template <class T, class D> class unique_ptr<T[], D> {
public:
  unique_ptr(); explicit unique_ptr(T *p); unique_ptr(T *p, D d); unique_ptr(unique_ptr &&o); ~unique_ptr();
  T *get() const; T &operator[](size_t i) const; void reset(T *p = nullptr);
};
template <class T> class shared_ptr {
public:
  shared_ptr(); explicit shared_ptr(T *p); template <class D> shared_ptr(T *p, D d);
  T *get() const; T *operator->() const; T &operator*() const; void reset(); explicit operator bool() const;
};
template <class T, class... A> unique_ptr<T> make_unique(A &&...a);
template <class T, class... A> shared_ptr<T> make_shared(A &&...a);
template <class F> class function;
template <class R, class... A> class function<R(A...)> {
public: function(); template <class F> function(F f); R operator()(A... a) const; explicit operator bool() const;
};
template <class T> struct less { bool operator()(const T &a, const T &b) const; };
template <class T> struct greater { bool operator()(const T &a, const T &b) const; };
template <class T = void> struct plus { T operator()(const T &a, const T &b) const; };
template <class T = void> struct multiplies { T operator()(const T &a, const T &b) const; };
template <class K, class V, class C = less<K>> class map {
public: map(); V &operator[](const K &k); size_t size() const; size_t count(const K &k) const;
  pair<const K, V> *begin(); pair<const K, V> *end(); pair<const K, V> *find(const K &k);
};
template <class K, class V> class unordered_map {
public: unordered_map(); V &operator[](const K &k); size_t size() const; size_t count(const K &k) const;
  pair<const K, V> *begin(); pair<const K, V> *end(); pair<const K, V> *find(const K &k);
};
template <class... T> class tuple { public: tuple(); tuple(const T &...v); };
template <class... T> tuple<T...> make_tuple(T... v);
template <size_t I, class... T> auto &get(tuple<T...> &t);
template <long long N, long long D = 1> struct ratio { static constexpr long long num = N, den = D; };
typedef ratio<1, 1000> milli; typedef ratio<1, 1000000> micro; typedef ratio<1, 1000000000> nano;
namespace chrono {
template <class Rep, class Period = void> class duration {
public: duration(); template <class R> duration(const R &r); Rep count() const;
  template <class R2, class P2> operator duration<R2, P2>() const;
};
typedef duration<long long> nanoseconds; typedef duration<long long> microseconds;
typedef duration<long long> milliseconds; typedef duration<long long> seconds;
template <class D, class R, class P> D duration_cast(const duration<R, P> &d);
template <class C> class time_point {
public: duration<double> operator-(const time_point &o) const; duration<long long> time_since_epoch() const;
};
struct steady_clock { typedef time_point<steady_clock> time_point_t; static time_point<steady_clock> now(); typedef chrono::time_point<steady_clock> time_point; };
struct system_clock { static chrono::time_point<system_clock> now(); typedef chrono::time_point<system_clock> time_point; };
typedef steady_clock high_resolution_clock;
}
class random_device { public: random_device(); unsigned operator()(); };
class mt19937 { public: typedef unsigned result_type; mt19937(); explicit mt19937(unsigned seed); unsigned operator()(); void seed(unsigned s); };
class mt19937_64 { public: typedef unsigned long long result_type; mt19937_64(); explicit mt19937_64(unsigned long long seed); unsigned long long operator()(); };
typedef mt19937 default_random_engine;
template <class T = double> class uniform_real_distribution { public: uniform_real_distribution(T a = 0, T b = 1); template <class G> T operator()(G &g); };
template <class T = int> class uniform_int_distribution { public: uniform_int_distribution(T a = 0, T b = 0x7fffffff); template <class G> T operator()(G &g); };
template <class T = double> class normal_distribution { public: normal_distribution(T m = 0, T s = 1); template <class G> T operator()(G &g); };
template <class T = int> class bernoulli_distribution { public: bernoulli_distribution(double p = 0.5); template <class G> bool operator()(G &g); };
class thread { public: template <class F, class... A> explicit thread(F &&f, A &&...a); void join(); };
class mutex { public: void lock(); void unlock(); };
template <class M> class lock_guard { public: explicit lock_guard(M &m); };
template <class T> class atomic { public: atomic(); atomic(T v); T load() const; void store(T v); T fetch_add(T v); operator T() const; T operator++(); T operator++(int); };
template <class T> class complex { public: __KC_HD complex(T re = T(), T im = T()); __KC_HD T real() const; __KC_HD T imag() const; };
template <class T> __KC_HD complex<T> operator+(const complex<T> &a, const complex<T> &b);
template <class T> __KC_HD complex<T> operator*(const complex<T> &a, const complex<T> &b);
template <class T> __KC_HD T abs(const complex<T> &z);
using ::min; using ::max;
}
inline void *operator new(size_t, void *p) noexcept { return p; }
inline void *operator new[](size_t, void *p) noexcept { return p; }
#endif
