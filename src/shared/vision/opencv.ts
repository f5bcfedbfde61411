// OpenCV's JavaScript build (@techstark/opencv-js, pinned): one WebAssembly module with the wasm
// inside the file, so it loads offline the same way in Node and in a Web Worker (about 0.2 s
// here). The import itself is in load-opencv.ts: vitest would run the 10 MB file through its
// transform (minutes on this machine) for any test importing a module that names it, so the
// tests bring it in with Node's require (test/vision/opencv-node.ts) and hand it to openCvReady.
import type * as OpenCvTypes from '@techstark/opencv-js'

export type OpenCv = typeof OpenCvTypes

/**
 * The module, once its runtime is ready. It comes wrapped ({ cv }): the Emscripten module has a
 * `then` of its own, so a promise resolved with the module itself would call that `then` for ever.
 */
export function openCvReady(imported: unknown): Promise<{ cv: OpenCv }> {
  return new Promise<{ cv: OpenCv }>((resolve, reject) => {
    const module = ((imported as { default?: unknown }).default ?? imported) as OpenCv & { onRuntimeInitialized?: () => void }
    if (module instanceof Promise) {
      module.then((cv: OpenCv) => resolve({ cv }), reject)
      return
    }
    if (typeof module.Mat === 'function') resolve({ cv: module })
    else module.onRuntimeInitialized = () => resolve({ cv: module })
  })
}
