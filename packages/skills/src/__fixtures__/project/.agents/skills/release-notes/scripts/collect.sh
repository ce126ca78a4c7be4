#!/bin/sh
# Loading the skill must never run this: it leaves a mark if it ever runs.
touch "$(dirname "$0")/../RAN"
git log --oneline "$1..HEAD"
