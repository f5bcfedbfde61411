/*
 * Checks dr_protocol.c against ../vectors/valid.tsv and ../vectors/invalid.tsv, round-trips every
 * valid message through the encoder, and feeds the framer byte by byte.
 *
 *   cc -std=c99 -Wall -Wextra -Werror -pedantic dr_protocol.c test_vectors.c -o test_vectors
 *   ./test_vectors ../vectors
 *
 * Prints "checked N vectors (V valid, I invalid), R round trips, F framed lines" and exits 0,
 * or prints every failure and exits 1.
 *
 *   ./test_vectors --parse < rows
 *
 * reads rows "DIR<TAB>LINE" (LINE escaped as in the vector files) and prints, for each, the result
 * code, followed for ok by <TAB> and the canonical fields: used to compare C and TypeScript on fuzz input.
 */
#include "dr_protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define FAIL(...)                          \
    do {                                   \
        fprintf(stderr, "FAIL: ");         \
        fprintf(stderr, __VA_ARGS__);      \
        fprintf(stderr, "\n");             \
        failures++;                        \
    } while (0)

/* ---------------------------------------------------------------- canonical key=value form */

typedef struct {
    char s[2048];
    size_t n;
} sbuf;

static void add(sbuf *b, const char *s)
{
    while (*s && b->n + 1 < sizeof b->s) b->s[b->n++] = *s++;
    b->s[b->n] = '\0';
}

/* value escaped as in the vector files */
static void add_esc(sbuf *b, const char *s)
{
    char tmp[8];
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\') add(b, "\\\\");
        else if (c == '\t') add(b, "\\t");
        else if (c == '\r') add(b, "\\r");
        else if (c == '\n') add(b, "\\n");
        else if (c < 0x20 || c > 0x7E) {
            sprintf(tmp, "\\x%02X", c);
            add(b, tmp);
        } else {
            tmp[0] = (char)c;
            tmp[1] = '\0';
            add(b, tmp);
        }
    }
}

static void kv(sbuf *b, const char *k, const char *v)
{
    if (b->n > 0) add(b, "\t");
    add(b, k);
    add(b, "=");
    add_esc(b, v);
}

static void kvn(sbuf *b, const char *k, long v)
{
    char tmp[24];
    if (v == DR_NONE) strcpy(tmp, "-");
    else sprintf(tmp, "%ld", v);
    kv(b, k, tmp);
}

static const char *or_none(const char *s) { return s[0] ? s : "-"; }

