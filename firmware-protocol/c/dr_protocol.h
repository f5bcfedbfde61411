/*
 * Dice Referee line protocol, reference implementation in portable C99.
 * The protocol itself is described in ../PROTOCOL.md.
 *
 * No malloc, no printf, no globals: every function works on caller-owned memory.
 *
 *   Sending (firmware):  fill a dr_msg, call dr_encode(), write the bytes.
 *                        Or build the body yourself and call dr_finish_line().
 *   Receiving:           feed each byte to dr_framer_feed(); when it returns 1,
 *                        call dr_parse_line() on framer.buf / framer.len.
 */
#ifndef DR_PROTOCOL_H
#define DR_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#define DR_PROTO_MAJOR 1
#define DR_PROTO_MINOR 0
#define DR_MAX_LINE 96  /* bytes, "*HHHH" included, line end ("\n" or "\r\n") excluded */
#define DR_MAX_DICE 64  /* most dice one device describes */
#define DR_MAX_FACE 100 /* a d100 reports 1..100 */
#define DR_NONE (-1)    /* a field sent as "-": no value */

/* Result of parsing one line. dr_result_name() gives the code used in PROTOCOL.md and the vectors. */
typedef enum {
    DR_OK = 0,
    DR_ERR_EMPTY,         /* "empty"          nothing before the line end            */
    DR_ERR_TOO_LONG,      /* "too-long"       more than DR_MAX_LINE bytes            */
    DR_ERR_BAD_CHAR,      /* "bad-char"       a byte outside 0x20..0x7E              */
    DR_ERR_MALFORMED,     /* "malformed"      no *HHHH, empty field, missing fields  */
    DR_ERR_BAD_CHECKSUM,  /* "bad-checksum"   CRC does not match                     */
    DR_ERR_UNKNOWN_TYPE,  /* "unknown-type"   first word not known (newer minor?)    */
    DR_ERR_UNKNOWN_MAJOR, /* "unknown-major"  hello with a major version we lack     */
    DR_ERR_BAD_FIELD      /* "bad-field"      a field out of range or badly spelled  */
} dr_result;

typedef enum {
    /* device -> host: every line carries a sequence number */
    DR_HELLO = 0, DR_DIE, DR_ROLLING, DR_SETTLED, DR_COCKED, DR_MOVED, DR_BATTERY,
    DR_HEARTBEAT, DR_ERROR, DR_KEY, DR_TYPED, DR_STATE, DR_DSTATE,
    /* host -> device: no sequence number */
    DR_CMD_HELLO, /* "hello?" */
    DR_CMD_STATE, /* "state?" */
    DR_CMD_BLINK  /* "blink DIE SECONDS" */
} dr_type;

enum { DR_CHARGING = 0, DR_DISCHARGING = 1, DR_FULL = 2 };                           /* charge */
enum { DR_ST_ROLLING = 0, DR_ST_SETTLED = 1, DR_ST_COCKED = 2, DR_ST_OFFLINE = 3 }; /* status */

/* One message, either direction. Only the fields of its type are meaningful. */
typedef struct {
    dr_type type;
    uint16_t seq;           /* device lines: 0..65535, wraps to 0 */
    /* hello */
    int major, minor;       /* protocol version */
    char firmware[17];      /* firmware name, 1-16 name chars */
    char fw_version[17];    /* firmware version, 1-16 name chars */
    char serial[25];        /* serial number, 1-24 name chars */
    int dice;               /* hello, state: how many die / dstate lines follow (0..64) */
    int keypad;             /* hello: 1 if the device has a keypad */
    /* dice */
    char die[9];            /* die id, 1-8 letters/digits; "" = none (error about the device) */
    int sides;              /* die: 2..100 ("d6" -> 6) */
    char colour[17];        /* die: "" = none ("-") */
    int32_t throw_id;       /* rolling settled cocked dstate: 0..65535, DR_NONE in dstate if never rolled */
    int face;               /* settled moved dstate: 1..100, or DR_NONE */
    int percent;            /* battery dstate: 0..100, or DR_NONE in dstate */
    int charge;             /* battery dstate: DR_CHARGING.., or DR_NONE in dstate */
    int status;             /* dstate: DR_ST_ROLLING.. */
    uint16_t interval_ms;   /* heartbeat: 1..65535 */
    char code[25];          /* error: 1-24 name chars, e.g. "die-lost" */
    char text[DR_MAX_LINE + 1]; /* die label, error text: rest of the line, may be "" */
    char key[9];            /* key: 1-8 printable, no space */
    char value[33];         /* typed: 1-32 printable, no space */
    int seconds;            /* blink: 0..60 */
} dr_msg;

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. */
uint16_t dr_crc16(const char *data, size_t len);

/* Sets every field of m to "empty" (0, "", DR_NONE) with the given type. */
void dr_msg_init(dr_msg *m, dr_type type);

/*
 * Parses one line (its "\n" / "\r\n" may be included or not). from_host = 1 when the line
 * came from a host (firmware reading commands), 0 when it came from a device.
 */
dr_result dr_parse_line(const char *line, size_t len, int from_host, dr_msg *out);

/*
 * Writes m as a complete line "body*HHHH\n" plus a NUL into buf. Returns the number of bytes
 * (without the NUL), or 0 if a field is invalid or cap is too small (cap >= DR_MAX_LINE + 2 is
 * always enough). The line is parsed back before returning, so it is never one the other side refuses.
 */
size_t dr_encode(const dr_msg *m, char *buf, size_t cap);

/*
 * For hand-made lines: buf holds a body of len bytes; appends "*HHHH\n" and a NUL.
 * Returns the new length, or 0 if it would not fit in cap or exceed DR_MAX_LINE.
 */
size_t dr_finish_line(char *buf, size_t len, size_t cap);

/* "ok", "empty", "too-long", ... */
const char *dr_result_name(dr_result r);
/* The wire word: "hello", "settled", "hello?", "blink", ... */
const char *dr_type_name(dr_type t);
/* "charging" / "discharging" / "full", "rolling" / "settled" / "cocked" / "offline"; "-" for DR_NONE */
const char *dr_charge_name(int charge);
const char *dr_status_name(int status);

/*
 * Line framer: feed bytes one at a time. Lines longer than DR_MAX_LINE are dropped up to the
 * next '\n' and counted in `overlong`; empty lines are skipped.
 */
typedef struct {
    char buf[DR_MAX_LINE + 2]; /* line + a '\r' + NUL */
    size_t len;                /* length of the line in buf when dr_framer_feed returned 1 */
    int overflow;
    int ready;
    unsigned long lines;       /* lines delivered */
    unsigned long overlong;    /* lines dropped for being too long */
} dr_framer;

void dr_framer_init(dr_framer *f);
/* Returns 1 when buf holds a complete line (NUL-terminated, line end removed) until the next call. */
int dr_framer_feed(dr_framer *f, unsigned char byte);

#endif /* DR_PROTOCOL_H */
