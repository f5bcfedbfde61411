import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { Outcome } from '@shared/api'
import type { CameraDie, CameraThrowView } from '@shared/camera'
import type { Point, TrayCalibration } from '@shared/vision/types'
import { getTableApi } from '../api'
import type { FromCameraWorker, WorkerReading } from '../camera/camera-messages'
import { cameraAccess, type CameraChoice, type CameraSession } from '../camera/camera-runner'
import { useTableStore } from './table'

export type CameraStatus = 'off' | 'starting' | 'loading' | 'watching' | 'moving' | 'failed'

/** A throw read here: what the camera saw, when, and what the table said of it. */
export interface ReadThrow {
  id: string
  reading: WorkerReading
  /** When the dice settled (the first still frame), the vote was done, and main answered (ms since 1970). */
  settledAt: number
  readAt: number
  answeredAt: number | null
  answer: string | null
  taken: boolean
}

/** Frame readings kept for the figures the panel shows. */
const READ_TIMES_KEPT = 60
/** Throws whose frames wait for the table to take them (capture mode). */
const FRAMES_KEPT = 4

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function blobBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error ?? new Error('the frame could not be read'))
    reader.readAsDataURL(blob)
  })
}

/** A die as the screen API takes it: a confidence from 0 to 1, a box of finite numbers. */
function sendable(die: CameraDie): CameraDie {
  const confidence = Number.isFinite(die.confidence) ? Math.min(1, Math.max(0, die.confidence)) : 0
  return { ...die, confidence, box: die.box.map((n) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : 0)) as CameraDie['box'] }
}

/**
 * The camera on this screen (docs/camera.md): it watches the tray in a Web Worker and sends each
 * settled reading to main (`cameraThrow`), which takes it, fills it into this screen's keypad or
 * refuses it. It keeps the camera's tray (`setCameraCalibration`) and, in capture mode, sends a
 * taken throw's frames (`saveCameraCapture`). The camera goes on running while other screens of
 * the app are shown, until it is stopped or the page closes.
 */
