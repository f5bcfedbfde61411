// Loads OpenCV once (see opencv.ts): for the command line, the bench and a browser Web Worker.
// A static import on purpose: a bundler turns import() of this CommonJS module into a promise of
// an object that copies the module's own `then`, and such a promise never settles.
import * as openCvModule from '@techstark/opencv-js'
import { openCvReady, type OpenCv } from './opencv'

let loading: Promise<{ cv: OpenCv }> | null = null

export function loadOpenCv(): Promise<{ cv: OpenCv }> {
  loading ??= openCvReady(openCvModule)
  return loading
}
