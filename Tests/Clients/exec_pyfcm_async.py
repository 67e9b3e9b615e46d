"""pyfcm's async sender (aiohttp), unchanged: async_notify_multiple_devices.
   exec_pyfcm_async.py SERVICE_ACCOUNT.json (under `pushbox exec --`)"""
import sys
from pyfcm import FCMNotification
fcm = FCMNotification(service_account_file=sys.argv[1])
params = [{"topic_name": "NewsApp", "notification_title": "pyfcm", "notification_body": f"async {i}"} for i in range(3)]
for r in fcm.async_notify_multiple_devices(params_list=params):
    print("async", r.get("name", r) if isinstance(r, dict) else r, flush=True)
