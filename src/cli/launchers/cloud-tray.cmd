@echo off
rem cloud-tray: the command line of Cloud Tray on Windows. It runs the bundle beside it with Node.js.
where node >nul 2>nul
if errorlevel 1 (
  echo cloud-tray needs Node.js 20.19 or newer on your PATH ^(https://nodejs.org^); Cloud Tray itself does not. 1>&2
  exit /b 1
)
node "%~dp0cloud-tray.cjs" %*
