"""A service-account file shaped as Google's console issues it (token_uri Google's own), with a
new RSA key that pushbox has never seen: make_service_account.py OUT.json PROJECT"""
import json, sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
project = sys.argv[2]
json.dump({"type": "service_account", "project_id": project, "private_key_id": "0123456789abcdef0123456789abcdef01234567",
           "private_key": pem, "client_email": f"firebase-adminsdk-x1y2z@{project}.iam.gserviceaccount.com",
           "client_id": "123456789012345678901", "auth_uri": "https://accounts.google.com/o/oauth2/auth",
           "token_uri": "https://oauth2.googleapis.com/token",
           "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
           "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/firebase-adminsdk-x1y2z%40{project}.iam.gserviceaccount.com",
           "universe_domain": "googleapis.com"}, open(sys.argv[1], "w"), indent=2)
