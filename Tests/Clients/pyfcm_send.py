"""pyfcm (FCM HTTP v1), unchanged: it reaches pushbox only through HTTPS_PROXY and the CA in
REQUESTS_CA_BUNDLE, with a service-account file from `pushbox fcm-credentials`.
   pyfcm_send.py SERVICE_ACCOUNT.json PROJECT TOKEN
Prints one line per step: "send <name or ExceptionClass>", "invalid <ExceptionClass>" (a token of
the wrong form), "project <ExceptionClass>" (the same account with another project's id)."""
import json, sys, tempfile
from pyfcm import FCMNotification
from pyfcm.errors import FCMError

account, project, token = sys.argv[1], sys.argv[2], sys.argv[3]

def attempt(label, fcm, to):
    try:
        result = fcm.notify(fcm_token=to, notification_title="pyfcm", notification_body="hello from pyfcm")
        print(label, result.get("name"), flush=True)
    except FCMError as e:
        print(label, type(e).__name__, flush=True)

attempt("send", FCMNotification(service_account_file=account, project_id=project), token)
attempt("invalid", FCMNotification(service_account_file=account, project_id=project), "not a token!")
# pyfcm takes the project from the credentials: a file whose project_id is wrong (the account
# belongs to another project) is how a backend sends to the wrong one.
wrong = json.load(open(account))
wrong["project_id"] = "someone-elses-project"
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump(wrong, f)
attempt("project", FCMNotification(service_account_file=f.name), token)
