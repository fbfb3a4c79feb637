/**
 * What a notebook window shows while the instance's notebook server has not answered (it is
 * starting, slow, or hangs in the TLS handshake), instead of a blank window. Main loads it first,
 * as a data: URL, so it is already there when the window is shown and the notebook replaces it
 * as soon as its page arrives; a load that fails replaces it with load-failure-page.ts.
 */
import { escapeHtml, localPage } from './html'

export function openingPage(instanceName: string): string {
  const name = escapeHtml(instanceName)
  return localPage(
    `Opening the notebook of ${instanceName}…`,
    `<h1>Opening the notebook of ${name}…</h1>` +
      '<p>Waiting for the notebook server on the instance to answer. The notebook appears here as soon as it does.</p>' +
      '<p>If nothing changes for a minute or two, the instance may still be starting or its notebook server may be stuck: check its status in Cloud Tray, then close this window and open the notebook again.</p>'
  )
}
