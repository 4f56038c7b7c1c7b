#!/usr/bin/env bash
# The published periods of octal games (Flammenkamp's table; Winning Ways), each proved by
# `nimbus sequence 'octal CODE' --prove`: time, peak memory, and the certificate.
# Usage: bench/octal_records.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimbus-cli
echo "# $(uname -n), $(nproc) cores, $(date '+%Y-%m-%d %H:%M')"
echo "| game | published (preperiod / period) | nimbus | proved | checked to n | CRC-32 | time | memory |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
while read -r code pre per; do
    out=$(mktemp)
    /usr/bin/time -f "%e %M" -o "$out.time" target/release/nimbus sequence "octal $code" \
        --prove --upto 0 --json >"$out"
    read -r secs kb <"$out.time"
    python3 - "$out" "$code" "$pre" "$per" "$secs" "$kb" <<'PY'
import json, sys
path, code, pre, per, secs, kb = sys.argv[1:]
a = json.load(open(path))
ok = (a["preperiod"], a["period"]) == (int(pre), int(per))
print(f"| {code} | {pre} / {per} | {a['preperiod']} / {a['period']}{'' if ok else ' (DIFFERS)'} | "
      f"{'yes' if a['proved'] else 'no'} | {a['checked_upto']} | {a['checksum']} | {secs} s | "
      f"{int(kb) // 1024} MB |")
PY
    rm -f "$out" "$out.time"
done <<'GAMES'
0.45 498 20
0.156 3479 349
0.356 7315 142
0.644 3256 442
0.165 5181 1550
0.16 105351 149459
0.56 326640 144
0.127 46578 4
0.376 2268248 4
0.354 10061916 1180
GAMES
