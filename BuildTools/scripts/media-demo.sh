#!/usr/bin/env bash
# Runs sticker-tool and voice-tool on inputs made on the spot (espeak-ng speech, sox tones, gzipped Lottie, cwebp
# output, an ffmpeg-made WebM video sticker, a truncated sticker) into .build/media-demo, printing what each tool says.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product sticker-tool -q
swift build --product voice-tool -q
bin=$(swift build --show-bin-path)
out=.build/media-demo
rm -rf "$out" && mkdir -p "$out/stickers"
for name in square masked; do gzip -9c "Tests/MediaFixtures/lottie/$name.json" > "$out/stickers/$name.tgs"; done
head -c 200 "$out/stickers/square.tgs" > "$out/stickers/truncated.tgs"
# A video sticker: VP9 with an alpha plane in WebM, a disc swinging on transparency (512×512, 30 fps, 1 s).
ffmpeg -v error -y -f lavfi \
    -i "color=c=0x7E3FD0:s=512x512:r=30:d=1,format=yuva420p,geq=lum='p(X,Y)':cb='p(X,Y)':cr='p(X,Y)':a='if(lt(hypot(X-W/2-76*sin(2*PI*T),Y-H/2),153),255,0)'" \
    -c:v libvpx-vp9 -pix_fmt yuva420p -b:v 0 -crf 50 -threads 1 -an "$out/stickers/disc.webm"
"$bin/sticker-tool" info "$out/stickers/disc.webm"
"$bin/sticker-tool" convert "$out/stickers/disc.webm" "$out/disc.webp" --size 256
"$bin/sticker-tool" convert "$out/stickers/masked.tgs" "$out/masked.webp" --size 256
"$bin/sticker-tool" thumb "$out/masked.webp" "$out/masked-thumb.png" --size 128
"$bin/sticker-tool" info "$out/stickers/square.tgs"
"$bin/sticker-tool" render "$out/stickers/square.tgs" --out "$out/frames" --size 128 --fps 10
"$bin/sticker-tool" batch "$out/stickers" --out "$out/batch" --mode thumb --size 96 || true
espeak-ng -w "$out/speech.wav" "This voice note was made by the demo, not taken from the repository."
"$bin/voice-tool" encode "$out/speech.wav" "$out/speech.ogg"
opusinfo "$out/speech.ogg" | grep -E 'Playback length|Average bitrate'
"$bin/voice-tool" decode "$out/speech.ogg" "$out/speech-decoded.wav"
"$bin/voice-tool" waveform "$out/speech.ogg" --png "$out/waveform.png" | head -1
sox -n -r 44100 -c 2 "$out/tone.wav" synth 1.2 sine 330 vol 0.4
"$bin/voice-tool" encode "$out/tone.wav" "$out/tone.ogg" | head -2
"$bin/voice-tool" info "$out/tone.ogg"
echo "media-demo: outputs in $out"
