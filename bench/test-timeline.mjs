// Where a test run's time goes: a vitest reporter that prints, at the end of the run, the longest
// test files (when each started and ended, from the run's start) and how long the run had 0, 1,
// 2… files running (with 2 workers, time at 1 is a file's process starting and importing, or the
// run's tail), and per project the seconds its files spent setting up, importing and in tests. Figures, not a test: use it beside the default reporter,
//   npx vitest run --reporter=default --reporter=./bench/test-timeline.mjs
// and set TEST_TIMELINE_JSON=path to keep every file's times as JSON too.
import { writeFileSync } from 'node:fs'
import { relative } from 'node:path'

const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6)

export default class TestTimeline {
  files = new Map()
  started = 0

  onInit() {
    this.started = Date.now()
  }

  onTestModuleStart(module) {
    this.files.set(module.moduleId, { start: Date.now() - this.started })
  }

  onTestModuleEnd(module) {
    const file = this.files.get(module.moduleId) ?? { start: 0 }
    file.end = Date.now() - this.started
    file.project = module.project.name
    file.path = relative(process.cwd(), module.moduleId)
    // Inside the file's worker: setting it up, importing the file (and what it imports), its tests.
    const diagnostic = module.diagnostic()
    file.prepare = diagnostic.prepareDuration + diagnostic.environmentSetupDuration
    file.imports = diagnostic.collectDuration
    file.tests = diagnostic.duration
  }

  onTestRunEnd() {
    const wall = Date.now() - this.started
    const files = [...this.files.values()].filter((file) => file.end !== undefined)
    const longest = [...files].sort((a, b) => b.end - b.start - (a.end - a.start)).slice(0, 15)
    const lines = ['', `Test timeline: ${files.length} files in ${seconds(wall).trim()} s; the longest (start, end, seconds):`]
    for (const file of longest) lines.push(`${seconds(file.start)} ${seconds(file.end)} ${seconds(file.end - file.start)}  ${file.project.padEnd(11)} ${file.path}`)
    const changes = files.flatMap((file) => [[file.start, 1], [file.end, -1]]).sort((a, b) => a[0] - b[0])
    const atCount = new Map()
    let running = 0
    let last = 0
    for (const [time, change] of changes) {
      atCount.set(running, (atCount.get(running) ?? 0) + time - last)
      running += change
      last = time
    }
    const projects = new Map()
    for (const file of files) {
      const sums = projects.get(file.project) ?? { files: 0, prepare: 0, imports: 0, tests: 0 }
      sums.files++
      sums.prepare += file.prepare ?? 0
      sums.imports += file.imports ?? 0
      sums.tests += file.tests ?? 0
      projects.set(file.project, sums)
    }
    for (const [project, sums] of [...projects].sort()) {
      lines.push(`${project.padEnd(11)} ${String(sums.files).padStart(3)} files: setting up ${seconds(sums.prepare).trim()} s, importing ${seconds(sums.imports).trim()} s, tests ${seconds(sums.tests).trim()} s`)
    }
    lines.push(`Seconds with N files running: ${[...atCount].sort((a, b) => a[0] - b[0]).map(([count, ms]) => `${count}: ${seconds(ms).trim()}`).join(', ')}`)
    lines.push('')
    process.stdout.write(lines.join('\n'))
    if (process.env.TEST_TIMELINE_JSON) writeFileSync(process.env.TEST_TIMELINE_JSON, `${JSON.stringify({ wall, files }, null, 1)}\n`)
  }
}
