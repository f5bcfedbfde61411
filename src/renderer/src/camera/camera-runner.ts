// A camera on this screen: the browser's camera (getUserMedia: a secure page only), a video
// element that plays it, and the reader's Web Worker (camera.worker.ts) it feeds. The page's own
// work is small: it takes the video's next new frame as an ImageBitmap (the browser makes it off
// the main thread) and hands it over, keeping the worker one frame ahead (the frames that come
// while it reads are dropped); reading is the worker's.
import type { TrayCalibration } from '@shared/vision/types'
import type { FromCameraWorker, ToCameraWorker } from './camera-messages'

/** Frames wider than this are scaled down for the reader (it is made for 1280×720). */
const READ_WIDTH = 1280
/** Frames in the worker at once: the one it reads and the next, waiting. */
const FRAMES_AHEAD = 2

/** The size of the frames the reader gets from a video of this size. */
export function readSize(width: number, height: number): { width: number; height: number } {
  const scale = width > READ_WIDTH ? READ_WIDTH / width : 1
  return { width: Math.round(width * scale), height: Math.round(height * scale) }
}

export interface CameraChoice {
  deviceId: string
  label: string
}

export interface StartedCamera {
  /** The camera's name, as its calibration is kept: its label, or the browser's id for it. */
  name: string
  deviceId: string
  stream: MediaStream
}

type VideoWithFrames = HTMLVideoElement & { requestVideoFrameCallback?: (callback: () => void) => number }

/** Why this page cannot use a camera, or null when it can. */
export function cameraUnavailable(): string | null {
  if (!globalThis.isSecureContext) return 'A camera needs a secure page: open this table at its https:// address (npm run table -- --https), or on the computer that runs it'
  if (!navigator.mediaDevices?.getUserMedia) return 'This browser gives pages no camera'
  return null
}

/** The cameras the browser lists (their labels once the page may use a camera). */
export async function listCameras(): Promise<CameraChoice[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return []
  const devices = await navigator.mediaDevices.enumerateDevices()
  return devices.filter((device) => device.kind === 'videoinput').map((device, index) => ({ deviceId: device.deviceId, label: device.label || `Camera ${index + 1}` }))
}

/** What the camera store needs of a camera: the browser's (below), or a stand-in in tests. */
export interface CameraAccess {
  /** Why this page cannot use a camera, or null when it can. */
  unavailable(): string | null
  /** The cameras there are to choose from. */
  list(): Promise<CameraChoice[]>
  /** A camera and its reader, telling `onMessage` what the reader says. */
  open(onMessage: (message: FromCameraWorker) => void): CameraSession
}

/** One camera being read: started, configured with the tray, asked for a test throw or the tray. */
export interface CameraSession {
  start(deviceId: string | null): Promise<StartedCamera>
  stop(): void
  configure(tray: TrayCalibration | 'auto', capture: boolean): void
  test(): Promise<void>
  findTray(): Promise<void>
}

const browserCameraAccess: CameraAccess = {
  unavailable: cameraUnavailable,
  list: listCameras,
  open: (onMessage) => new CameraRunner(onMessage)
}

let access: CameraAccess = browserCameraAccess

/** The camera this page uses: the browser's unless a test stood one in (null: the browser's again). */
export function cameraAccess(): CameraAccess {
  return access
}

export function setCameraAccess(standIn: CameraAccess | null): void {
  access = standIn ?? browserCameraAccess
}

export class CameraRunner implements CameraSession {
  private worker: Worker | null = null
  private video: VideoWithFrames | null = null
  private stream: MediaStream | null = null
  private stopped = false
  private waitingForFrame = false
  /** Frames handed to the worker that it has not answered yet (FRAMES_AHEAD at most). */
  private framesInWorker = 0

  constructor(private readonly onMessage: (message: FromCameraWorker) => void) {}

  async start(deviceId: string | null): Promise<StartedCamera> {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { ...(deviceId ? { deviceId: { exact: deviceId } } : {}), width: { ideal: 1280 }, height: { ideal: 720 } }
    })
    this.stream = stream
    const track = stream.getVideoTracks()[0]
    const video = document.createElement('video') as VideoWithFrames
    video.muted = true
    video.playsInline = true
    video.srcObject = stream
    // In the page (a pixel, unseen): browsers may hold back the frames of a video outside it.
    video.setAttribute('aria-hidden', 'true')
    video.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;opacity:0;pointer-events:none'
    document.body.append(video)
    this.video = video
    await video.play()
    this.worker = new Worker(new URL('./camera.worker.ts', import.meta.url), { type: 'module' })
    this.worker.onmessage = (event: MessageEvent<FromCameraWorker>) => this.received(event.data)
    this.worker.onerror = (event) => this.onMessage({ type: 'failed', error: event.message || 'The dice reader stopped' })
    const settings = track.getSettings()
    const name = track.label || settings.deviceId || deviceId || 'Camera'
    return { name, deviceId: settings.deviceId ?? deviceId ?? '', stream }
  }

  stop(): void {
    this.stopped = true
    this.worker?.terminate()
    this.worker = null
    for (const track of this.stream?.getTracks() ?? []) track.stop()
    this.stream = null
    if (this.video) {
      this.video.srcObject = null
      this.video.remove()
    }
    this.video = null
  }

  configure(tray: TrayCalibration | 'auto', capture: boolean): void {
    this.send({ type: 'configure', tray, capture })
  }

  /** Reads the picture as it is now (the calibration's test throw). */
  async test(): Promise<void> {
    const bitmap = await this.grab()
    if (bitmap) this.send({ type: 'test', bitmap }, [bitmap])
  }

  async findTray(): Promise<void> {
    const bitmap = await this.grab()
    if (bitmap) this.send({ type: 'find-tray', bitmap }, [bitmap])
  }

  private send(message: ToCameraWorker, transfer: Transferable[] = []): void {
    this.worker?.postMessage(message, transfer)
  }

  private received(message: FromCameraWorker): void {
    if (this.stopped) return
    if (message.type === 'next') this.framesInWorker = Math.max(0, this.framesInWorker - 1)
    if (message.type === 'ready' || message.type === 'next') this.feed()
    if (message.type !== 'next') this.onMessage(message)
  }

  /**
   * Hands the worker the next new frame of the video, and then the one after it to wait while the
   * worker reads the first: a throw's still frames are read back to back, with no wait for the
   * camera between them (up to a frame interval and the bitmap's making, each).
   */
  private feed(): void {
    const video = this.video
    if (!video || this.waitingForFrame || this.framesInWorker >= FRAMES_AHEAD) return
    this.waitingForFrame = true
    const grabNext = (): void => {
      this.waitingForFrame = false
      void this.grab().then((bitmap) => {
        // No picture yet (the video has not started): the next frame.
        if (!bitmap) return this.stopped ? undefined : this.feed()
        this.framesInWorker++
        this.send({ type: 'frame', bitmap, time: performance.timeOrigin + performance.now() }, [bitmap])
        this.feed()
      })
    }
    // A new frame of the video, not the one read last (a browser without the callback: the next animation frame).
    if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(grabNext)
    else requestAnimationFrame(grabNext)
  }

  private async grab(): Promise<ImageBitmap | null> {
    const video = this.video
    if (!video || this.stopped || video.videoWidth === 0) return null
    const size = readSize(video.videoWidth, video.videoHeight)
    try {
      return await createImageBitmap(video, size.width === video.videoWidth ? {} : { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: 'medium' })
    } catch {
      // The video has no frame to give (it is starting or stopping).
      return null
    }
  }
}
