#!/bin/sh
# A SPEECH_COMMAND for tests and trials (docs/SEARCH.md): Debian's pocketsphinx_continuous (packages
# pocketsphinx, pocketsphinx-en-us) hears IN.wav (16 kHz mono) and OUT.vtt gets its words as WebVTT
# cues of at most about 5 s or 8 words, a pause of a second or more starting a new cue.
# Inaccurate by design of the engine: it proves the plumbing, not recognition.
#   scripts/speech/pocketsphinx-vtt.sh IN.wav OUT.vtt
set -eu
if [ "$#" -ne 2 ]; then
  echo "usage: $0 IN.wav OUT.vtt" >&2
  exit 2
fi
in=$1
out=$2
[ -r "$in" ] || { echo "cannot read $in" >&2; exit 2; }
command -v pocketsphinx_continuous >/dev/null 2>&1 || {
  echo "pocketsphinx_continuous not found (apt-get install pocketsphinx pocketsphinx-en-us)" >&2
  exit 127
}
words=$(mktemp)
trap 'rm -f "$words" "$out.part"' EXIT
# -time yes: after each utterance's text, one line per word: WORD START END CONFIDENCE (seconds).
pocketsphinx_continuous -infile "$in" -time yes -logfn /dev/null >"$words"
awk '
  function stamp(t,  h, m, s) {
    h = int(t / 3600); m = int((t - h * 3600) / 60); s = t - h * 3600 - m * 60
    return sprintf("%02d:%02d:%06.3f", h, m, s)
  }
  function flush() {
    if (n == 0) return
    if (cue_end <= cue_start) cue_end = cue_start + 0.01
    printf "\n%s --> %s\n%s\n", stamp(cue_start), stamp(cue_end), text
    n = 0; text = ""
  }
  BEGIN { print "WEBVTT"; n = 0 }
  NF == 4 && $2 ~ /^[0-9.]+$/ && $3 ~ /^[0-9.]+$/ {
    word = $1
    # Fillers and markers are no words; "the(2)" is an alternate pronunciation of "the".
    if (word ~ /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/) next
    sub(/\([0-9]+\)$/, "", word)
    start = $2 + 0; end = $3 + 0
    if (n > 0 && (n >= 8 || end - cue_start > 5 || start - cue_end >= 1)) flush()
    if (n == 0) { cue_start = start; text = word } else text = text " " word
    cue_end = end; n++
  }
  END { flush() }
' "$words" >"$out.part"
mv "$out.part" "$out"
