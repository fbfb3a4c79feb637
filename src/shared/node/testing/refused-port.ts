/**
 * A loopback port where a connection is refused for certain, for tests of "nothing listens
 * there". A port taken and let go (listen on 0, close) is not that: the kernel may hand it to
 * another test's server in the meantime (two test workers open dozens a second), and the
 * "refused" connection then reaches that server. Port-0 listens never land below 1024 and no
 * test listens on 2. Not 1: it is on the fetch standard's list of bad ports, which undici and
 * Chromium refuse before connecting.
 */
export const REFUSED_PORT = 2
