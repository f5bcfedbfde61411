/* Dice Referee line protocol, reference implementation. See dr_protocol.h and ../PROTOCOL.md. */
#include "dr_protocol.h"

#include <string.h>

/* ------------------------------------------------------------------ checksum */

uint16_t dr_crc16(const char *data, size_t len)
{
    uint16_t crc = 0xFFFF;
    size_t i;
    int b;
    for (i = 0; i < len; i++) {
        crc ^= (uint16_t)((unsigned char)data[i] << 8);
        for (b = 0; b < 8; b++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

/* ------------------------------------------------------------------ names */

static const char *const RESULT_NAMES[] = {
    "ok", "empty", "too-long", "bad-char", "malformed", "bad-checksum",
    "unknown-type", "unknown-major", "bad-field"
};

const char *dr_result_name(dr_result r)
{
    return ((unsigned)r < sizeof RESULT_NAMES / sizeof RESULT_NAMES[0]) ? RESULT_NAMES[r] : "?";
}

/* The message table: wire word, fixed fields after the word, free text at the end, direction. */
typedef struct {
    const char *word;
    int fields;
    int text;
    int from_host;
} dr_spec;

static const dr_spec SPECS[] = {
    { "hello", 7, 0, 0 },   { "die", 4, 1, 0 },       { "rolling", 3, 0, 0 }, { "settled", 4, 0, 0 },
    { "cocked", 3, 0, 0 },  { "moved", 3, 0, 0 },     { "battery", 4, 0, 0 }, { "heartbeat", 2, 0, 0 },
    { "error", 3, 1, 0 },   { "key", 2, 0, 0 },       { "typed", 2, 0, 0 },   { "state", 2, 0, 0 },
    { "dstate", 7, 0, 0 },  { "hello?", 0, 0, 1 },    { "state?", 0, 0, 1 },  { "blink", 2, 0, 1 }
};
#define DR_NSPECS ((int)(sizeof SPECS / sizeof SPECS[0]))
#define DR_MAXFIELDS 7

const char *dr_type_name(dr_type t)
{
    return ((int)t >= 0 && (int)t < DR_NSPECS) ? SPECS[t].word : "?";
}

static const char *const CHARGE_NAMES[] = { "charging", "discharging", "full" };
static const char *const STATUS_NAMES[] = { "rolling", "settled", "cocked", "offline" };

const char *dr_charge_name(int c) { return (c >= 0 && c <= 2) ? CHARGE_NAMES[c] : "-"; }
const char *dr_status_name(int s) { return (s >= 0 && s <= 3) ? STATUS_NAMES[s] : "-"; }

void dr_msg_init(dr_msg *m, dr_type type)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    m->throw_id = DR_NONE;
    m->face = DR_NONE;
    m->percent = DR_NONE;
    m->charge = DR_NONE;
}

/* ------------------------------------------------------------------ field readers */

typedef struct {
    const char *s;
    size_t n;
} dr_field;

static int is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_name_char(char c)
{
    return is_alnum(c) || c == '.' || c == '_' || c == '+' || c == '-' || c == '#';
}

static int is_none(dr_field f) { return f.n == 1 && f.s[0] == '-'; }

static int eq(dr_field f, const char *w) { return strlen(w) == f.n && memcmp(f.s, w, f.n) == 0; }

/* 1-5 decimal digits, value min..max. Returns 1 on success. */
static int num(dr_field f, long min, long max, long *out)
{
    long v = 0;
    size_t i;
    if (f.n < 1 || f.n > 5) return 0;
    for (i = 0; i < f.n; i++) {
        if (f.s[i] < '0' || f.s[i] > '9') return 0;
        v = v * 10 + (f.s[i] - '0');
    }
    if (v < min || v > max) return 0;
    *out = v;
    return 1;
}

/* A number, or "-" giving DR_NONE. */
static int num_or_none(dr_field f, long min, long max, long *out)
{
    if (is_none(f)) {
        *out = DR_NONE;
        return 1;
    }
    return num(f, min, max, out);
}

static void copy(char *dst, dr_field f)
{
    memcpy(dst, f.s, f.n);
    dst[f.n] = '\0';
}

static int die_id(dr_field f, char *dst)
{
    size_t i;
    if (f.n < 1 || f.n > 8) return 0;
    for (i = 0; i < f.n; i++)
        if (!is_alnum(f.s[i])) return 0;
    copy(dst, f);
    return 1;
}

static int name(dr_field f, size_t max, char *dst)
{
    size_t i;
    if (f.n < 1 || f.n > max) return 0;
    for (i = 0; i < f.n; i++)
        if (!is_name_char(f.s[i])) return 0;
    copy(dst, f);
    return 1;
}

/* Printable, no spaces: tokenising already guarantees it; only the length is checked. */
static int token(dr_field f, size_t max, char *dst)
{
    if (f.n < 1 || f.n > max) return 0;
    copy(dst, f);
    return 1;
}

static int charge(dr_field f, int *out)
{
    int i;
    for (i = 0; i < 3; i++)
        if (eq(f, CHARGE_NAMES[i])) {
            *out = i;
            return 1;
        }
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* "MAJOR.MINOR", each 1-3 digits */
static int version(dr_field f, long *major, long *minor)
{
    size_t dot = 0;
    dr_field a, b;
    while (dot < f.n && f.s[dot] != '.') dot++;
    if (dot < 1 || dot > 3 || dot == f.n || f.n - dot - 1 < 1 || f.n - dot - 1 > 3) return 0;
    a.s = f.s;
    a.n = dot;
    b.s = f.s + dot + 1;
    b.n = f.n - dot - 1;
    return num(a, 0, 999, major) && num(b, 0, 999, minor);
}

/* ------------------------------------------------------------------ parser */

/* Builds the message from its fields; returns DR_OK or DR_ERR_BAD_FIELD. */
static dr_result build(dr_msg *m, const dr_field *f, dr_field text)
{
    long v, w;
    int i;
    switch (m->type) {
    case DR_HELLO:
        if (!version(f[1], &v, &w)) return DR_ERR_BAD_FIELD;
        m->major = (int)v;
        m->minor = (int)w;
        if (!name(f[2], 16, m->firmware) || !name(f[3], 16, m->fw_version) || !name(f[4], 24, m->serial))
            return DR_ERR_BAD_FIELD;
        if (!num(f[5], 0, DR_MAX_DICE, &v)) return DR_ERR_BAD_FIELD;
        m->dice = (int)v;
        if (!num(f[6], 0, 1, &v)) return DR_ERR_BAD_FIELD;
        m->keypad = (int)v;
        return DR_OK;
    case DR_DIE:
        if (!die_id(f[1], m->die)) return DR_ERR_BAD_FIELD;
        if (f[2].n < 2 || f[2].s[0] != 'd') return DR_ERR_BAD_FIELD;
        {
            dr_field d;
            d.s = f[2].s + 1;
            d.n = f[2].n - 1;
            if (!num(d, 2, DR_MAX_FACE, &v)) return DR_ERR_BAD_FIELD;
        }
        m->sides = (int)v;
        if (!is_none(f[3]) && !name(f[3], 16, m->colour)) return DR_ERR_BAD_FIELD;
        memcpy(m->text, text.s, text.n);
        m->text[text.n] = '\0';
        return DR_OK;
    case DR_ROLLING:
    case DR_COCKED:
    case DR_SETTLED:
        if (!die_id(f[1], m->die) || !num(f[2], 0, 65535, &v)) return DR_ERR_BAD_FIELD;
        m->throw_id = (int32_t)v;
        if (m->type == DR_SETTLED) {
            if (!num(f[3], 1, DR_MAX_FACE, &v)) return DR_ERR_BAD_FIELD;
            m->face = (int)v;
        }
        return DR_OK;
    case DR_MOVED:
        if (!die_id(f[1], m->die) || !num_or_none(f[2], 1, DR_MAX_FACE, &v)) return DR_ERR_BAD_FIELD;
        m->face = (int)v;
        return DR_OK;
    case DR_BATTERY:
        if (!die_id(f[1], m->die) || !num(f[2], 0, 100, &v) || !charge(f[3], &i)) return DR_ERR_BAD_FIELD;
        m->percent = (int)v;
        m->charge = i;
        return DR_OK;
    case DR_HEARTBEAT:
        if (!num(f[1], 1, 65535, &v)) return DR_ERR_BAD_FIELD;
        m->interval_ms = (uint16_t)v;
        return DR_OK;
    case DR_ERROR:
        if (!name(f[1], 24, m->code)) return DR_ERR_BAD_FIELD;
        if (!is_none(f[2]) && !die_id(f[2], m->die)) return DR_ERR_BAD_FIELD;
        memcpy(m->text, text.s, text.n);
        m->text[text.n] = '\0';
        return DR_OK;
    case DR_KEY:
        return token(f[1], 8, m->key) ? DR_OK : DR_ERR_BAD_FIELD;
    case DR_TYPED:
        return token(f[1], 32, m->value) ? DR_OK : DR_ERR_BAD_FIELD;
    case DR_STATE:
        if (!num(f[1], 0, DR_MAX_DICE, &v)) return DR_ERR_BAD_FIELD;
        m->dice = (int)v;
        return DR_OK;
    case DR_DSTATE:
        if (!die_id(f[1], m->die)) return DR_ERR_BAD_FIELD;
        m->status = -1;
        for (i = 0; i < 4; i++)
            if (eq(f[2], STATUS_NAMES[i])) m->status = i;
        if (m->status < 0) return DR_ERR_BAD_FIELD;
        if (!num_or_none(f[3], 0, 65535, &v)) return DR_ERR_BAD_FIELD;
        m->throw_id = (int32_t)v;
        if (!num_or_none(f[4], 1, DR_MAX_FACE, &v)) return DR_ERR_BAD_FIELD;
        m->face = (int)v;
        if (m->status == DR_ST_SETTLED && m->face == DR_NONE) return DR_ERR_BAD_FIELD;
        if ((m->status == DR_ST_ROLLING || m->status == DR_ST_COCKED) && m->face != DR_NONE)
            return DR_ERR_BAD_FIELD;
        if (!num_or_none(f[5], 0, 100, &v)) return DR_ERR_BAD_FIELD;
        m->percent = (int)v;
        if (is_none(f[6]))
            m->charge = DR_NONE;
        else if (!charge(f[6], &m->charge))
            return DR_ERR_BAD_FIELD;
        return DR_OK;
    case DR_CMD_HELLO:
    case DR_CMD_STATE:
        return DR_OK;
    case DR_CMD_BLINK:
        if (!die_id(f[0], m->die) || !num(f[1], 0, 60, &v)) return DR_ERR_BAD_FIELD;
        m->seconds = (int)v;
        return DR_OK;
    }
    return DR_ERR_BAD_FIELD;
}

dr_result dr_parse_line(const char *line, size_t len, int from_host, dr_msg *out)
{
    size_t i, star, pos, start, end;
    uint16_t sent = 0;
    int t, nf = 0, h;
    const dr_spec *spec = NULL;
    dr_field f[DR_MAXFIELDS], word, text;
    long v, w;

    /* 1. line end, length, characters */
    if (len > 0 && line[len - 1] == '\n') len--;
    if (len > 0 && line[len - 1] == '\r') len--;
    if (len == 0) return DR_ERR_EMPTY;
    if (len > DR_MAX_LINE) return DR_ERR_TOO_LONG;
    for (i = 0; i < len; i++)
        if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] > 0x7E) return DR_ERR_BAD_CHAR;

    /* 2. "*HHHH" at the end, checksum over everything before the '*' */
    if (len < 6 || line[len - 5] != '*') return DR_ERR_MALFORMED;
    star = len - 5;
    for (i = star + 1; i < len; i++) {
        if ((h = hexval(line[i])) < 0) return DR_ERR_MALFORMED;
        sent = (uint16_t)((sent << 4) | (uint16_t)h);
    }
    if (dr_crc16(line, star) != sent) return DR_ERR_BAD_CHECKSUM;

    /* 3. the message word */
    for (pos = 0; pos < star && line[pos] != ' '; pos++) {
    }
    if (pos == 0) return DR_ERR_MALFORMED;
    word.s = line;
    word.n = pos;
    for (t = 0; t < DR_NSPECS; t++)
        if (SPECS[t].from_host == from_host && eq(word, SPECS[t].word)) {
            spec = &SPECS[t];
            break;
        }
    if (spec == NULL) return DR_ERR_UNKNOWN_TYPE;
    dr_msg_init(out, (dr_type)t);

    /* 4. fields: single spaces between, none empty; extra fields after the fixed ones are ignored */
    while (nf < spec->fields && pos < star) {
        start = pos + 1; /* line[pos] is a space */
        for (end = start; end < star && line[end] != ' '; end++) {
        }
        if (end == start) return DR_ERR_MALFORMED;
        f[nf].s = line + start;
        f[nf].n = end - start;
        nf++;
        pos = end;
    }

    /* hello: seq and version come first and never move, so check the major before the rest */
    if (out->type == DR_HELLO) {
        if (nf < 2) return DR_ERR_MALFORMED;
        if (!num(f[0], 0, 65535, &v) || !version(f[1], &v, &w)) return DR_ERR_BAD_FIELD;
        if (v != DR_PROTO_MAJOR) return DR_ERR_UNKNOWN_MAJOR;
    }
    if (nf < spec->fields) return DR_ERR_MALFORMED;
    if (!from_host) {
        if (!num(f[0], 0, 65535, &v)) return DR_ERR_BAD_FIELD;
        out->seq = (uint16_t)v;
    }
    text.s = line + pos + 1;
    text.n = (spec->text && pos < star) ? star - pos - 1 : 0;
    return build(out, f, text);
}

/* ------------------------------------------------------------------ encoder */

typedef struct {
    char *buf;
    size_t len, cap;
    int overflow; /* buffer too small, or a token was empty or held a space */
} dr_out;

static void put(dr_out *o, const char *s)
{
    while (*s) {
        if (o->len + 1 >= o->cap) {
            o->overflow = 1;
            return;
        }
        o->buf[o->len++] = *s++;
    }
}

static void put_num(dr_out *o, long v)
{
    char tmp[12];
    int n = 0;
    if (v < 0) { /* DR_NONE and only DR_NONE is negative */
        put(o, "-");
        return;
    }
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < 11);
    while (n > 0) {
        char c[2];
        c[0] = tmp[--n];
        c[1] = '\0';
        put(o, c);
    }
}

