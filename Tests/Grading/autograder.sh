#!/bin/sh
# Lays out Gradescope's /autograder folders in a temporary root, runs the recipe's
# run_autograder (Packaging/gradescope) on one right, one wrong and one empty submission, and
# checks each results.json. Usage: autograder.sh [ASMRUN_DIR] (the folder holding asmrun; by
# default the one on PATH). Exits non-zero, saying why, when a check fails.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 0 ] || PATH="$(cd "$1" && pwd):$PATH"
command -v asmrun >/dev/null || { echo "autograder.sh: asmrun is not on PATH" >&2; exit 2; }
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT

count='global _start
_start:
    mov rdi, [rsp]
    dec rdi
    mov eax, 60
    syscall'

# grade NAME SOURCE: a fresh /autograder with the reference, the submission NAME holding SOURCE
# as count.asm (none when SOURCE is empty), then run_autograder.
grade() {
    root="$top/$1/autograder"
    mkdir -p "$root/source/reference" "$root/submission" "$root/results"
    printf '%s\n' "$count" > "$root/source/reference/count.asm"
    printf '[case none]\nstatus: exit 0\n\n[case two]\npoints: 2\nargs: a b\nstatus: exit 2\n' \
        > "$root/source/reference/count.expect"
    cp "$here/Packaging/gradescope/run_autograder" "$root/source/run_autograder"
    [ -z "$2" ] || printf '%s\n' "$2" > "$root/submission/count.asm"
    (cd "$root/source" && AUTOGRADER="$root" sh ./run_autograder > "$top/$1.log" 2>&1) \
        || { echo "autograder.sh: run_autograder failed for $1:" >&2; cat "$top/$1.log" >&2; exit 1; }
}

# expect NAME SCORE TEXT: results.json of NAME has the score and contains TEXT.
expect() {
    results="$top/$1/autograder/results/results.json"
    [ -f "$results" ] || { echo "autograder.sh: $1: no results.json" >&2; exit 1; }
    grep -q "\"score\" : $2,\$" "$results" || { echo "autograder.sh: $1: score is not $2:" >&2; cat "$results" >&2; exit 1; }
    grep -qF "$3" "$results" || { echo "autograder.sh: $1: results.json lacks $3:" >&2; cat "$results" >&2; exit 1; }
    if grep -q "$top" "$results"; then echo "autograder.sh: $1: results.json shows the grader's paths" >&2; exit 1; fi
}

grade right "$count"
expect right 3 '"output" : "passed\n"'
[ -f "$top/right/autograder/results/report/submission.md" ] || { echo "autograder.sh: no Markdown report" >&2; exit 1; }
grade wrong "$(printf '%s\n' "$count" | grep -v 'dec rdi')"
expect wrong 0 'your program ended with exit 3, but exit 2 was expected'
grade empty ""
expect empty 0 'your submission holds no programs'
echo "autograder.sh: 3 submissions graded as expected"
