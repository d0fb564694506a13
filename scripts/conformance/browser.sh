#!/usr/bin/env bash
# A browser for `mcpeval login` in the conformance suite: the suite's
# authorization server approves at once, so following its redirects brings
# the code back to mcpeval's loopback listener.
exec curl --silent --show-error --location --max-redirs 10 --output /dev/null "$1"
