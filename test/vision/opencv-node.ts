// OpenCV for the tests, through Node's own require: vitest would otherwise transform the 10 MB
// build (minutes on a loaded 2-core machine). The reader is the same either way.
import { createRequire } from 'node:module'
import { openCvReady, type OpenCv } from '@shared/vision/opencv'

const requireHere = createRequire(__filename)
let loading: Promise<{ cv: OpenCv }> | null = null

/** OpenCV, wrapped ({ cv }): a promise of the bare module never settles (opencv.ts). */
export function openCvForTests(): Promise<{ cv: OpenCv }> {
  loading ??= openCvReady(requireHere('@techstark/opencv-js'))
  return loading
}
