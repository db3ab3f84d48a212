export {
  createFileStore,
  type FileStore,
  type FileStoreOptions,
} from './create-file-store.js'
