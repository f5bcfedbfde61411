import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Component } from 'vue'
import { setTableApi } from '../../src/renderer/src/api'
import { useTableStore } from '../../src/renderer/src/stores/table'
import type { FakeTableApi } from './fixtures'

/** Mounts a screen with a fresh Pinia whose table store already mirrors the fake API's state. */
export async function mountWith(component: Component, api: FakeTableApi, attachTo?: HTMLElement) {
  const pinia = createPinia()
  setActivePinia(pinia)
  setTableApi(api)
  await useTableStore().start()
  const wrapper = mount(component, { global: { plugins: [pinia] }, attachTo })
  await flushPromises()
  return wrapper
}
