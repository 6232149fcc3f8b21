#!/usr/bin/env bash
# The world the README's "Using it" block assumes, made from nothing: readme-world.sh HOME SERVER_ROOT WEB_ROOT
# HOME is the user's home (the block's ~ and its working folder ~/work), SERVER_ROOT the Officer server's files
# and WEB_ROOT what the plain web server (the block's example.org) serves. Real files of each kind: videos,
# photos with text, a HEIC, archives; only the tools Debian installs for the tests (ffmpeg, ImageMagick, vips,
# zip, tar with zstd).
set -euo pipefail
home="$1" server="$2" web="$3"
work="$home/work"
mkdir -p "$work" "$home/Videos" "$home/Pictures" "$home/DCIM" "$home/Photos" "$home/notes" "$home/Audio" \
  "$home/work/cache" "$home/work/src" "$server/Documents" "$server/Photos" "$server/Videos" "$server/Backups" \
  "$server/Receipts" "$server/Voice" "$server/Notes" "$server/Downloads" "$web"

video() { # PATH SECONDS SIZE CODECS...
  local path="$1" seconds="$2" size="$3"
  shift 3
  ffmpeg -nostdin -y -loglevel error -f lavfi -i "testsrc=duration=$seconds:size=$size:rate=25" \
    -f lavfi -i "sine=frequency=440:duration=$seconds" "$@" -shortest "$path"
}
text_image() { # PATH TEXT
  convert -size 900x200 xc:white -font DejaVu-Sans -pointsize 56 -fill black -annotate +20+120 "$2" "$1"
}
photo() { # PATH WIDTH HEIGHT
  convert -size "$2x$3" gradient:skyblue-navy -quality 90 "$1"
}

# The server's files.
printf '# Notes\n\nThe plan for the week.\n' >"$server/Documents/notes.md"
printf 'A draft to file away.\n' >"$server/Documents/draft.md"
printf '%%PDF-1.4\n%% a plan kept offline\n%%%%EOF\n' >"$server/Documents/plan.pdf"
photo "$server/Photos/IMG_1.jpg" 1600 1200
photo "$server/Photos/IMG_2.jpg" 800 600
video "$server/Videos/talk.mkv" 3 640x480 -c:v mpeg4 -c:a libvorbis
text_image "$server/Receipts/r1.jpg" "TOTAL 42 EUR"
text_image "$server/Receipts/r2.jpg" "PAID IN FULL"
ffmpeg -nostdin -y -loglevel error -f lavfi -i "sine=frequency=300:duration=2" -c:a aac "$server/Voice/memo.m4a"
printf 'kept on the server\n' >"$server/Notes/todo.txt"
(
  mkdir -p "$work/site/docs" && cd "$work/site"
  printf '<h1>Site</h1>\n' >docs/index.html
  printf 'body { margin: 0 }\n' >docs/style.css
  zip -q -r "$server/Backups/site.zip" docs
  cp "$server/Backups/site.zip" "$work/site.zip"
)
rm -rf "$work/site"

# The user's files.
printf '# Notes\n\nRead this aloud.\n' >"$work/notes.md"
photo "$home/Pictures/beach.jpg" 1200 900
photo "$home/Pictures/hill.jpg" 900 1200
photo "$work/one.jpg" 2400 1800
photo "$work/two.jpg" 1800 2400
photo "$home/DCIM/IMG_0001.jpg" 1000 750
vips copy "$home/DCIM/IMG_0001.jpg" "$home/DCIM/IMG_0001.HEIC"
rm "$home/DCIM/IMG_0001.jpg"
vips copy "$home/Pictures/beach.jpg" "$work/IMG_0042.HEIC"
text_image "$work/screenshot.png" "A SCREENSHOT"
text_image "$work/scan.png" "INVOICE 2026"
video "$work/talk.mkv" 2 320x240 -c:v mpeg4 -c:a libvorbis
head -c $((9 << 20)) /dev/urandom >"$work/big.tar"
(cd "$home" && tar --zstd -cf "$work/backup.tar.zst" Pictures)
photo "$home/Photos/sunset.jpg" 800 600
printf 'a\n' >"$home/notes/one.txt"
printf 'b\n' >"$home/notes/two.txt"
printf 'source\n' >"$home/work/src/main.c"
printf 'scratch\n' >"$home/work/build.tmp"
printf 'cached\n' >"$home/work/cache/blob"

# What the web server serves.
head -c $((2 << 20)) /dev/urandom >"$web/image.iso"
video "$web/talk.mp4" 2 320x240 -c:v libx264 -c:a aac
