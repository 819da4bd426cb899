/* A plain tokenizer pass over a text file, the reference issue 15 measures prune's loads
 * against: quoted strings (backslash escapes skipped), numbers parsed with strtod, words,
 * and every other byte as punctuation. Nothing is built; the sum and count are printed so
 * that no work can be optimised away. Used by load-vs-tokenizer.sh. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: tokenize FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(n + 1);
    if (!b || fread(b, 1, n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 2;
    }
    b[n] = 0;
    fclose(f);
    long i = 0, count = 0;
    double sum = 0;
    while (i < n) {
        unsigned char c = b[i];
        if (isspace(c)) {
            i++;
        } else if (c == '"') {
            i++;
            while (i < n && b[i] != '"')
                i += b[i] == '\\' ? 2 : 1;
            i++;
            count++;
        } else if (isdigit(c) || c == '-' || c == '+' || c == '.') {
            char *end;
            sum += strtod(b + i, &end);
            i = end == b + i ? i + 1 : end - b;
        } else if (isalpha(c) || c == '_') {
            while (i < n && (isalnum((unsigned char)b[i]) || b[i] == '_'))
                i++;
            count++;
        } else {
            i++;
            count++;
        }
    }
    printf("%g %ld\n", sum, count);
    free(b);
    return 0;
}
