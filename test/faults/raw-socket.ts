// A WebSocket client written by hand on a plain TCP socket, so that a test can do what a browser
// never does: send without ever reading what comes back.
import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'

/** One masked text frame (clients must mask), as RFC 6455 lays it out. */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8')
  const length = payload.length
  const header = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10)
  header[0] = 0x81
  if (length < 126) header[1] = 0x80 | length
  else if (length < 65536) {
    header[1] = 0x80 | 126
    header.writeUInt16BE(length, 2)
  } else {
    header[1] = 0x80 | 127
    header.writeBigUInt64BE(BigInt(length), 2)
  }
  const mask = randomBytes(4)
  for (let i = 0; i < length; i++) payload[i] ^= mask[i & 3]
  return Buffer.concat([header, mask, payload])
}

/**
 * Opens a WebSocket to `host:port/api` and, once the server has answered the handshake, stops
 * reading for good: whatever the server sends piles up in the kernel's buffers and then the server's.
 */
export function openUnreadSocket(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => {
      socket.write(
        `GET /api HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`
      )
    })
    let received = ''
    const onData = (chunk: Buffer): void => {
      received += chunk.toString('latin1')
      if (!received.includes('\r\n\r\n')) return
      socket.off('data', onData)
      socket.pause()
      if (received.startsWith('HTTP/1.1 101')) resolve(socket)
      else reject(new Error(`refused: ${received.split('\r\n')[0]}`))
    }
    socket.on('data', onData)
    socket.on('error', () => undefined)
    socket.once('error', reject)
  })
}

/**
 * Writes `count` requests as fast as the socket takes them, `batch` at a time, waiting for
 * `between` after each batch, and for the socket to drain when it is full; resolves with how many
 * were handed over before the host hung up.
 */
export async function floodRequests(
  socket: Socket,
  count: number,
  batch = 1000,
  between: () => Promise<unknown> = () => new Promise((resolve) => setImmediate(resolve)),
  method = 'getState'
): Promise<number> {
  let sent = 0
  while (sent < count) {
    if (socket.destroyed || socket.writableEnded) break
    let flowing = true
    for (let i = 0; i < batch && sent < count; i++, sent++) {
      flowing = socket.write(textFrame(JSON.stringify({ id: sent, method, args: [] })))
    }
    if (flowing) {
      await between()
      continue
    }
    const drained = await new Promise<boolean>((resolve) => {
      const onDrain = (): void => {
        socket.off('close', onClose)
        resolve(true)
      }
      const onClose = (): void => {
        socket.off('drain', onDrain)
        resolve(false)
      }
      socket.once('drain', onDrain)
      socket.once('close', onClose)
    })
    if (!drained) break
  }
  return sent
}
