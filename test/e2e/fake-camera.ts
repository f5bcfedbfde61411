// A camera for Chromium that shows what the test puts in front of it: getUserMedia answers a
// canvas's stream (captureStream), the canvas showing one photo at a time, painted again each
// 30th of a second as a camera sends frames. `show(name)` puts a photo in front of it (the dice
// settle at once, as a throw seen after its roll); `shake()` shows moving noise (a hand, dice
// rolling). Installed with page.addInitScript(installFakeCamera, photos) before the page loads.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { repoPath } from '@test/kit/root'

export const CAMERA_THROWS = repoPath('test', 'fixtures', 'camera-throws')

/** The photos of a folder as data: URLs, by name without `.jpg`. */
export function cameraPhotos(names: string[], folder = CAMERA_THROWS): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `data:image/jpeg;base64,${readFileSync(join(folder, `${name}.jpg`)).toString('base64')}`]))
}

export interface FakeCameraControl {
  /** Puts a photo in front of the camera; resolves (ms since 1970) once it is painted. */
  show(name: string): Promise<number>
  /** Moving noise in front of the camera for a few frames; resolves once it was painted. */
  shake(): Promise<void>
  /** Cameras asked for so far (getUserMedia calls). */
  opened: number
}

/** Runs in the page, before its own scripts (so not closed over anything of the test's). */
export function installFakeCamera(photos: Record<string, string>): void {
  const canvas = document.createElement('canvas')
  canvas.width = 1280
  canvas.height = 720
  const context = canvas.getContext('2d')!
  let shown: HTMLImageElement | null = null
  let noise = 0
  const images = new Map<string, Promise<HTMLImageElement>>()
  const load = (name: string): Promise<HTMLImageElement> => {
    let image = images.get(name)
    if (!image) {
      image = new Promise((resolve, reject) => {
        const element = new Image()
        element.onload = () => resolve(element)
        element.onerror = () => reject(new Error(`no photo ${name}`))
        element.src = photos[name]
      })
      images.set(name, image)
    }
    return image
  }
  const paint = (): void => {
    if (noise > 0) {
      noise--
      context.fillStyle = `hsl(${Math.floor(Math.random() * 360)} 60% 40%)`
      context.fillRect(0, 0, canvas.width, canvas.height)
      for (let i = 0; i < 40; i++) {
        context.fillStyle = `hsl(${Math.floor(Math.random() * 360)} 80% 60%)`
        context.fillRect(Math.random() * canvas.width, Math.random() * canvas.height, 120, 120)
      }
      return
    }
    if (shown) context.drawImage(shown, 0, 0, canvas.width, canvas.height)
    else {
      context.fillStyle = '#222'
      context.fillRect(0, 0, canvas.width, canvas.height)
    }
  }
  paint()
  setInterval(paint, 33)
  let stream: MediaStream | null = null
  const control: FakeCameraControl = {
    opened: 0,
    async show(name) {
      shown = await load(name)
      noise = 0
      paint()
      return performance.timeOrigin + performance.now()
    },
    async shake() {
      noise = 6
      await new Promise<void>((resolve) => {
        const wait = (): void => (noise === 0 ? resolve() : void setTimeout(wait, 10))
        wait()
      })
    }
  }
  ;(window as unknown as { __camera: FakeCameraControl }).__camera = control
  const devices = navigator.mediaDevices
  devices.getUserMedia = async () => {
    control.opened++
    stream ??= canvas.captureStream(30)
    const given = stream.clone()
    // A canvas's track has a made-up label; a camera's says what it is.
    for (const track of given.getVideoTracks()) Object.defineProperty(track, 'label', { value: 'Tray camera (test)' })
    return given
  }
  devices.enumerateDevices = async () => [{ kind: 'videoinput', deviceId: 'tray-camera', groupId: 'test', label: 'Tray camera (test)', toJSON: () => ({}) } as MediaDeviceInfo]
}

export function showPhoto(page: Page, name: string): Promise<number> {
  return page.evaluate((photo) => (window as unknown as { __camera: FakeCameraControl }).__camera.show(photo), name)
}

/** A throw as the camera sees it: the scene moves, then the dice lie still as in the photo. */
export async function throwDice(page: Page, name: string): Promise<number> {
  await page.evaluate(() => (window as unknown as { __camera: FakeCameraControl }).__camera.shake())
  return showPhoto(page, name)
}
