#!/usr/bin/env bash
# Prepares the APNs provider libraries the tests drive against pushbox's port, each in a venv of
# its own under DIR (their pinned dependencies conflict): aioapns, PyAPNs2 (apns2), and the
# Firebase Admin SDK (firebase-admin), pyfcm, pyapns_client, kalyke, apprise and django-push-notifications;
# and pytest with httpx for the testing guide's recipes.
# Without PyPI the venvs stay absent and the tests that need them say so and skip, except in CI
# (CI=true), where a venv that cannot be made fails the run: a green CI has run these tests.
set -uo pipefail
dir="${1:-.build/pyclients}"
mkdir -p "$dir"
failed=0
make_venv() {
    local name="$1"; shift
    local venv="$dir/$name"
    [ -x "$venv/bin/python" ] && [ -f "$venv/.ready" ] && return 0
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        echo "python-clients: cannot make a venv (python3-venv missing?); the $name tests will skip" >&2
        failed=1
        return 0
    fi
    if "$venv/bin/pip" install -q --disable-pip-version-check "$@" >"$venv/pip.log" 2>&1; then
        touch "$venv/.ready"
    else
        echo "python-clients: pip could not install $* (is PyPI reachable?); the $name tests will skip. See $venv/pip.log" >&2
        failed=1
    fi
}
make_venv aioapns "aioapns==4.0"
make_venv apns2 "apns2==0.7.2"
# apns2-up, PyAPNs2's maintained fork (the same apns2 module), for the chaos tests.
make_venv apns2up "apns2-up==0.9.0"
make_venv firebase "firebase-admin==7.7.0"
make_venv pyfcm "pyfcm==2.1.1"
make_venv pyapns_client "pyapns_client==2.0.6"
# kalyke, an APNs client with a Live Activity client of its own (LiveActivityClient).
make_venv kalyke "kalyke-apns==1.5.0"
# apprise's FCM plugin (OAuth with a service-account key needs cryptography), from its own command line.
make_venv apprise "apprise==2.2.0" "cryptography==50.0.2"
# django-push-notifications' APNs backend (PyAPNs2 underneath), for `pushbox exec` with no setting changed.
make_venv django "django-push-notifications[apns]==3.3.0" "Django==5.2.19" "apns2==0.7.2"
# The testing guide's pytest recipe, run as written, and a validator of the API's OpenAPI document.
make_venv pytest "pytest==9.2.0" "httpx==0.29.0" "openapi-spec-validator==0.9.0"
# Selenium, to drive Debian's chromium (chromium-driver) through the inbox in a browser.
make_venv web "selenium==4.51.0"
if [ "$failed" -ne 0 ] && [ "${CI:-}" = "true" ]; then
    echo "python-clients: in CI every provider-library venv must be made, or their tests would not run" >&2
    exit 1
fi
exit 0
