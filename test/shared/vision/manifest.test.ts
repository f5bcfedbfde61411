import { describe, expect, it } from 'vitest'
import { capturedFileName, capturedManifestLine } from '@shared/vision/capture'
import { parseManifest } from '@shared/vision/manifest'

describe('manifest.jsonl', () => {
  it('reads lines of file and values, with what a rendered set adds', () => {
    const parsed = parseManifest('{"file":"a.jpg","values":[3,null]}\n\n{"file":"b.jpg","values":[],"condition":"tilted","tray":[[0,0],[9,0],[9,9]]}\n')
    expect(parsed).toEqual({
      ok: true,
      lines: [
        { file: 'a.jpg', values: [3, null] },
        { file: 'b.jpg', values: [], condition: 'tilted', tray: [[0, 0], [9, 0], [9, 9]] }
      ]
    })
  })

  it('refuses a bad line with its number and what is wrong', () => {
    expect(parseManifest('{"file":"a.jpg","values":[3]}\n{"file":"b.jpg","values":[7]}')).toMatchObject({ ok: false, line: 2, error: expect.stringContaining('values.0') })
    expect(parseManifest('{"file":"a.jpg"')).toEqual({ ok: false, line: 1, error: 'not JSON' })
    expect(parseManifest('{"values":[1]}')).toMatchObject({ ok: false, line: 1 })
    expect(parseManifest('{"file":"a.jpg","values":[1,2],"boxes":[[0,0,1,1]]}')).toEqual({ ok: false, line: 1, error: 'boxes: one box for each value is needed' })
  })

  it('writes a captured throw as lines the reader of manifests reads back', () => {
    const captured = { values: [4, 1, null], time: new Date('2026-05-01T20:15:07.250Z'), camera: 'tray cam', tray: [[1, 2], [3, 4], [5, 6], [7, 8]] as Array<[number, number]> }
    expect(capturedFileName(captured, 0)).toBe('throw-2026-05-01T20-15-07-250Z-1.jpg')
    const parsed = parseManifest(`${capturedManifestLine(captured, 0)}\n${capturedManifestLine(captured, 1)}\n`)
    expect(parsed).toEqual({
      ok: true,
      lines: [
        { file: 'throw-2026-05-01T20-15-07-250Z-1.jpg', values: [4, 1, null], time: '2026-05-01T20:15:07.250Z', camera: 'tray cam', tray: captured.tray },
        { file: 'throw-2026-05-01T20-15-07-250Z-2.jpg', values: [4, 1, null], time: '2026-05-01T20:15:07.250Z', camera: 'tray cam', tray: captured.tray }
      ]
    })
  })
})
