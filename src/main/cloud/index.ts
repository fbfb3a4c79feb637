/** What the rest of main uses of the cloud client. */
export { createCloudClient, parseBaseUrl, DEFAULT_LIST_PAGE_SIZE } from './client'
export { CloudError, isCloudError } from './errors'
export type { CloudClient, CloudClientOptions } from './types'
