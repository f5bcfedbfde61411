import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { BluetoothKind } from '@shared/bluetooth/bluetooth-die'
import { hexToBytes } from '@shared/bluetooth/bluetooth-die'
import { getTableApi } from '../api'
import { bluetoothUnavailable, DICE_REQUEST, kindOf, openDie, toHex, type WebBluetooth, type WebBluetoothCharacteristic, type WebBluetoothDevice } from '../lib/webBluetooth'
import { useTableStore } from './table'

/** Waits between attempts to reach a die that dropped out: 1 s doubling to 30 s. */
const RETRY_MIN_MS = 1_000
const RETRY_MAX_MS = 30_000

export interface LinkedDie {
  link: string
  name: string
  kind: BluetoothKind
  state: 'connecting' | 'connected' | 'gone'
}

interface Link {
  device: WebBluetoothDevice
  kind: BluetoothKind
  write: WebBluetoothCharacteristic | null
  retryMs: number
  timer: ReturnType<typeof setTimeout> | null
}

/**
 * Bluetooth dice held by this screen (Web Bluetooth lives in the page): connects them, forwards
 * each connection, notification and loss to main (`reportBluetoothDie`), which decodes them, and
 * writes what main queues for them (`DevicesView.bluetooth.out`: greetings, blinks). A die that
 * drops out is tried again by itself until it answers.
 */
export const useBluetoothStore = defineStore('bluetooth', () => {
  const table = useTableStore()
  const nav = navigator as Navigator & { bluetooth?: WebBluetooth }
  /** Why Bluetooth cannot be used here (null: it can; undefined: not checked yet). */
  const unavailable = ref<string | null | undefined>(undefined)
  const error = ref<string | null>(null)
  const dice = ref<LinkedDie[]>([])
  const busy = ref(false)
  const links = new Map<string, Link>()
  const chooser = computed(() => table.state?.devices?.bluetooth?.chooser ?? null)
  let written = Math.max(0, ...(table.state?.devices?.bluetooth?.out ?? []).map((o) => o.seq))

  async function check(): Promise<void> {
    unavailable.value = await bluetoothUnavailable(nav, window.isSecureContext)
  }

  function setState(link: string, state: LinkedDie['state']): void {
    dice.value = dice.value.map((d) => (d.link === link ? { ...d, state } : d))
  }

  const report = (link: string, kind: BluetoothKind, name: string, event: 'connected' | 'data' | 'gone', data?: string) =>
    getTableApi().reportBluetoothDie({ link, kind, name, event, ...(data === undefined ? {} : { data }) })

  /** Opens the browser's (or the desktop app's) picker and connects the die chosen. */
  async function connect(): Promise<void> {
    error.value = null
    await check()
    if (unavailable.value) return
    busy.value = true
    try {
      const device = await nav.bluetooth!.requestDevice(DICE_REQUEST)
      await attach(device)
    } catch (failure) {
      const text = failure instanceof Error ? failure.message : String(failure)
      // Closing the picker is not an error worth a banner.
      if (!(failure instanceof Error && failure.name === 'NotFoundError' && /cancel/i.test(text))) error.value = `Bluetooth: ${text}`
    } finally {
      busy.value = false
    }
  }

  async function attach(device: WebBluetoothDevice): Promise<void> {
    if (links.has(device.id)) return open(device.id)
    const kind = kindOf(device)
    links.set(device.id, { device, kind, write: null, retryMs: RETRY_MIN_MS, timer: null })
    dice.value = [...dice.value, { link: device.id, name: device.name ?? device.id, kind, state: 'connecting' }]
    device.addEventListener('gattserverdisconnected', () => void lost(device.id))
    await open(device.id)
  }

  async function open(linkId: string): Promise<void> {
    const link = links.get(linkId)
    if (!link?.device.gatt) throw new Error('this die offers no GATT server')
    const name = link.device.name ?? linkId
    setState(linkId, 'connecting')
    const server = await link.device.gatt.connect()
    const { notify, write } = await openDie(server, link.kind)
    notify.addEventListener('characteristicvaluechanged', (event) => {
      const value = (event.target as WebBluetoothCharacteristic).value
      if (value) void report(linkId, link.kind, name, 'data', toHex(value))
    })
    await notify.startNotifications()
    link.write = write
    link.retryMs = RETRY_MIN_MS
    setState(linkId, 'connected')
    await report(linkId, link.kind, name, 'connected')
  }

  async function lost(linkId: string): Promise<void> {
    const link = links.get(linkId)
    if (!link) return
    link.write = null
    setState(linkId, 'gone')
    await report(linkId, link.kind, link.device.name ?? linkId, 'gone')
    retry(linkId)
  }

  function retry(linkId: string): void {
    const link = links.get(linkId)
    if (!link || link.timer) return
    link.timer = setTimeout(() => {
      link.timer = null
      open(linkId).catch(() => {
        link.retryMs = Math.min(link.retryMs * 2, RETRY_MAX_MS)
        retry(linkId)
      })
    }, link.retryMs)
  }

  /** Dice this page was allowed before (after a restart), where the browser lists them. */
  async function reconnectKnown(): Promise<void> {
    await check()
    if (unavailable.value || !nav.bluetooth?.getDevices) return
    for (const device of await nav.bluetooth.getDevices()) void attach(device).catch(() => retry(device.id))
  }

  // Writes main queued for dice this page holds (a greeting after connecting, a blink).
  watch(
    () => table.state?.devices?.bluetooth?.out ?? [],
    async (out) => {
      for (const item of out) {
        if (item.seq <= written) continue
        written = item.seq
        const link = links.get(item.link)
        const bytes = hexToBytes(item.hex)
        if (!link?.write || !bytes) continue
        try {
          await link.write.writeValue(bytes)
        } catch (failure) {
          error.value = `Bluetooth: could not write to ${link.device.name ?? item.link} (${failure instanceof Error ? failure.message : String(failure)})`
        }
      }
    }
  )

  /** The desktop app's picker: the die chosen, or null to cancel. */
  const choose = (id: string | null) => getTableApi().chooseBluetoothDevice(id)

  return { unavailable, error, dice, busy, chooser, check, connect, attach, reconnectKnown, choose }
})
