// Reading ordinary dice from camera frames and photos (docs/camera.md). Pure: runs in Node and in
// a browser Web Worker; frames are plain RGBA pixels.
export { loadOpenCv, type OpenCv } from './opencv'
export { readDiceFrame, type ReadOptions } from './reader'
export { ThrowReader, type ThrowEvent, type ThrowReaderOptions } from './throw-reader'
export { voteReadings } from './vote'
export { findTrayInFrame } from './tray'
export { fitLayout, PIP_LAYOUTS } from './layout'
export { scorePhoto, summarize, wilson, type EvalSummary, type PhotoScore, type Share } from './eval'
export { parseManifest, manifestLineText, type PhotoManifestLine } from './manifest'
export { capturedManifestLine, capturedFileName, type CapturedThrow } from './capture'
export * from './types'
