// @vitest-environment happy-dom
// The camera on a screen (src/renderer/src/camera, stores/camera.ts) in happy-dom, the camera and
// its worker stood in for (setCameraAccess: a stand-in hands the store what a worker would say): each settled
// reading goes to main once, an empty tray does not; a taken throw's frames go to main in capture
// mode; the tray is kept under the camera's name; the Camera tab is for screens that enter dice;
// the Table shows the last camera throw.
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { CameraThrowView, CameraView } from '@shared/camera'
import type { FromCameraWorker, WorkerReading } from '@renderer/camera/camera-messages'
import { setTableApi } from '@renderer/api'
import { setCameraAccess, type CameraAccess } from '@renderer/camera/camera-runner'
import { useCameraStore } from '@renderer/stores/camera'
import { useTableStore } from '@renderer/stores/table'
import CameraThrowCard from '@renderer/camera/CameraThrowCard.vue'
import CameraScreen from '@renderer/camera/CameraScreen.vue'
import { FakeTableApi, foursiesGame, stateWith } from '../fixtures'
import { mountApp, mountWith } from '../mountWith'

/** The camera stood in for: what the store configured, how many test throws it asked for, and its reader's voice. */
const runner = {
  onMessage: null as ((message: FromCameraWorker) => void) | null,
  configured: [] as unknown[],
  tests: 0
}

const standInCamera: CameraAccess = {
  unavailable: () => null,
  list: async () => [{ deviceId: 'cam-1', label: 'Tray camera' }],
  open(onMessage) {
    runner.onMessage = onMessage
    return {
      start: async () => ({ name: 'Tray camera', deviceId: 'cam-1', stream: {} as MediaStream }),
      stop() {},
      configure(tray, capture) {
        runner.configured.push({ tray, capture })
      },
      async test() {
        runner.tests++
      },
      async findTray() {}
    }
  }
}

beforeEach(() => setCameraAccess(standInCamera))
afterEach(() => setCameraAccess(null))

function cameraView(overrides: Partial<CameraView> = {}): CameraView {
  return { calibrations: {}, capture: false, captureFolder: '/data/captures', lastThrow: null, ...overrides }
}

const READING: WorkerReading = {
  width: 1280,
  height: 720,
  tray: null,
  dice: [
    { value: 4, confidence: 0.97, box: [100, 100, 60, 60], thumbnail: 'data:image/jpeg;base64,AAAA' },
    { value: 2, confidence: 1.0000001, box: [300.123, 100, 60, 60] }
  ]
}

function worker(message: FromCameraWorker): void {
  runner.onMessage!(message)
}

