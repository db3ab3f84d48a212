// Copies the files the build serves as they are (the OpenAPI document) into dist/.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'

mkdirSync('dist', { recursive: true })
if (existsSync('src/core/openapi.json'))
  copyFileSync('src/core/openapi.json', 'dist/openapi.json')
