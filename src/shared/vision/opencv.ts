// OpenCV's JavaScript build (@techstark/opencv-js, pinned): one WebAssembly module with the wasm
// inside the file, so it loads offline the same way in Node and in a Web Worker. Loaded once,
// on first use (about 0.2 s here).
import type * as OpenCvTypes from '@techstark/opencv-js'

export type OpenCv = typeof OpenCvTypes

let loading: Promise<{ cv: OpenCv }> | null = null

/**
 * OpenCV, ready to use. It comes wrapped ({ cv }): the Emscripten module has a `then` of its own,
 * so a promise resolved with the module itself would call that `then` for ever.
 */
export function loadOpenCv(): Promise<{ cv: OpenCv }> {
  loading ??= import('@techstark/opencv-js').then(
    (imported) =>
      new Promise<{ cv: OpenCv }>((resolve, reject) => {
        const module = ((imported as { default?: unknown }).default ?? imported) as OpenCv & { onRuntimeInitialized?: () => void }
        if (module instanceof Promise) {
          module.then((cv: OpenCv) => resolve({ cv }), reject)
          return
        }
        if (typeof module.Mat === 'function') resolve({ cv: module })
        else module.onRuntimeInitialized = () => resolve({ cv: module })
      })
  )
  return loading
}
