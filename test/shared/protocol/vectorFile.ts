// Reads firmware-protocol/vectors/*.tsv (format described at the top of each file).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoPath } from '@test/kit/root'

export const VECTOR_DIR = `${repoPath('firmware-protocol', 'vectors')}/`

export interface Vector {
  file: string
  lineNo: number
  dir: 'd' | 'h'
  /** The line, unescaped; each char code is one byte. */
  line: string
  /** The line column as written in the file. */
  escaped: string
  expect: string
  /** Expected `key=value` fields, still escaped, in order. */
  fields: string[]
}

export function unescape(s: string): string {
  return s.replace(/\\(x[0-9A-Fa-f]{2}|.)/g, (_, e: string) => {
    if (e === 't') return '\t'
    if (e === 'r') return '\r'
    if (e === 'n') return '\n'
    if (e[0] === 'x' && e.length === 3) return String.fromCharCode(parseInt(e.slice(1), 16))
    return e
  })
}

export function escape(s: string): string {
  let out = ''
  for (const ch of s) {
    const c = ch.charCodeAt(0)
    if (ch === '\\') out += '\\\\'
    else if (ch === '\t') out += '\\t'
    else if (ch === '\r') out += '\\r'
    else if (ch === '\n') out += '\\n'
    else if (c < 0x20 || c > 0x7e) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0')
    else out += ch
  }
  return out
}

export function loadVectors(file: string): Vector[] {
  const text = readFileSync(join(VECTOR_DIR, file), 'latin1')
  const out: Vector[] = []
  text.split('\n').forEach((row, i) => {
    if (row === '' || row.startsWith('#')) return
    const [dir, escaped, expect, ...fields] = row.split('\t')
    if (dir !== 'd' && dir !== 'h') throw new Error(`${file}:${i + 1}: bad direction ${dir}`)
    out.push({ file, lineNo: i + 1, dir, line: unescape(escaped), escaped, expect, fields })
  })
  return out
}
