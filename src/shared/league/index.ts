export * from './documents'
export * from './standings'
export * from './view'
