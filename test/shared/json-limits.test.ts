import { describe, expect, it } from 'vitest'
import { describeValue, jsonNesting } from '@shared/json-limits'

describe('json limits', () => {
  it('measures nesting without recursion, ignoring brackets inside strings', () => {
    expect(jsonNesting('{}', 10)).toBe(1)
    expect(jsonNesting('[[1,[2]],{"a":{"b":[]}}]', 10)).toBe(4)
    expect(jsonNesting('"[[[["', 10)).toBe(0)
    expect(jsonNesting('{"a\\"[[":[1]}', 10)).toBe(2)
    expect(jsonNesting('{"a\\\\":[1]}', 10)).toBe(2)
    expect(jsonNesting('["\\\\\\"]"]', 10)).toBe(1)
    expect(jsonNesting('"unterminated [[[', 10)).toBe(0)
  })

  it('stops as soon as the limit is passed, on text of any depth or size', () => {
    expect(jsonNesting('['.repeat(10_000_000), 32)).toBe(33)
    expect(jsonNesting(`["${'\\n'.repeat(5_000_000)}",[[1]]]`, 32)).toBe(3)
  })

  it('describes a value by its top level only', () => {
    let deep: unknown = 1
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(describeValue(deep)).toBe('a list of 1')
    expect(describeValue({ a: deep })).toBe('an object')
    expect(describeValue(7)).toBe('7')
    expect(describeValue('x'.repeat(100))).toBe(`"${'x'.repeat(20)}..."`)
    expect(describeValue(null)).toBe('null')
  })
})