export const useCameraStore = defineStore('camera', () => {
  const table = useTableStore()
  const status = ref<CameraStatus>('off')
  const error = ref<string | null>(null)
  const cameras = ref<CameraChoice[]>([])
  const camera = ref<{ name: string; deviceId: string } | null>(null)
  const stream = shallowRef<MediaStream | null>(null)
  const loadMs = ref<number | null>(null)
  /** How long each frame's reading took in the worker (ms), the latest last. */
  const readTimes = ref<number[]>([])
  const lastThrow = shallowRef<ReadThrow | null>(null)
  const tested = shallowRef<{ reading: WorkerReading; ms: number } | null>(null)
  /** The tray the worker found (null: it found none), until saved or dismissed. */
  const foundTray = shallowRef<{ corners: Point[] | null; width: number; height: number } | null>(null)
  const busy = ref(false)
  const view = computed(() => table.state?.camera ?? null)
  const calibration = computed<TrayCalibration | null>(() => (camera.value && view.value ? (view.value.calibrations[camera.value.name] ?? null) : null))
  const capture = computed(() => view.value?.capture ?? false)
  const running = computed(() => status.value !== 'off' && status.value !== 'failed')
  const unavailable = ref<string | null>(null)
  const heldFrames = new Map<string, Blob[]>()
  let runner: CameraSession | null = null
  let throws = 0

  function check(): void {
    unavailable.value = cameraAccess().unavailable()
  }

  async function refreshCameras(): Promise<void> {
    try {
      cameras.value = await cameraAccess().list()
    } catch {
      cameras.value = []
    }
  }

  async function start(deviceId: string | null = null): Promise<void> {
    check()
    if (unavailable.value) {
      error.value = unavailable.value
      return
    }
    stop()
    error.value = null
    status.value = 'starting'
    const started = cameraAccess().open((message) => void received(message))
    runner = started
    try {
      const opened = await started.start(deviceId)
      if (runner !== started) return started.stop()
      camera.value = { name: opened.name, deviceId: opened.deviceId }
      stream.value = opened.stream
      status.value = 'loading'
      configure()
      await refreshCameras()
    } catch (problem) {
      started.stop()
      if (runner === started) runner = null
      status.value = 'failed'
      const text = errorText(problem)
      error.value = /NotAllowed|Permission/i.test(text) ? 'The camera was not allowed: allow it in the browser, then start again' : `The camera did not start: ${text}`
    }
  }

  function stop(): void {
    runner?.stop()
    runner = null
    stream.value = null
    status.value = 'off'
    heldFrames.clear()
  }

  function configure(): void {
    runner?.configure(calibration.value ?? 'auto', capture.value)
  }
  watch([calibration, capture], configure)

  async function received(message: FromCameraWorker): Promise<void> {
    switch (message.type) {
      case 'ready':
        loadMs.value = Math.round(message.loadMs)
        status.value = 'watching'
        return
      case 'failed':
        error.value = message.error
        if (status.value === 'loading') status.value = 'failed'
        return
      case 'moving':
        status.value = 'moving'
        return
      case 'tested':
        tested.value = { reading: message.reading, ms: message.ms }
        readTimes.value = [...readTimes.value, message.ms].slice(-READ_TIMES_KEPT)
        return
      case 'tray':
        foundTray.value = { corners: message.corners, width: message.width, height: message.height }
        return
      case 'throw':
        status.value = 'watching'
        readTimes.value = [...readTimes.value, ...message.readMs].slice(-READ_TIMES_KEPT)
        return sendThrow(message)
      case 'next':
        return
    }
  }

  /** A settled reading goes to main; an empty tray (the dice picked up) is no throw. */
  async function sendThrow(message: Extract<FromCameraWorker, { type: 'throw' }>): Promise<void> {
    const { reading } = message
    const id = `${Date.now().toString(36)}-${++throws}`
    const read: ReadThrow = { id, reading, settledAt: message.settledAt, readAt: message.readAt, answeredAt: null, answer: null, taken: false }
    lastThrow.value = read
    if (!camera.value || reading.dice.every((die) => die.unreadable === 'outside the tray')) return
    if (message.frames) {
      heldFrames.set(id, message.frames)
      for (const old of [...heldFrames.keys()].slice(0, -FRAMES_KEPT)) heldFrames.delete(old)
    }
    let outcome: Outcome<{ taken: boolean; text: string }>
    try {
      outcome = await getTableApi().cameraThrow({ id, camera: camera.value.name, width: reading.width, height: reading.height, dice: reading.dice.map(sendable), tray: reading.tray })
    } catch (problem) {
      outcome = { ok: false, error: errorText(problem) }
    }
    lastThrow.value = { ...read, answeredAt: performance.timeOrigin + performance.now(), answer: outcome.ok ? outcome.text : outcome.error, taken: outcome.ok && outcome.taken }
  }

  /** Capture mode: a throw of this screen's that the table took sends its frames, once. */
  async function sendFrames(taken: CameraThrowView | null | undefined): Promise<void> {
    if (!taken?.confirmed || !capture.value) return
    const frames = heldFrames.get(taken.id)
    if (!frames) return
    heldFrames.delete(taken.id)
    try {
      const outcome = await getTableApi().saveCameraCapture(taken.id, await Promise.all(frames.map(blobBase64)))
      if (!outcome.ok) error.value = outcome.error
    } catch (problem) {
      error.value = errorText(problem)
    }
  }
  watch(() => view.value?.lastThrow, (taken) => void sendFrames(taken))

  function test(): void {
    tested.value = null
    void runner?.test()
  }

  function findTray(): void {
    foundTray.value = null
    void runner?.findTray()
  }

  function dismissFoundTray(): void {
    foundTray.value = null
  }

  async function request(send: () => Promise<Outcome>): Promise<Outcome> {
    busy.value = true
    try {
      const outcome = await send()
      error.value = outcome.ok ? null : outcome.error
      return outcome
    } catch (problem) {
      error.value = errorText(problem)
      return { ok: false, error: error.value }
    } finally {
      busy.value = false
    }
  }

  /** Remembers the tray's corners for this camera (in pixels of a frame of `width` × `height`). */
  function saveTray(polygon: Point[], width: number, height: number): Promise<Outcome> {
    const name = camera.value?.name
    if (!name) return Promise.resolve({ ok: false, error: 'Start the camera first' })
    const rounded = polygon.map(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10] as Point)
    return request(() => getTableApi().setCameraCalibration(name, { polygon: rounded, width, height })).then((outcome) => {
      if (outcome.ok) foundTray.value = null
      return outcome
    })
  }

  function forgetTray(): Promise<Outcome> {
    const name = camera.value?.name
    if (!name) return Promise.resolve({ ok: false, error: 'Start the camera first' })
    return request(() => getTableApi().setCameraCalibration(name, null))
  }

  const setCapture = (on: boolean) => request(() => getTableApi().setCameraCapture(on))

  /** The frame size the camera's pictures have (from the latest reading, the tray found, or the calibration). */
  const frameSize = computed(() => {
    const from = tested.value?.reading ?? lastThrow.value?.reading ?? foundTray.value ?? calibration.value
    return from ? { width: from.width, height: from.height } : null
  })

  return {
    status,
    error,
    cameras,
    camera,
    stream,
    loadMs,
    readTimes,
    lastThrow,
    tested,
    foundTray,
    busy,
    view,
    calibration,
    capture,
    running,
    unavailable,
    frameSize,
    check,
    refreshCameras,
    start,
    stop,
    test,
    findTray,
    dismissFoundTray,
    saveTray,
    forgetTray,
    setCapture
  }
})