static void canonical(const dr_msg *m, sbuf *b)
{
    b->n = 0;
    b->s[0] = '\0';
    switch (m->type) {
    case DR_CMD_HELLO: kv(b, "type", "hello-request"); return;
    case DR_CMD_STATE: kv(b, "type", "state-request"); return;
    case DR_CMD_BLINK:
        kv(b, "type", "blink");
        kv(b, "die", m->die);
        kvn(b, "seconds", m->seconds);
        return;
    default:
        break;
    }
    kv(b, "type", dr_type_name(m->type));
    kvn(b, "seq", m->seq);
    switch (m->type) {
    case DR_HELLO:
        kvn(b, "major", m->major);
        kvn(b, "minor", m->minor);
        kv(b, "firmware", m->firmware);
        kv(b, "firmwareVersion", m->fw_version);
        kv(b, "serial", m->serial);
        kvn(b, "dice", m->dice);
        kv(b, "keypad", m->keypad ? "true" : "false");
        break;
    case DR_DIE:
        kv(b, "die", m->die);
        kvn(b, "sides", m->sides);
        kv(b, "colour", or_none(m->colour));
        kv(b, "label", m->text);
        break;
    case DR_ROLLING:
    case DR_COCKED:
        kv(b, "die", m->die);
        kvn(b, "throw", m->throw_id);
        break;
    case DR_SETTLED:
        kv(b, "die", m->die);
        kvn(b, "throw", m->throw_id);
        kvn(b, "face", m->face);
        break;
    case DR_MOVED:
        kv(b, "die", m->die);
        kvn(b, "face", m->face);
        break;
    case DR_BATTERY:
        kv(b, "die", m->die);
        kvn(b, "percent", m->percent);
        kv(b, "charge", dr_charge_name(m->charge));
        break;
    case DR_HEARTBEAT: kvn(b, "intervalMs", m->interval_ms); break;
    case DR_ERROR:
        kv(b, "code", m->code);
        kv(b, "die", or_none(m->die));
        kv(b, "text", m->text);
        break;
    case DR_KEY: kv(b, "key", m->key); break;
    case DR_TYPED: kv(b, "value", m->value); break;
    case DR_STATE: kvn(b, "dice", m->dice); break;
    case DR_DSTATE:
        kv(b, "die", m->die);
        kv(b, "status", dr_status_name(m->status));
        kvn(b, "throw", m->throw_id);
        kvn(b, "face", m->face);
        kvn(b, "percent", m->percent);
        kv(b, "charge", dr_charge_name(m->charge));
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- vector files */

static int hexd(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Unescapes src into dst; returns the length (the result may hold NUL bytes). */
static size_t unescape(const char *src, char *dst)
{
    size_t n = 0;
    while (*src) {
        if (*src == '\\' && src[1]) {
            src++;
            switch (*src) {
            case 't': dst[n++] = '\t'; src++; break;
            case 'r': dst[n++] = '\r'; src++; break;
            case 'n': dst[n++] = '\n'; src++; break;
            case 'x': dst[n++] = (char)(hexd(src[1]) * 16 + hexd(src[2])); src += 3; break;
            default: dst[n++] = *src++; break;
            }
        } else {
            dst[n++] = *src++;
        }
    }
    return n;
}

static long n_valid = 0, n_invalid = 0, n_round = 0, n_framed = 0;

/* Feeds the line followed by "\r\n" (alternating with "\n") to the framer one byte at a time. */
static void frame_check(const char *raw, size_t len, int from_host, const char *expect)
{
    static dr_framer fr;
    static int init = 0, flip = 0;
    size_t i, got_len = 0;
    int got = 0;
    char copy[DR_MAX_LINE + 2];
    dr_msg m;
    if (!init) {
        dr_framer_init(&fr);
        init = 1;
    }
    /* only lines the framer should deliver unchanged: no '\n' inside, not empty, not too long */
    if (len == 0 || len > DR_MAX_LINE || memchr(raw, '\n', len) || raw[len - 1] == '\r') return;
    for (i = 0; i < len; i++)
        if (dr_framer_feed(&fr, (unsigned char)raw[i])) FAIL("framer delivered early");
    flip = !flip;
    if (flip && dr_framer_feed(&fr, '\r')) FAIL("framer delivered on \\r");
    if (dr_framer_feed(&fr, '\n')) {
        got = 1;
        got_len = fr.len;
        memcpy(copy, fr.buf, fr.len);
    }
    if (!got || got_len != len || memcmp(copy, raw, len) != 0) {
        FAIL("framer did not deliver %.*s", (int)len, raw);
        return;
    }
    if (strcmp(dr_result_name(dr_parse_line(copy, got_len, from_host, &m)), expect) != 0)
        FAIL("framed line parses differently: %.*s", (int)len, raw);
    n_framed++;
}

static void run_file(const char *dir, const char *file)
{
    char path[1024], row[8192], raw[4096], encoded[DR_MAX_LINE + 2];
    FILE *fp;
    int lineno = 0;
    sprintf(path, "%.900s/%s", dir, file);
    fp = fopen(path, "r");
    if (!fp) {
        FAIL("cannot open %s", path);
        return;
    }
    while (fgets(row, sizeof row, fp)) {
        char *cols[3], *fields, *nl;
        size_t rawlen;
        int from_host;
        dr_msg m, again;
        dr_result r;
        sbuf want, got, got2;
        lineno++;
        if ((nl = strchr(row, '\n')) != NULL) *nl = '\0';
        if (row[0] == '#' || row[0] == '\0') continue;
        cols[0] = row;
        cols[1] = strchr(cols[0], '\t');
        if (!cols[1]) { FAIL("%s:%d: no columns", file, lineno); continue; }
        *cols[1]++ = '\0';
        cols[2] = strchr(cols[1], '\t');
        if (!cols[2]) { FAIL("%s:%d: no expect column", file, lineno); continue; }
        *cols[2]++ = '\0';
        fields = strchr(cols[2], '\t');
        if (fields) *fields++ = '\0';
        from_host = strcmp(cols[0], "h") == 0;
        rawlen = unescape(cols[1], raw);

        r = dr_parse_line(raw, rawlen, from_host, &m);
        if (strcmp(dr_result_name(r), cols[2]) != 0) {
            FAIL("%s:%d: %s: got %s, want %s", file, lineno, cols[1], dr_result_name(r), cols[2]);
            continue;
        }
        frame_check(raw, rawlen, from_host, cols[2]);
        if (r != DR_OK) {
            n_invalid++;
            continue;
        }
        n_valid++;
        canonical(&m, &got);
        want.n = 0;
        want.s[0] = '\0';
        add(&want, fields ? fields : "");
        if (strcmp(got.s, want.s) != 0) {
            FAIL("%s:%d: %s\n  got  %s\n  want %s", file, lineno, cols[1], got.s, want.s);
            continue;
        }
        /* round trip: encode the parsed message, parse it again, same fields */
        if (dr_encode(&m, encoded, sizeof encoded) == 0) {
            FAIL("%s:%d: encoder refused %s", file, lineno, got.s);
            continue;
        }
        r = dr_parse_line(encoded, strlen(encoded), from_host, &again);
        canonical(&again, &got2);
        if (r != DR_OK || strcmp(got.s, got2.s) != 0) {
            FAIL("%s:%d: round trip %s gave %s", file, lineno, encoded, got2.s);
            continue;
        }
        n_round++;
    }
    fclose(fp);
}

/* ---------------------------------------------------------------- framer and encoder specifics */

static int feed_all(dr_framer *f, const char *s, size_t n, char lines[][DR_MAX_LINE + 2], int max)
{
    size_t i;
    int k = 0;
    for (i = 0; i < n; i++)
        if (dr_framer_feed(f, (unsigned char)s[i]) && k < max) memcpy(lines[k++], f->buf, f->len + 1);
    return k;
}

static void framer_tests(void)
{
    dr_framer f;
    char lines[4][DR_MAX_LINE + 2];
    char big[400];
    int k;
    size_t n;

    /* overlong lines are dropped up to the next newline and counted; the next line is fine */
    dr_framer_init(&f);
    memset(big, 'x', 300);
    big[300] = '\n';
    memcpy(big + 301, "ok\r\n\r\n\nyes\n", 12);
    k = feed_all(&f, big, 313, lines, 4);
    if (k != 2 || strcmp(lines[0], "ok") != 0 || strcmp(lines[1], "yes") != 0 || f.overlong != 1)
        FAIL("framer: overlong handling (k=%d overlong=%lu)", k, f.overlong);

    /* exactly DR_MAX_LINE bytes pass with "\n" and with "\r\n"; one more does not */
    dr_framer_init(&f);
    memset(big, 'y', DR_MAX_LINE);
    big[DR_MAX_LINE] = '\r';
    big[DR_MAX_LINE + 1] = '\n';
    k = feed_all(&f, big, DR_MAX_LINE + 2, lines, 4);
    if (k != 1 || strlen(lines[0]) != DR_MAX_LINE) FAIL("framer: 96 bytes + \\r\\n");
    big[DR_MAX_LINE] = 'y';
    big[DR_MAX_LINE + 1] = '\n';
    k = feed_all(&f, big, DR_MAX_LINE + 2, lines, 4);
    if (k != 0 || f.overlong != 1) FAIL("framer: 97 bytes must be dropped");
    big[DR_MAX_LINE + 1] = '\r';
    big[DR_MAX_LINE + 2] = '\n';
    k = feed_all(&f, big, DR_MAX_LINE + 3, lines, 4);
    if (k != 0 || f.overlong != 2) FAIL("framer: 97 bytes + \\r\\n must be dropped");

    /* encoder: a valid message, then invalid ones that must be refused */
    {
        dr_msg m;
        char buf[DR_MAX_LINE + 2];
        dr_msg_init(&m, DR_SETTLED);
        m.seq = 44;
        strcpy(m.die, "A");
        m.throw_id = 7;
        m.face = 5;
        n = dr_encode(&m, buf, sizeof buf);
        if (n == 0 || strcmp(buf, "settled 44 A 7 5*CBE2\n") != 0) FAIL("encode settled: %s", buf);
        if (dr_encode(&m, buf, 10) != 0) FAIL("encode into a small buffer must fail");
        m.face = 0;
        if (dr_encode(&m, buf, sizeof buf) != 0) FAIL("encode face 0 must fail");
        m.face = 5;
        strcpy(m.die, "A B");
        if (dr_encode(&m, buf, sizeof buf) != 0) FAIL("encode die id with a space must fail");
        dr_msg_init(&m, DR_DIE);
        strcpy(m.die, "A");
        m.sides = 6;
        strcpy(m.colour, "re d");
        if (dr_encode(&m, buf, sizeof buf) != 0) FAIL("encode colour with a space must fail");
        dr_msg_init(&m, DR_ERROR);
        strcpy(m.code, "x");
        memset(m.text, 't', 90);
        m.text[90] = '\0';
        if (dr_encode(&m, buf, sizeof buf) != 0) FAIL("encode an overlong error must fail");
        dr_msg_init(&m, DR_CMD_BLINK);
        strcpy(m.die, "A");
        m.seconds = 3;
        if (dr_encode(&m, buf, sizeof buf) == 0 || strcmp(buf, "blink A 3*1574\n") != 0) FAIL("encode blink");
        strcpy(buf, "heartbeat 52 1000");
        if (dr_finish_line(buf, strlen(buf), sizeof buf) == 0) FAIL("dr_finish_line");
    }
    if (dr_crc16("123456789", 9) != 0x29B1) FAIL("crc check value");
}

static int parse_stdin(void)
{
    static char row[8192], raw[4096];
    sbuf got;
    dr_msg m;
    dr_result r;
    while (fgets(row, sizeof row, stdin)) {
        char *nl = strchr(row, '\n');
        size_t n;
        if (nl) *nl = '\0';
        if (strlen(row) < 2 || row[1] != '\t') {
            printf("?\n");
            continue;
        }
        n = unescape(row + 2, raw);
        r = dr_parse_line(raw, n, row[0] == 'h', &m);
        if (r == DR_OK) {
            canonical(&m, &got);
            printf("ok\t%s\n", got.s);
        } else {
            printf("%s\n", dr_result_name(r));
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "../vectors";
    if (strcmp(dir, "--parse") == 0) return parse_stdin();
    run_file(dir, "valid.tsv");
    run_file(dir, "invalid.tsv");
    framer_tests();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("checked %ld vectors (%ld valid, %ld invalid), %ld round trips, %ld framed lines\n",
           n_valid + n_invalid, n_valid, n_invalid, n_round, n_framed);
    return 0;
}
