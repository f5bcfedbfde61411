// These tests run in happy-dom and are also type-checked by tsconfig.node.json, which has no DOM
// library and knows no .vue files: give them both here.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}
