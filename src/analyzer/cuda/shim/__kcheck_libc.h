/* kcheck shim: the C library as host code in .cu files uses it. */
#ifndef __KCHECK_LIBC_H
#define __KCHECK_LIBC_H
#include <__kcheck_cuda.h>
#include <stdarg.h>
extern "C" {
typedef struct __kc_FILE FILE;
extern FILE *stdin, *stdout, *stderr;
#define EOF (-1)
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
__KC_H int fprintf(FILE *f, const char *fmt, ...);
__KC_H int sprintf(char *s, const char *fmt, ...);
__KC_H int snprintf(char *s, size_t n, const char *fmt, ...);
__KC_H int vfprintf(FILE *f, const char *fmt, va_list ap);
__KC_H int vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
__KC_H int puts(const char *s);
__KC_H int fputs(const char *s, FILE *f);
__KC_H int putchar(int c);
__KC_H int fputc(int c, FILE *f);
__KC_H int fgetc(FILE *f);
__KC_H char *fgets(char *s, int n, FILE *f);
__KC_H int scanf(const char *fmt, ...);
__KC_H int sscanf(const char *s, const char *fmt, ...);
__KC_H int fscanf(FILE *f, const char *fmt, ...);
__KC_H FILE *fopen(const char *path, const char *mode);
__KC_H int fclose(FILE *f);
__KC_H int fflush(FILE *f);
__KC_H size_t fread(void *p, size_t size, size_t n, FILE *f);
__KC_H size_t fwrite(const void *p, size_t size, size_t n, FILE *f);
__KC_H int fseek(FILE *f, long off, int whence);
__KC_H long ftell(FILE *f);
__KC_H void perror(const char *s);
__KC_H void *calloc(size_t n, size_t size);
__KC_H void *realloc(void *p, size_t n);
__KC_H void *aligned_alloc(size_t align, size_t n);
__KC_H int posix_memalign(void **p, size_t align, size_t n);
__KC_H __attribute__((noreturn)) void exit(int status);
__KC_H __attribute__((noreturn)) void abort(void);
__KC_H int atexit(void (*f)(void));
__KC_H int atoi(const char *s);
__KC_H long atol(const char *s);
__KC_H double atof(const char *s);
__KC_H long strtol(const char *s, char **end, int base);
__KC_H unsigned long strtoul(const char *s, char **end, int base);
__KC_H long long strtoll(const char *s, char **end, int base);
__KC_H double strtod(const char *s, char **end);
__KC_H float strtof(const char *s, char **end);
__KC_H char *getenv(const char *name);
__KC_H int rand(void);
__KC_H void srand(unsigned int seed);
__KC_H void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
__KC_H int system(const char *cmd);
__KC_HD void *memmove(void *dst, const void *src, size_t n);
__KC_HD int memcmp(const void *a, const void *b, size_t n);
__KC_HD size_t strlen(const char *s);
__KC_HD int strcmp(const char *a, const char *b);
__KC_HD int strncmp(const char *a, const char *b, size_t n);
__KC_HD char *strcpy(char *d, const char *s);
__KC_HD char *strncpy(char *d, const char *s, size_t n);
__KC_H char *strcat(char *d, const char *s);
__KC_H char *strdup(const char *s);
__KC_H char *strchr(const char *s, int c);
__KC_H char *strrchr(const char *s, int c);
__KC_H char *strstr(const char *s, const char *t);
__KC_H char *strerror(int e);
typedef long time_t;
typedef long clock_t;
#define CLOCKS_PER_SEC 1000000l
__KC_H time_t time(time_t *t);
struct timespec { time_t tv_sec; long tv_nsec; };
struct timeval { time_t tv_sec; long tv_usec; };
__KC_H int clock_gettime(int clk, struct timespec *ts);
__KC_H int gettimeofday(struct timeval *tv, void *tz);
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
extern int errno;
}
namespace std {
using ::FILE; using ::fprintf; using ::sprintf; using ::snprintf; using ::puts; using ::fopen;
using ::fclose; using ::fflush; using ::fread; using ::fwrite; using ::calloc; using ::realloc;
using ::exit; using ::abort; using ::atoi; using ::atof; using ::strtol; using ::strtod;
using ::getenv; using ::rand; using ::srand; using ::qsort; using ::memmove; using ::memcmp;
using ::strlen; using ::strcmp; using ::strncmp; using ::strcpy; using ::strncpy; using ::time;
using ::time_t; using ::clock_t; using ::perror;
}
#endif
