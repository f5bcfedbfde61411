// Importing a legal 13.8 MB record (the size the outside test campaign used), then exporting it
// and opening its replay, while another screen keeps asking for the state: that screen keeps being answered during both.
// Prints figures.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { serveTable, type TestTable } from '@test/kit/table'
import { longRecord } from '@test/faults/long-record'
import { ScreenClient } from '@test/kit/screen-client'

const tables: TestTable[] = []
afterEach(async () => {
  while (tables.length) await tables.pop()!.stop()
})

/**
 * Asks `watcher` for the state again and again until `work` ends: how many times it was answered
 * meanwhile (the work runs in slices, and each answer comes between two of them), and how long each
 * answer took (a figure printed, not checked).
 */
async function answeredWhile<T>(watcher: ScreenClient, work: Promise<T>): Promise<{ result: T; latencies: number[] }> {
  let done = false
  const finished = work.then((result) => {
    done = true
    return result
  })
  const latencies: number[] = []
  while (!done) {
    const asked = performance.now()
    await watcher.call('getState')
    if (!done) latencies.push(performance.now() - asked)
  }
  return { result: await finished, latencies }
}

const median = (values: number[]): string => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]?.toFixed(0) ?? '-'

describe('a big import', () => {
  it('keeps every screen answered while a 13.8 MB record is imported, exported and opened for a replay', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dice-referee-import-'))
    const rendererDir = join(dataDir, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>')
    const session = await serveTable(rendererDir, { dataDir })
    const server = session.table.server!
    tables.push(session)
    const { text, lines } = longRecord(13.8e6)
    const url = `ws://127.0.0.1:${server.port}/api`
    const importer = await ScreenClient.open(url, { maxPayload: 64 * 1024 * 1024 })
    const watcher = await ScreenClient.open(url)

    const heapBefore = process.memoryUsage().heapUsed
    const started = performance.now()
    const { result: imported, latencies } = await answeredWhile(watcher, importer.call('importRecord', text))
    const took = performance.now() - started
    expect(imported).toEqual({ ok: true })
    expect(session.snapshot(true).current?.moveCount).toBe(lines - 1)
    const longest = Math.max(...latencies)
    const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20
    process.stdout.write(
      `import of ${(text.length / 1e6).toFixed(1)} MB (${lines} lines): ${(took / 1000).toFixed(2)} s; another screen was answered ` +
        `${latencies.length} times meanwhile, the slowest answer took ${longest.toFixed(0)} ms ` +
        `(median ${median(latencies)} ms); heap +${heapGrowth.toFixed(0)} MB\n`
    )
    // The screens were not frozen for the import: they were answered all along it.
    expect(latencies.length).toBeGreaterThan(10)

    const exportStarted = performance.now()
    const exported = await answeredWhile(watcher, importer.call('exportRecord'))
    const exportTook = performance.now() - exportStarted
    if (!exported.result.ok) throw new Error(exported.result.error)
    const record = exported.result.record
    expect(record.split('\n').length - 1).toBe(lines)
    expect(record.split('\n', 1)[0]).toBe(text.split('\n', 1)[0])
    process.stdout.write(
      `export of the same game: ${(exportTook / 1000).toFixed(2)} s; another screen was answered ${exported.latencies.length} times meanwhile, ` +
        `the slowest answer took ${Math.max(...exported.latencies).toFixed(0)} ms (median ${median(exported.latencies)} ms)\n`
    )
    // In one piece it was answered once, after the whole export: more than twice means in slices.
    expect(exported.latencies.length).toBeGreaterThan(2)

    // Its replay is opened in slices too, and its steps are asked for one at a time: the answer
    // holds the record and the number of steps, not the scores after each of the 328,844 moves.
    const openStarted = performance.now()
    const opening = await answeredWhile(watcher, importer.call('openHistory', 'current'))
    const openTook = performance.now() - openStarted
    const opened = opening.result
    if (!opened.ok) throw new Error(opened.error)
    expect(opened.game.stepCount).toBe(lines - 1)
    expect(opened.game.record.length).toBe(record.length)
    const stepTimes: number[] = []
    for (const index of [0, 1, 255, 256, 257, Math.floor(lines / 2), lines - 2]) {
      const asked = performance.now()
      const answer = await importer.call('historyStep', opened.game.replay, index)
      stepTimes.push(performance.now() - asked)
      expect(answer).toMatchObject({ ok: true, step: { line: index + 2 } })
    }
    expect(await importer.call('historyStep', opened.game.replay, lines - 1)).toMatchObject({ ok: false })
    process.stdout.write(
      `its replay opened in ${(openTook / 1000).toFixed(2)} s; another screen was answered ${opening.latencies.length} times meanwhile, ` +
        `the slowest answer took ${Math.max(...opening.latencies).toFixed(0)} ms (median ${median(opening.latencies)} ms); ` +
        `a step took ${Math.min(...stepTimes).toFixed(1)}–${Math.max(...stepTimes).toFixed(1)} ms\n`
    )
    expect(opening.latencies.length).toBeGreaterThan(2)
    importer.close()
    watcher.close()
  }, 120_000)
})
