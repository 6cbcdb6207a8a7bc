#!/bin/sh
# Lets `npx quorum …` run the TypeScript CLI from any folder: one node process with tsx's loader, so a
# Ctrl-C reaches `quorum start` itself (tsx's own CLI would run it in a child it may SIGKILL).
here=$(dirname "$(readlink -f "$0")")
exec node --import "$here/../node_modules/tsx/dist/loader.mjs" "$here/quorum.ts" "$@"
