#!/bin/sh
# Lets `npx quorum …` run the TypeScript CLI through tsx from any folder.
here=$(dirname "$(readlink -f "$0")")
exec "$here/../node_modules/.bin/tsx" "$here/quorum.ts" "$@"