static void sp(dr_out *o) { put(o, " "); }

/* A one-word field: must not be empty nor hold a space, or the fields after it would shift. */
static void put_tok(dr_out *o, const char *s)
{
    if (s[0] == '\0' || strchr(s, ' ') != NULL) o->overflow = 1;
    put(o, s);
}

size_t dr_finish_line(char *buf, size_t len, size_t cap)
{
    static const char HEX[] = "0123456789ABCDEF";
    uint16_t c;
    if (len + 5 > DR_MAX_LINE || len + 7 > cap) return 0; /* "*HHHH" + "\n" + NUL */
    c = dr_crc16(buf, len);
    buf[len++] = '*';
    buf[len++] = HEX[(c >> 12) & 15];
    buf[len++] = HEX[(c >> 8) & 15];
    buf[len++] = HEX[(c >> 4) & 15];
    buf[len++] = HEX[c & 15];
    buf[len++] = '\n';
    buf[len] = '\0';
    return len;
}

static size_t encode_unchecked(const dr_msg *m, char *buf, size_t cap)
{
    dr_out o;
    int from_host = m->type >= DR_CMD_HELLO;

    if (cap == 0) return 0;
    o.buf = buf;
    o.len = 0;
    o.cap = cap;
    o.overflow = 0;
    put(&o, dr_type_name(m->type));
    if (!from_host) {
        sp(&o);
        put_num(&o, m->seq);
    }
    switch (m->type) {
    case DR_HELLO:
        sp(&o); put_num(&o, m->major); put(&o, "."); put_num(&o, m->minor);
        sp(&o); put_tok(&o, m->firmware);
        sp(&o); put_tok(&o, m->fw_version);
        sp(&o); put_tok(&o, m->serial);
        sp(&o); put_num(&o, m->dice);
        sp(&o); put_num(&o, m->keypad ? 1 : 0);
        break;
    case DR_DIE:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put(&o, "d"); put_num(&o, m->sides);
        sp(&o); put_tok(&o, m->colour[0] ? m->colour : "-");
        if (m->text[0]) { sp(&o); put(&o, m->text); }
        break;
    case DR_ROLLING:
    case DR_COCKED:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put_num(&o, m->throw_id);
        break;
    case DR_SETTLED:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put_num(&o, m->throw_id);
        sp(&o); put_num(&o, m->face);
        break;
    case DR_MOVED:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put_num(&o, m->face);
        break;
    case DR_BATTERY:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put_num(&o, m->percent);
        sp(&o); put(&o, dr_charge_name(m->charge));
        break;
    case DR_HEARTBEAT:
        sp(&o); put_num(&o, m->interval_ms);
        break;
    case DR_ERROR:
        sp(&o); put_tok(&o, m->code);
        sp(&o); put_tok(&o, m->die[0] ? m->die : "-");
        if (m->text[0]) { sp(&o); put(&o, m->text); }
        break;
    case DR_KEY:
        sp(&o); put_tok(&o, m->key);
        break;
    case DR_TYPED:
        sp(&o); put_tok(&o, m->value);
        break;
    case DR_STATE:
        sp(&o); put_num(&o, m->dice);
        break;
    case DR_DSTATE:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put(&o, dr_status_name(m->status));
        sp(&o); put_num(&o, m->throw_id);
        sp(&o); put_num(&o, m->face);
        sp(&o); put_num(&o, m->percent);
        sp(&o); put(&o, dr_charge_name(m->charge));
        break;
    case DR_CMD_HELLO:
    case DR_CMD_STATE:
        break;
    case DR_CMD_BLINK:
        sp(&o); put_tok(&o, m->die);
        sp(&o); put_num(&o, m->seconds);
        break;
    default:
        return 0;
    }
    if (o.overflow) return 0;
    return dr_finish_line(buf, o.len, cap);
}

