/**
 * What a notebook window shows when its page could not load, in the user's words, instead of a
 * blank window. Chromium's net error names (ERR_CERT_…, ERR_CONNECTION_REFUSED) are what
 * Electron's loadURL rejects with.
 */
import { escapeHtml, localPage } from './html'

export function loadFailureMessage(errorCode: string | undefined): string {
  const code = errorCode ?? ''
  if (code.startsWith('ERR_CERT_') || code === 'ERR_SSL_PROTOCOL_ERROR' || code === 'ERR_BAD_SSL_CLIENT_AUTH_CERT') {
    return 'The notebook’s certificate is not one Cloud Tray trusts, so the page was not loaded. If you use the Sandbox, restart Cloud Tray; otherwise the network may be intercepting the connection.'
  }
  if (code === 'ERR_CONNECTION_REFUSED' || code === 'ERR_CONNECTION_RESET' || code === 'ERR_EMPTY_RESPONSE') {
    return 'Nothing answers at the notebook’s address. The instance may have stopped or still be starting: check its status in Cloud Tray and open the notebook again.'
  }
  if (
    code === 'ERR_NAME_NOT_RESOLVED' ||
    code === 'ERR_INTERNET_DISCONNECTED' ||
    code === 'ERR_ADDRESS_UNREACHABLE' ||
    code === 'ERR_NETWORK_CHANGED'
  ) {
    return 'The notebook’s address could not be reached from this computer. Check your network connection and open the notebook again.'
  }
  if (code === 'ERR_TIMED_OUT' || code === 'ERR_CONNECTION_TIMED_OUT') {
    return 'The notebook did not answer in time. Check your network connection and open the notebook again.'
  }
  return 'The notebook could not be loaded. Open it again from Cloud Tray; if this keeps happening, check the instance’s status.'
}

/** A self-contained page (loaded as a data: URL by main, so it needs nothing from the network). */
export function loadFailurePage(instanceName: string, errorCode: string | undefined): string {
  const detail = errorCode ? `<p><small>Details: ${escapeHtml(errorCode)}</small></p>` : ''
  return localPage(
    `Notebook of ${instanceName} did not load`,
    `<h1>The notebook of ${escapeHtml(instanceName)} did not load</h1><p>${escapeHtml(loadFailureMessage(errorCode))}</p>${detail}`
  )
}
