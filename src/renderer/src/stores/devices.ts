import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Outcome, PortView } from '@shared/api'
import type { DeviceView } from '@shared/devices'
import { getTableApi } from '../api'
import { useTableStore } from './table'

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** How long a die is shown as blinking after Identify (main lights it for about this long). */
export const BLINK_MS = 5_000

/** A device that is (or should soon be) talking to the app. */
export function isLive(device: DeviceView): boolean {
  return device.state === 'connected' || device.state === 'stale'
}

/**
 * Smart dice and serial keypads: what `TableState.devices` says, the port list (read on request:
 * main only lists ports when asked), and the device requests with their pending and failed states.
 */
export const useDevicesStore = defineStore('devices', () => {
  const table = useTableStore()
  const canControl = computed(() => table.canControl)
  const view = computed(() => table.state?.devices ?? null)
  const devices = computed(() => view.value?.devices ?? [])
  const hasLiveDevice = computed(() => devices.value.some(isLive))
  /** Dice in the game on devices that are talking to the app (offline dice left out): what can make a throw. */
  const diceInGame = computed(() => devices.value.filter(isLive).flatMap((device) => device.dice.filter((die) => die.inGame && die.status !== 'offline')))
  /** Devices that need someone's attention (refused, reconnecting, stale). */
  const troubled = computed(() => devices.value.filter((device) => device.state === 'refused' || device.state === 'reconnecting' || device.state === 'stale'))

  /** The last port list read with `listPorts`; until then the one in the state. */
  const listedPorts = shallowRef<PortView[] | null>(null)
  const ports = computed<PortView[]>(() => listedPorts.value ?? view.value?.ports ?? [])
  const listing = ref(false)

  /** Requests on their way, by key (`connect:PATH`, `disconnect:ID`, `identify:ID/DIE`, `assign:ID/DIE`, `test-mode`). */
  const pending = ref<Set<string>>(new Set())
  /** Dice lit up by Identify, by `ID/DIE`, for about as long as they blink. */
  const blinking = ref<Set<string>>(new Set())
  /** The latest refusal or failure of a device request made here. */
  const error = ref<string | null>(null)

  function setKey(set: typeof pending, key: string, on: boolean): void {
    const next = new Set(set.value)
    if (on) next.add(key)
    else next.delete(key)
    set.value = next
  }

  const isPending = (key: string): boolean => pending.value.has(key)
  const isBlinking = (deviceId: string, dieId: string): boolean => blinking.value.has(`${deviceId}/${dieId}`)

  async function request(key: string, send: () => Promise<Outcome>): Promise<Outcome> {
    setKey(pending, key, true)
    let outcome: Outcome
    try {
      outcome = await send()
    } catch (failure) {
      outcome = { ok: false, error: errorText(failure) }
    } finally {
      setKey(pending, key, false)
    }
    error.value = outcome.ok ? null : outcome.error
    return outcome
  }

  async function refreshPorts(): Promise<void> {
    if (listing.value) return
    listing.value = true
    try {
      const listed = await getTableApi().listPorts()
      if (listed.ok) listedPorts.value = listed.ports
    } catch {
      // Keep the last list; the connection banner tells about a lost connection.
    } finally {
      listing.value = false
    }
  }

  async function connect(path: string): Promise<Outcome> {
    const trimmed = path.trim()
    if (trimmed === '') {
      error.value = 'Type a port path first (/dev/ttyACM0, COM3 or a simulator link)'
      return { ok: false, error: error.value }
    }
    const outcome = await request(`connect:${trimmed}`, () => getTableApi().connectDevice(trimmed))
    void refreshPorts()
    return outcome
  }

  async function disconnect(deviceId: string): Promise<Outcome> {
    const outcome = await request(`disconnect:${deviceId}`, () => getTableApi().disconnectDevice(deviceId))
    void refreshPorts()
    return outcome
  }

  async function identify(deviceId: string, dieId: string): Promise<Outcome> {
    const key = `${deviceId}/${dieId}`
    const outcome = await request(`identify:${key}`, () => getTableApi().identifyDie(deviceId, dieId))
    if (outcome.ok) {
      setKey(blinking, key, true)
      setTimeout(() => setKey(blinking, key, false), BLINK_MS)
    }
    return outcome
  }

  /** Puts a die in the game or takes it out. */
  const assign = (deviceId: string, dieId: string, inGame: boolean) =>
    request(`assign:${deviceId}/${dieId}`, () => getTableApi().assignDie(deviceId, dieId, inGame))

  const setTestMode = (on: boolean) => request('test-mode', () => getTableApi().setDeviceTestMode(on))

  function dismissError(): void {
    error.value = null
  }

  return {
    view,
    devices,
    ports,
    hasLiveDevice,
    diceInGame,
    troubled,
    canControl,
    listing,
    pending,
    blinking,
    error,
    isPending,
    isBlinking,
    refreshPorts,
    connect,
    disconnect,
    identify,
    assign,
    setTestMode,
    dismissError
  }
})
