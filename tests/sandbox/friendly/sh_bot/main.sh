#!/bin/sh
# A bot in plain POSIX sh, to show that bots need not be Python: frames are read byte by byte
# with dd, turned into numbers by od, parsed by awk, and answered with printf.
set -u

byte() { printf "\\$(printf '%03o' "$1")"; }

frame() {  # the 4-byte big-endian length prefix of a frame of $1 bytes
    byte $(($1 >> 24 & 255)); byte $(($1 >> 16 & 255)); byte $(($1 >> 8 & 255)); byte $(($1 & 255))
}

# awk reads a message's bytes as numbers and prints its type, and for "act" the first legal action.
PARSE='
{ for (i = 1; i <= NF; i++) b[++n] = $i }
function str(at,   s, k) { s = ""; for (k = 1; k <= b[at] - 160; k++) s = s sprintf("%c", b[at + k]); return s }
function find(key,   i, k, ok) {
    for (i = 1; i + length(key) <= n; i++) {
        if (b[i] != 160 + length(key)) continue
        ok = 1
        for (k = 1; k <= length(key); k++) if (b[i + k] != code[substr(key, k, 1)]) { ok = 0; break }
        if (ok) return i + length(key) + 1
    }
    return 0
}
END {
    for (c = 32; c < 127; c++) code[sprintf("%c", c)] = c
    type = str(find("type"))
    if (type != "act") { print type; exit }
    at = find("legal")
    print "act", str(at + (b[at] == 220 ? 3 : b[at] == 221 ? 5 : 1))
}'

while :; do
    set -- $(dd bs=1 count=4 2>/dev/null | od -An -v -tu1)
    [ $# -eq 4 ] || exit 0
    set -- $(dd bs=1 count=$(($1 * 16777216 + $2 * 65536 + $3 * 256 + $4)) 2>/dev/null \
             | od -An -v -tu1 | awk "$PARSE")
    case "${1:-}" in
        hello)
            frame 22; printf '\202\244type\245ready\250protocol\001' ;;
        act)
            frame $((21 + ${#2})); printf '\202\244type\246action\246action'
            byte $((160 + ${#2})); printf '%s' "$2" ;;
        end)
            exit 0 ;;
    esac
done
