#include "kc_result.h"

#include "kc_rule.h"

#include <stdlib.h>
#include <string.h>

void kc_file_result_free(kc_file_result *r)
{
    free(r->path);
    kc_source_delete(r->src);
    kc_diag_list_free(&r->diags);
    kc_diag_list_free(&r->baselined);
    kc_diag_list_free(&r->incomplete);
    kc_file_errors_free(&r->errors);
    for (uint32_t i = 0; i < r->kernels.len; i++)
        free(r->kernels.data[i].name);
    kc_vec_free(&r->kernels);
    for (uint32_t i = 0; i < r->checks.len; i++) {
        free(r->checks.data[i].op);
        free(r->checks.data[i].status);
        free(r->checks.data[i].summary);
    }
    kc_vec_free(&r->checks);
    free(r->diff);
    free(r->cache_error);
    memset(r, 0, sizeof *r);
}

void kc_run_totals_free(kc_run_totals *t)
{
    free(t->cache_error);
    t->cache_error = NULL;
    free(t->by_rule);
    t->by_rule = NULL;
    t->nrules = 0;
}

bool kc_diag_is_incomplete(const kc_diag *d) { return d->rule_id && strcmp(d->rule_id, kc002_incomplete_analysis.id) == 0; }

bool kc_file_result_incomplete(const kc_file_result *r)
{
    if (r->incomplete.items.len)
        return true;
    for (uint32_t i = 0; i < r->diags.items.len; i++)
        if (kc_diag_is_incomplete(&r->diags.items.data[i]))
            return true;
    for (uint32_t i = 0; i < r->baselined.items.len; i++)
        if (kc_diag_is_incomplete(&r->baselined.items.data[i]))
            return true;
    return false;
}
