#!/usr/bin/env bash
# `swift`, run a second time if it dies by a signal. SwiftPM 6.3.1 has crashed (SIGSEGV in
# libdispatch, inside AsyncProcess.launch) while starting a build-tool plugin's prebuild command:
# once in some hundred runs, never twice in a row. A second run starts from the build as it was.
# A failure of the code (an error, a failed test) is an exit status, not a signal, and is not retried.
"${SWIFT_COMMAND:-swift}" "$@"
status=$?
if ((status > 128)); then
    echo "swift-again: swift $1 died by signal $((status - 128)); running it again" >&2
    exec "${SWIFT_COMMAND:-swift}" "$@"
fi
exit "$status"
