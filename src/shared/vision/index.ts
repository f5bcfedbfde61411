// Reading ordinary dice from camera frames and photos (docs/camera.md). Pure: runs in Node and in
// a browser Web Worker; frames are plain RGBA pixels. OpenCV itself is loaded by load-opencv.ts
// (imported by the command line, the bench and a worker; tests load it with Node's require).
export { openCvReady, type OpenCv } from './opencv'
export { readDiceFrame, type ReadOptions } from './reader'
export { ThrowReader, type ThrowEvent, type ThrowReaderOptions } from './throw-reader'
export { voteReadings } from './vote'
export { findTrayInFrame } from './tray'
export { fitLayout, PIP_LAYOUTS } from './layout'
export { scorePhoto, summarize, wilson, type EvalSummary, type PhotoScore, type Share } from './eval'
export { parseManifest, manifestLineText, type PhotoManifestLine } from './manifest'
export { capturedManifestLine, capturedFileName, type CapturedThrow } from './capture'
export * from './types'
