// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import ConnectionBanner from '@renderer/common/ConnectionBanner.vue'
import { ordinal, placeLabel } from '@renderer/lib/format'

describe('ConnectionBanner', () => {
  it('shows only while the connection is lost, in TV text over the TV', () => {
    expect(mount(ConnectionBanner, { props: { connected: true } }).find('[data-testid="reconnecting"]').exists()).toBe(false)
    const control = mount(ConnectionBanner, { props: { connected: false } }).find('[data-testid="reconnecting"]')
    expect(control.text()).toContain('reconnecting')
    expect(control.classes()).not.toContain('connection--tv')
    expect(mount(ConnectionBanner, { props: { connected: false, tv: true } }).find('[data-testid="reconnecting"]').classes()).toContain('connection--tv')
  })
})

describe('places', () => {
  it('read as ordinals, a shared one with "="', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th'])
    const standings = [
      { name: 'Ann', place: 1, shown: '9', winner: true },
      { name: 'Bob', place: 2, shown: '3', winner: false },
      { name: 'Cy', place: 2, shown: '3', winner: false },
      { name: 'Dee', place: 4, shown: '0', winner: false }
    ]
    expect(standings.map((standing) => placeLabel(standing, standings))).toEqual(['1st', '2nd =', '2nd =', '4th'])
  })
})
