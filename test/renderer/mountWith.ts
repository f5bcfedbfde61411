import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import type { Component } from 'vue'
import { createMemoryHistory, type Router } from 'vue-router'
import App from '@renderer/App.vue'
import { setTableApi } from '@renderer/api'
import { createAppRouter } from '@renderer/router'
import { useTableStore } from '@renderer/stores/table'
import type { FakeTableApi } from './fixtures'

/**
 * Mounts a screen with a fresh Pinia whose table store already mirrors the fake API's state, and
 * the app's router (in memory, at `/`) for the links it holds.
 */
export async function mountWith(component: Component, api: FakeTableApi, attachTo?: HTMLElement) {
  const pinia = createPinia()
  setActivePinia(pinia)
  setTableApi(api)
  await useTableStore().start()
  const router = createAppRouter(createMemoryHistory())
  const wrapper = mount(component, { global: { plugins: [pinia, router] }, attachTo })
  await flushPromises()
  return wrapper
}

/** Mounts the whole app at `path` (a page opened at that address) with a fresh Pinia and the fake API; its router to follow. */
export async function mountApp(api: FakeTableApi, path = '/'): Promise<{ wrapper: ReturnType<typeof mount>; router: Router }> {
  const pinia = createPinia()
  setActivePinia(pinia)
  setTableApi(api)
  const router = createAppRouter(createMemoryHistory())
  await router.push(path)
  const wrapper = mount(App, { global: { plugins: [pinia, router] } })
  await flushPromises()
  return { wrapper, router }
}
