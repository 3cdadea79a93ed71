/* What text needs before it reaches an output: JSON strings of bytes that
 * may not be UTF-8, and file names a terminal must not act on. */
#include "report_internal.h"

#include <stdlib.h>

json_t *kc_report_json_text(const char *s)
{
    if (!s)
        return json_null();
    char *fixed = kc_utf8_lenient(s);
    json_t *j = json_string(fixed ? fixed : s);
    free(fixed);
    return j;
}

char *kc_report_printable(const char *path)
{
    kc_strbuf sb = {0};
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '\n')
            kc_sb_append(&sb, "\\n");
        else if (*p == '\t')
            kc_sb_append(&sb, "\\t");
        else if (*p == '\r')
            kc_sb_append(&sb, "\\r");
        else if (*p < 0x20 || *p == 0x7f)
            kc_sb_appendf(&sb, "\\x%02x", *p);
        else
            kc_sb_putc(&sb, (char)*p);
    }
    return kc_sb_take(&sb);
}
