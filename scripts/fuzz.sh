#!/usr/bin/env bash
# make fuzz: every parser's fuzz target under libFuzzer with AddressSanitizer, FUZZ_SECONDS each
# (default 60). Seeds: Tests/Fuzz/seeds/TARGET, the sample payloads and app, the tests' fixtures
# and ../shared/corpus where present. A crash, a hang over 1 s, more than 512 MB in all or 256 MB at once stops a target
# and leaves its input in Tests/Fuzz/crashes/TARGET/; keep it in Tests/Fuzz/regressions/TARGET/
# once fixed, and `make test` replays it.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
seconds="${FUZZ_SECONDS:-60}"
# SwiftPM's --sanitize=fuzzer instruments only the executable's own module for coverage
# (libFuzzer then sees ~100 counters and finds nothing): the coverage flags are passed to
# every module explicitly (~52,000 counters).
"$SWIFT" build --scratch-path .build/fuzz --sanitize=fuzzer --sanitize=address -Xswiftc -DPUSHBOX_FUZZ \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp --product pushbox-fuzz >/dev/null || exit 1
binary=.build/fuzz/debug/pushbox-fuzz
# Every target the binary has (its usage names them), unless FUZZ_TARGETS picks some.
targets="${FUZZ_TARGETS:-$("$binary" 2>&1 | sed -n 's/.*(targets: \(.*\)).*/\1/p' | tr -d ,)}"
[ -n "$targets" ] || { echo "fuzz: pushbox-fuzz names no targets" >&2; exit 1; }
work=.build/fuzz-corpus
seed() {  # seed TARGET FILE [PREFIX]: copy FILE into the target's generated seeds, PREFIX line first
    local dir="$work/$1/generated"; mkdir -p "$dir"
    local name; name="$(echo "$2" | md5sum | cut -c1-12)"
    { [ -n "${3:-}" ] && printf '%s\n' "$3"; cat "$2"; } > "$dir/$name" 2>/dev/null
}
for f in sample-payloads/*.json sample-payloads/*/*.json sample-payloads/*.apns; do
    [ -f "$f" ] || continue
    seed json "$f"; seed payload "$f" "apns-push-type: alert;apns-topic: dev.pushbox.sample"
done
for f in sample-payloads/schedules/*.json; do [ -f "$f" ] && seed schedule "$f"; done
seed profile sample-payloads/SampleApp/pushbox.json
while IFS= read -r f; do case "$f" in
    *.stringsdict) seed stringsdict "$f" "1,5,21" ;;
    *.strings) seed strings "$f" ;;
    *.xcstrings) [ "$(stat -c %s "$f")" -lt 200000 ] && seed xcstrings "$f" ;;
esac; done < <(find sample-payloads Tests ../shared/corpus -name '*.strings' -o -name '*.stringsdict' -o -name '*.xcstrings' 2>/dev/null | head -400)
status=0
for t in $targets; do
    mkdir -p "$work/$t/found" "$work/$t/generated" "Tests/Fuzz/crashes/$t"
    # Only what this run leaves counts: inputs of earlier runs may still lie there.
    stamp="$work/$t/.started"; touch "$stamp"
    echo "== $t ($seconds s)"
    # AddressSanitizer's own quarantine (256 MB by default) and allocator caches fill the
    # process with freed memory over a long run, so the limits measure pushbox: a small
    # quarantine, 512 MB for the process, 256 MB for any one allocation.
    ASAN_OPTIONS="quarantine_size_mb=16" LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp" PUSHBOX_FUZZ_TARGET="$t" "$binary" \
        -max_total_time="$seconds" -timeout=1 -rss_limit_mb=512 -malloc_limit_mb=256 -print_final_stats=1 \
        -artifact_prefix="Tests/Fuzz/crashes/$t/" "$work/$t/found" "Tests/Fuzz/seeds/$t" "$work/$t/generated" 2>&1 \
        | grep -E "^stat::number_of_executed_units|DONE +cov|ERROR|SUMMARY|Test unit written" | tail -4 || true
    if find "Tests/Fuzz/crashes/$t" -type f -newer "$stamp" | grep -q .; then echo "   $t: inputs that broke it are in Tests/Fuzz/crashes/$t/"; status=1; fi
done
exit $status