describe('the camera store', () => {
  let api: FakeTableApi

  beforeEach(async () => {
    runner.configured = []
    api = new FakeTableApi(stateWith(foursiesGame(), { camera: cameraView() }))
    api.cameraThrow.mockResolvedValue({ ok: true, taken: true, text: 'Read by the camera: 4 2' })
    setActivePinia(createPinia())
    setTableApi(api)
    await useTableStore().start()
  })

  it('sends each settled reading to main once, with the camera’s name; an empty tray is no throw', async () => {
    const camera = useCameraStore()
    await camera.start()
    worker({ type: 'ready', loadMs: 150 })
    expect(camera.status).toBe('watching')
    expect(runner.configured.at(-1)).toEqual({ tray: 'auto', capture: false })
    worker({ type: 'throw', reading: { ...READING, dice: [] }, settledAt: 1, readAt: 2, readMs: [80, 81, 82], frames: null })
    worker({ type: 'throw', reading: READING, settledAt: 1_000, readAt: 1_250, readMs: [80, 90, 100], frames: null })
    await flushPromises()
    expect(api.cameraThrow).toHaveBeenCalledTimes(1)
    const sent = api.cameraThrow.mock.calls[0][0]
    expect(sent).toMatchObject({ camera: 'Tray camera', width: 1280, height: 720, tray: null })
    // Confidences within 0..1 and boxes rounded, as the screen API takes them.
    expect(sent.dice.map((die) => [die.value, die.confidence, die.box[0]])).toEqual([
      [4, 0.97, 100],
      [2, 1, 300.1]
    ])
    expect(camera.lastThrow).toMatchObject({ taken: true, answer: 'Read by the camera: 4 2' })
    expect(camera.readTimes).toEqual([80, 81, 82, 80, 90, 100])
  })

  it('keeps the tray under the camera’s name, and reads with it', async () => {
    const camera = useCameraStore()
    await camera.start()
    await camera.saveTray([[1, 2], [3, 4], [5.55, 6], [7, 8]], 1280, 720)
    expect(api.setCameraCalibration).toHaveBeenCalledWith('Tray camera', { polygon: [[1, 2], [3, 4], [5.6, 6], [7, 8]], width: 1280, height: 720 })
    const tray = { polygon: [[1, 2], [3, 4], [5.6, 6], [7, 8]] as Array<[number, number]>, width: 1280, height: 720 }
    useTableStore().receive(stateWith(foursiesGame(), { version: 3, camera: cameraView({ calibrations: { 'Tray camera': tray } }) }))
    await flushPromises()
    expect(runner.configured.at(-1)).toEqual({ tray, capture: false })
  })

  it('capture mode: the frames of a throw go to main once main says it took it', async () => {
    const camera = useCameraStore()
    await camera.start()
    useTableStore().receive(stateWith(foursiesGame(), { version: 3, camera: cameraView({ capture: true }) }))
    await flushPromises()
    expect(runner.configured.at(-1)).toEqual({ tray: 'auto', capture: true })
    const frame = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' })
    worker({ type: 'throw', reading: READING, settledAt: 1, readAt: 2, readMs: [1], frames: [frame, frame] })
    await flushPromises()
    const id = api.cameraThrow.mock.calls[0][0].id
    expect(api.saveCameraCapture).not.toHaveBeenCalled()
    const taken: CameraThrowView = { id, camera: 'Tray camera', dice: [], outcome: 'taken', text: 'Read by the camera: 4 2', confirmed: [4, 2], by: 'camera', at: 5 }
    useTableStore().receive(stateWith(foursiesGame(), { version: 4, camera: cameraView({ capture: true, lastThrow: taken }) }))
    await vi.waitFor(() => expect(api.saveCameraCapture).toHaveBeenCalledWith(id, ['/9j/2Q==', '/9j/2Q==']))
    useTableStore().receive(stateWith(foursiesGame(), { version: 5, camera: cameraView({ capture: true, lastThrow: { ...taken, at: 6 } }) }))
    await flushPromises()
    expect(api.saveCameraCapture).toHaveBeenCalledTimes(1)
  })
})

describe('the camera on the screens', () => {
  it('the Camera tab is there for a screen that enters dice, not for a viewer', async () => {
    const app = await mountApp(new FakeTableApi(stateWith(foursiesGame(), { camera: cameraView() })), '/camera')
    expect(app.wrapper.find('[data-testid="camera-screen"]').exists()).toBe(true)
    expect(app.wrapper.find('[aria-selected="true"]').attributes('data-testid')).toBe('tab-camera')
    app.wrapper.unmount()
    const viewer = await mountApp(new FakeTableApi(stateWith(foursiesGame(), { canControl: false, camera: null })), '/camera')
    expect(viewer.router.currentRoute.value.fullPath).toBe('/table')
    expect(viewer.wrapper.find('[data-testid="tab-camera"]').exists()).toBe(false)
  })

  it('capture mode is switched on the host only', async () => {
    const host = await mountWith(CameraScreen, new FakeTableApi(stateWith(foursiesGame(), { camera: cameraView() })))
    expect(host.find('[data-testid="camera-capture"]').exists()).toBe(true)
    host.unmount()
    const phone = await mountWith(CameraScreen, new FakeTableApi(stateWith(foursiesGame(), { trust: 'paired', camera: cameraView({ captureFolder: null }) })))
    expect(phone.find('[data-testid="camera-capture"]').exists()).toBe(false)
  })

  it('the Table shows the last camera throw: each die’s picture and value, the unsure marked, and what the table said', async () => {
    const view: CameraThrowView = {
      id: 't1',
      camera: 'Tray camera',
      dice: [
        { value: 4, confidence: 0.95, box: [0, 0, 10, 10], thumbnail: 'data:image/jpeg;base64,AAAA' },
        { value: 2, confidence: 0.4, box: [20, 0, 10, 10] }
      ],
      outcome: 'asked',
      text: 'The camera is not sure of the 2: Enter takes 4 2, or type the throw',
      confirmed: null,
      by: null,
      at: 1
    }
    const card = mount(CameraThrowCard, { props: { view } })
    expect(card.findAll('[data-testid="camera-throw-die"]').map((die) => [die.attributes('data-value'), die.classes('is-unsure')])).toEqual([
      ['4', false],
      ['2', true]
    ])
    expect(card.find('img').attributes('src')).toBe('data:image/jpeg;base64,AAAA')
    expect(card.find('[data-testid="camera-throw-text"]').text()).toBe(view.text)
    expect(card.attributes('data-outcome')).toBe('asked')
  })
})
