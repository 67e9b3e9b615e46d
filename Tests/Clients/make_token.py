"""Prints an APNs provider token (ES256 JWT) signed with a .p8 key, made with Python's cryptography.
   make_token.py KEY_FILE KEY_ID TEAM_ID [SECONDS_OFFSET]"""
import base64, json, sys, time
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

key = serialization.load_pem_private_key(open(sys.argv[1], "rb").read(), None)
iat = int(time.time()) + (int(sys.argv[4]) if len(sys.argv) > 4 else 0)
b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
signing_input = b64(json.dumps({"alg": "ES256", "kid": sys.argv[2]}).encode()) + "." + b64(json.dumps({"iss": sys.argv[3], "iat": iat}).encode())
r, s = utils.decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
print(signing_input + "." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
