"""A backend's localized campaign, as apps with per-language FCM topics send one: each user's
registration token subscribed to the topic of the language the user reports, then one message
per language topic. firebase-admin, unchanged; the fleet guide's worked example.
   fleet_language_topics.py SERVICE_ACCOUNT.json LANGUAGE=TOKEN ..."""
import sys
import firebase_admin
from firebase_admin import credentials, messaging

TOPICS = {"ko-KR": "LangKoKR", "ja-JP": "LangJaJP", "es-ES": "LangEsES"}
TEXTS = {
    "ko-KR": ("주문이 발송되었습니다", "곧 도착합니다"),
    "ja-JP": ("ご注文を発送しました", "まもなく届きます"),
    "es-ES": ("Tu pedido ha sido enviado", "Llegará pronto"),
}

firebase_admin.initialize_app(credentials.Certificate(sys.argv[1]))
for user in sys.argv[2:]:
    language, token = user.split("=", 1)
    subscribed = messaging.subscribe_to_topic([token], TOPICS[language])
    print("subscribed", language, subscribed.success_count, flush=True)
for language, (title, body) in TEXTS.items():
    message = messaging.Message(topic=TOPICS[language], notification=messaging.Notification(title=title, body=body))
    print("sent", language, messaging.send(message).startswith("projects/"), flush=True)
