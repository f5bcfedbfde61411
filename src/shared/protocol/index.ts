// Dice Referee device line protocol (firmware-protocol/PROTOCOL.md). Pure TypeScript.
export * from './types'
export { crc16, crc16Bytes, checksum, withChecksum } from './checksum'
export { parseLine, parseCommand } from './parse'
export { encodeEvent, encodeCommand, deviceBody, commandBody } from './encode'
export { LineAssembler, type LineAssemblerStats } from './framer'
export { SequenceOrderer, SequenceTracker, seqDistance, type OrderedLines, type SeqVerdict } from './sequence'
export { canonicalFields } from './canonical'
