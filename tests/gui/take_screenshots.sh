#!/usr/bin/env bash
# Regenerates the screenshots in docs/screenshots/ (not a test).
#
#   tests/gui/take_screenshots.sh [BUILD_DIR]     (default: $WARPVIZ_BUILD_DIR or build)
#
# Each view at 1600x900 under Xvfb; the vote, compaction, match and block
# views are cropped to the lower row of panels (history | votes | block) of
# the first-use layout, the bank views to the bank panel. PNGs are re-deflated with zlib level 9, which stb's
# own encoder does not reach, to keep the repository small.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${1:-${WARPVIZ_BUILD_DIR:-build}}
app=$build_dir/app/warpviz
checker=$build_dir/tests/gui/check_screenshot
out=docs/screenshots
for bin in "$app" "$checker"; do
  [ -x "$bin" ] || { echo "take_screenshots: $bin not built" >&2; exit 2; }
done
command -v xvfb-run >/dev/null || { echo "take_screenshots: needs xvfb-run (scripts/install-deps.sh)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

lower_row=0,528,1104,372  # history | votes | block at 1600x900
bank_panel=0,346,861,554  # the bank panel of a bank trace's first-use layout

# shot NAME REGION|full WARPVIZ ARGS...
shot() {
  local name=$1 region=$2
  shift 2
  xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --size 1600x900 --screenshot "$work/$name.png" "$@" >/dev/null
  if [ "$region" = full ]; then region=0,0,1600,900; fi
  "$checker" "$work/$name.png" --region "$region" --save-region "$work/$name.crop.png" >/dev/null
  python3 - "$work/$name.crop.png" "$out/$name.png" <<'EOF'
import struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
pos, idat, chunks = 8, b'', []
while pos < len(data):
    n = struct.unpack('>I', data[pos:pos + 4])[0]
    kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
    pos += 12 + n
    if kind == b'IDAT':
        idat += body
    elif kind != b'IEND':
        chunks.append((kind, body))
def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)
png = b'\x89PNG\r\n\x1a\n' + b''.join(chunk(k, b) for k, b in chunks)
png += chunk(b'IDAT', zlib.compress(zlib.decompress(idat), 9)) + chunk(b'IEND', b'')
open(dst, 'wb').write(png)
EOF
  echo "$out/$name.png  $(du -k "$out/$name.png" | cut -f1) KB"
}

shot lanes_warp_sum full --scenario warp_sum --step 2
shot test_shuffle_seed full --scenario test_shuffle --step 2
shot vote_ballot "$lower_row" --scenario vote --step 3
shot divergence_paths full --scenario divergence --step 3
shot compact_slots "$lower_row" --scenario compact --step 1
shot match_groups "$lower_row" --scenario match --step 1
shot block_reduce_sum "$lower_row" --scenario reduce_sum --step 44  # mid-play: slots 0-3 written
shot presentation full --scenario warp_sum --step 2 --presentation
shot bank_unpadded "$bank_panel" --scenario bank --set pattern=column --set cols=32
shot bank_padded "$bank_panel" --scenario bank --set pattern=column --set cols=33
shot transpose_app full --scenario transpose --step 5
shot presentation_bank full --scenario bank --set pattern=column --set cols=33 --presentation
shot chinese_ui full --scenario reduce_int --step 8 --lang zh
