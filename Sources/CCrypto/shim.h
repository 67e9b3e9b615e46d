// OpenSSL libcrypto (libssl-dev): AES-256-GCM through EVP, SHA-256, random bytes.
// Imported only by PushboxCrypto. The EVP API imports into Swift without wrappers.
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/err.h>
#include <openssl/sha.h>
