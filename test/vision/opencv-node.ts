// OpenCV for the tests, through Node's own require: vitest would otherwise transform the 10 MB
// build (minutes on a loaded 2-core machine). The reader is the same either way.
import { createRequire } from 'node:module'
import { openCvReady, type OpenCv } from '../../src/shared/vision/opencv'

const requireHere = createRequire(__filename)
let loading: Promise<{ cv: OpenCv }> | null = null

export async function openCvForTests(): Promise<OpenCv> {
  loading ??= openCvReady(requireHere('@techstark/opencv-js'))
  return (await loading).cv
}
