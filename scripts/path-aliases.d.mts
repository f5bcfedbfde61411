export function pathAliases(): { find: RegExp; replacement: string }[]
