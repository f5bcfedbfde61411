// Loads OpenCV once (see opencv.ts): for the command line, the bench and a browser Web Worker.
import { openCvReady, type OpenCv } from './opencv'

let loading: Promise<{ cv: OpenCv }> | null = null

export function loadOpenCv(): Promise<{ cv: OpenCv }> {
  loading ??= import('@techstark/opencv-js').then(openCvReady)
  return loading
}
