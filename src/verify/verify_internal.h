/* Private to src/verify. */
#ifndef KC_VERIFY_INTERNAL_H
#define KC_VERIFY_INTERNAL_H

#include <jansson.h>

#include "kc_verify.h"

struct kc_opspec {
    json_t *root;
    char *path;
};

bool kc_opspec_reference(const kc_opspec *s, const char *lang, char **file, char **func);

/* Removes a directory tree (best effort). */
void kc_rmtree(const char *path);
/* Writes a whole file; false with errno on failure. */
bool kc_write_file(const char *path, const char *data, size_t len);

/* The embedded Python driver (generated from kcheck_verify_driver.py). */
extern const char kc_verify_driver_py[];

#endif
