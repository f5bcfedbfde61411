// The platform APIs that src/shared uses beyond ECMAScript: the WHATWG Encoding API's
// TextDecoder and TextEncoder, which every runtime of the shared code has (Chromium, Electron, Node). Declared
// here, for tsconfig.shared.json only, so that src/shared is checked without the DOM lib and
// without @types/node: anything else from either is a type error there.
interface TextDecoderOptions {
  fatal?: boolean
  ignoreBOM?: boolean
}

declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions)
  readonly encoding: string
  readonly fatal: boolean
  readonly ignoreBOM: boolean
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string
}

declare class TextEncoder {
  readonly encoding: string
  encode(input?: string): Uint8Array
}
