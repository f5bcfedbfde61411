// CRC-16/CCITT-FALSE (catalogue name CRC-16/IBM-3740):
// poly 0x1021, init 0xFFFF, no reflection, xorout 0x0000, check("123456789") = 0x29B1.
// Computed over the line body: every byte before the final `*`.

const TABLE = (() => {
  const t = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let c = i << 8
    for (let b = 0; b < 8; b++) c = c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1
    t[i] = c & 0xffff
  }
  return t
})()

/** CRC-16/CCITT-FALSE of the characters `text[start..end)` (each char code taken as one byte). */
export function crc16(text: string, start = 0, end = text.length): number {
  let crc = 0xffff
  for (let i = start; i < end; i++) {
    crc = ((crc << 8) ^ TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff]) & 0xffff
  }
  return crc
}

/** CRC-16/CCITT-FALSE of raw bytes. */
export function crc16Bytes(bytes: Uint8Array): number {
  let crc = 0xffff
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) ^ TABLE[((crc >> 8) ^ bytes[i]) & 0xff]) & 0xffff
  return crc
}

const HEX = '0123456789ABCDEF'

/** The 4 upper-case hex digits written after `*` for this body. */
export function checksum(body: string): string {
  const c = crc16(body)
  return HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15]
}

/** `body*HHHH` (no line end). */
export function withChecksum(body: string): string {
  return body + '*' + checksum(body)
}
