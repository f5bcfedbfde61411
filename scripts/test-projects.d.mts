export const UNIT_FOLDERS: string[]
export const E2E_FOLDERS: string[]
export const SLOW_FILES: string[]
export const LONGEST_FILES: string[]
