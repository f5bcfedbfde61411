export * from './facts'
export * from './aggregate'