size_t dr_encode(const dr_msg *m, char *buf, size_t cap)
{
    char again[DR_MAX_LINE + 2];
    dr_msg check;
    size_t n = encode_unchecked(m, buf, cap);
    if (n == 0) return 0;
    /* Never send what the other side would refuse or read differently (a space inside a die id,
       a face of 0...): the line must parse, and the parsed message must encode to the same bytes. */
    if (dr_parse_line(buf, n, m->type >= DR_CMD_HELLO, &check) != DR_OK) return 0;
    if (encode_unchecked(&check, again, sizeof again) != n || memcmp(again, buf, n) != 0) return 0;
    return n;
}

/* ------------------------------------------------------------------ framer */

void dr_framer_init(dr_framer *f)
{
    memset(f, 0, sizeof *f);
}

int dr_framer_feed(dr_framer *f, unsigned char byte)
{
    if (f->ready) { /* the previous line has been consumed */
        f->ready = 0;
        f->len = 0;
    }
    if (byte != '\n') {
        if (f->overflow) return 0;
        if (f->len >= DR_MAX_LINE + 1) { /* room for the line and a '\r' */
            f->overflow = 1;
            return 0;
        }
        f->buf[f->len++] = (char)byte;
        return 0;
    }
    if (!f->overflow && f->len > 0 && f->buf[f->len - 1] == '\r') f->len--;
    if (f->overflow || f->len > DR_MAX_LINE) {
        f->overlong++;
        f->overflow = 0;
        f->len = 0;
        return 0;
    }
    if (f->len == 0) return 0; /* blank line */
    f->buf[f->len] = '\0';
    f->ready = 1;
    f->lines++;
    return 1;
}
