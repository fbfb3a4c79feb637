#!/usr/bin/env bash
# Runs a command with a real OS keychain on Linux: a private D-Bus session bus with
# gnome-keyring's Secret Service, unlocked with a throwaway password. Tests that store tokens
# then exercise the same keychain the app uses on a desktop. Elsewhere (macOS, Windows, or a
# Linux without these tools) it runs the command as it is.
set -euo pipefail
if [ "$(uname -s)" = "Linux" ] && [ -z "${CLOUD_TRAY_KEYRING_READY:-}" ] \
  && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  export CLOUD_TRAY_KEYRING_READY=1
  exec dbus-run-session -- bash -c '
    printf "%s" "throwaway-test-keyring" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec "$@"' _ "$@"
fi
exec "$@"
