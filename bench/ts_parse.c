/* The floor for kcheck on Triton files: read each file named on the command
 * line and parse it with tree-sitter and the same pinned tree-sitter-python
 * grammar kcheck uses, nothing else. bench/speed.sh times this process
 * against kcheck on the same files.
 *
 *   ts_parse FILE...     prints the number of files, bytes and syntax trees
 *                        with errors
 */
#include <stdio.h>
#include <stdlib.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_python(void);

int main(int argc, char **argv)
{
    TSParser *parser = ts_parser_new();
    if (!parser || !ts_parser_set_language(parser, tree_sitter_python()))
        return 2;
    long bytes = 0, with_errors = 0, files = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f)
            continue;
        char *buf = NULL;
        size_t len = 0, cap = 0, n;
        do {
            if (cap - len < 65536) {
                cap = cap ? 2 * cap : 65536;
                buf = realloc(buf, cap);
                if (!buf)
                    return 2;
            }
            n = fread(buf + len, 1, cap - len, f);
            len += n;
        } while (n > 0);
        fclose(f);
        TSTree *tree = ts_parser_parse_string(parser, NULL, buf, (uint32_t)len);
        if (tree && ts_node_has_error(ts_tree_root_node(tree)))
            with_errors++;
        ts_tree_delete(tree);
        free(buf);
        bytes += (long)len;
        files++;
    }
    ts_parser_delete(parser);
    printf("%ld files, %ld bytes, %ld with syntax errors\n", files, bytes, with_errors);
    return 0;
}
