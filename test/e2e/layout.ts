// Layout checks run inside the page: nothing wider than the viewport, no two pieces of content
// drawn over each other, nothing cut off, no label spilling out of its button, no field too
// narrow for its text.
import type { Page } from 'playwright-core'

export interface LayoutProblem {
  kind: 'wider' | 'overlap' | 'cut'
  what: string
}

/**
 * Looks at every visible leaf of content (text, buttons, inputs, dice) and reports problems. With
 * `panels`, also text that reaches out of the nearest box drawn around it (a background or a
 * border: a score row, a card), as a note under a name can out of a row too short for it.
 */
export function layoutProblems(page: Page, options: { panels?: boolean } = {}): Promise<LayoutProblem[]> {
  return page.evaluate(({ panels }) => {
    const problems: { kind: 'wider' | 'overlap' | 'cut'; what: string }[] = []
    const width = document.documentElement.clientWidth
    const name = (element: Element): string => {
      const id = element.getAttribute('data-testid')
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `${element.tagName.toLowerCase()}${id ? `[${id}]` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ')[0]}` : ''} "${text}"`
    }
    if (document.documentElement.scrollWidth > width + 1) {
      problems.push({ kind: 'wider', what: `page is ${document.documentElement.scrollWidth}px wide in a ${width}px viewport` })
    }
    const visible = (element: Element): boolean => {
      // Hidden, or see-through itself or through an ancestor (a control that fades in on demand).
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false
      const box = element.getBoundingClientRect()
      return box.width > 0 && box.height > 0
    }
    /** Content pieces: controls, dice and elements with text of their own. */
    const isLeaf = (element: Element): boolean => {
      if (element.closest('svg') && element.tagName.toLowerCase() !== 'svg') return false
      if (['button', 'input', 'select', 'textarea', 'svg', 'canvas', 'kbd'].includes(element.tagName.toLowerCase())) return true
      if (element.classList.contains('die')) return true
      if (element.closest('button, kbd, .die')) return false
      return Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '')
    }
    const leaves = Array.from(document.querySelectorAll('body *')).filter((element) => isLeaf(element) && visible(element))
    // Clipped by an ancestor (a scrolling log, an ellipsis): only the visible part counts.
    const clippedBox = (element: Element): DOMRect | null => {
      let box = element.getBoundingClientRect()
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent)
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
          const clip = parent.getBoundingClientRect()
          const left = Math.max(box.left, clip.left)
          const top = Math.max(box.top, clip.top)
          const right = Math.min(box.right, clip.right)
          const bottom = Math.min(box.bottom, clip.bottom)
          if (right <= left || bottom <= top) return null
          box = new DOMRect(left, top, right - left, bottom - top)
        }
      }
      return box
    }
    // Cut off by a box that hides what overflows it (not a scrolling one, not an ellipsis or a line clamp: those say so).
    const saysItIsCut = (element: Element, upTo: Element): boolean => {
      for (let node: Element | null = element; node && node !== upTo.parentElement; node = node.parentElement) {
        const style = getComputedStyle(node)
        if (style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none') return true
      }
      return false
    }
    for (const element of leaves) {
      const box = element.getBoundingClientRect()
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent)
        const hides = ['hidden', 'clip'].includes(style.overflowX) || ['hidden', 'clip'].includes(style.overflowY)
        if (!hides || parent === document.body || parent === document.documentElement) continue
        const clip = parent.getBoundingClientRect()
        const cut = box.right > clip.right + 1 || box.bottom > clip.bottom + 1 || box.left < clip.left - 1 || box.top < clip.top - 1
        if (cut && !saysItIsCut(element, parent)) problems.push({ kind: 'cut', what: `${name(element)} is cut by ${name(parent).slice(0, 40)}` })
        break
      }
    }
    // A label wider or taller than its own button or box spills out of it (or is cut by it).
    for (const element of leaves) {
      if (['input', 'select', 'textarea', 'svg', 'canvas'].includes(element.tagName.toLowerCase())) continue
      const range = document.createRange()
      range.selectNodeContents(element)
      const text = range.getBoundingClientRect()
      if (text.width === 0 || text.height === 0) continue
      const box = element.getBoundingClientRect()
      // Glyphs stand a little above and below a tight line-height: that is no spill.
      const slack = parseFloat(getComputedStyle(element).fontSize) / 4
      const spills = text.left < box.left - 1 || text.right > box.right + 1 || text.top < box.top - slack || text.bottom > box.bottom + slack
      if (spills && !saysItIsCut(element, element)) problems.push({ kind: 'cut', what: `${name(element)} spills out of its box` })
    }
    if (panels) {
      const drawn = (element: Element): boolean => {
        const style = getComputedStyle(element)
        const background = style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent'
        return background || style.backgroundImage !== 'none' || parseFloat(style.borderTopWidth) > 0 || parseFloat(style.borderBottomWidth) > 0
      }
      // Text squeezed to nothing (a name column with no width left) is no leaf above: it has no box.
      for (const element of Array.from(document.querySelectorAll('body *'))) {
        const own = Array.from(element.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '')
        if (!own || !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
        const box = element.getBoundingClientRect()
        if (box.width < 1 && getComputedStyle(element).display !== 'contents') problems.push({ kind: 'cut', what: `${name(element)} has no room: it is ${box.width.toFixed(1)}px wide` })
      }
      for (const element of leaves) {
        let panel = element.parentElement
        while (panel && panel !== document.body && !drawn(panel)) panel = panel.parentElement
        if (!panel || panel === document.body || getComputedStyle(panel).position === 'fixed') continue
        const box = element.getBoundingClientRect()
        const around = panel.getBoundingClientRect()
        const slack = parseFloat(getComputedStyle(element).fontSize) / 4
        // An ellipsis says a line is cut short; nothing says a line below the box is there.
        const across = (box.left < around.left - 1 || box.right > around.right + 1) && !saysItIsCut(element, element)
        if (across || box.top < around.top - slack || box.bottom > around.bottom + slack) problems.push({ kind: 'cut', what: `${name(element)} reaches out of ${name(panel).slice(0, 40)}` })
      }
    }
    // A field narrower than what it shows: its value (a name typed) or its placeholder is cut.
    const measure = document.createElement('canvas').getContext('2d')!
    for (const element of leaves) {
      if (!(element instanceof HTMLInputElement) || !['text', 'search', 'number', 'email', 'url', ''].includes(element.type)) continue
      const style = getComputedStyle(element)
      measure.font = style.font
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      for (const shown of [element.value, element.placeholder]) {
        const needed = measure.measureText(shown).width
        if (needed > room + 1) problems.push({ kind: 'cut', what: `${name(element)} is ${Math.round(room)}px wide for "${shown}" (${Math.round(needed)}px)` })
      }
    }
    const boxes = leaves.map((element) => ({ element, box: clippedBox(element) })).filter((entry) => entry.box !== null) as { element: Element; box: DOMRect }[]
    for (const { element, box } of boxes) {
      if (box.right > width + 1 || box.left < -1) problems.push({ kind: 'wider', what: `${name(element)} reaches x=${Math.round(box.left)}..${Math.round(box.right)}` })
    }
    // Text that wraps onto several lines has one box per line: compare those, not the box around them all.
    const lineBoxes = (element: Element, clip: DOMRect): DOMRect[] =>
      Array.from(element.getClientRects())
        .map((rect) => {
          const left = Math.max(rect.left, clip.left)
          const top = Math.max(rect.top, clip.top)
          const right = Math.min(rect.right, clip.right)
          const bottom = Math.min(rect.bottom, clip.bottom)
          return new DOMRect(left, top, right - left, bottom - top)
        })
        .filter((rect) => rect.width > 0 && rect.height > 0)
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]
        const b = boxes[j]
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue
        const overlapping = lineBoxes(a.element, a.box).some((x) =>
          lineBoxes(b.element, b.box).some((y) => Math.min(x.right, y.right) - Math.max(x.left, y.left) > 2 && Math.min(x.bottom, y.bottom) - Math.max(x.top, y.top) > 2)
        )
        if (overlapping) problems.push({ kind: 'overlap', what: `${name(a.element)} and ${name(b.element)}` })
      }
    }
    return problems
  }, options)
}

/**
 * Text on the TV smaller than its smallest size (`--tv-text-min`, styles/base.css): every visible
 * piece of text, the connection banner's too. The charts draw their text in a canvas at that size.
 */
export function textsSmallerThanTv(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const probe = document.createElement('span')
    probe.style.fontSize = 'var(--tv-text-min)'
    document.body.append(probe)
    const least = parseFloat(getComputedStyle(probe).fontSize)
    probe.remove()
    const small: string[] = []
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
      const text = Array.from(element.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim()
      if (text === '') continue
      const size = parseFloat(getComputedStyle(element).fontSize)
      if (size < least - 0.5) small.push(`"${text.slice(0, 40)}" is ${size.toFixed(1)}px, under ${least.toFixed(1)}px`)
    }
    return small
  })
}
