import type { ESLint } from 'eslint'

/** Each room of src (a folder, or one file) and the rooms it may import from. */
export declare const ROOMS: Record<string, string[]>
/** The room of a repository path (`src/core/api/api.ts`): the longest room that holds it. */
export declare function roomOf(path: string): string | undefined
declare const plugin: ESLint.Plugin
export default plugin
