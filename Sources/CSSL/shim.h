// OpenSSL libssl and the parts of libcrypto that certificates and ES256 need (libssl-dev).
// Imported only by PushboxTLS. Macros Swift cannot call are wrapped as static inline functions.
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/bio.h>

/// A new ECDSA P-256 key (EVP_EC_gen is a variadic macro).
static inline EVP_PKEY *pb_ec_p256_new(void) { return EVP_EC_gen("P-256"); }

/// Refuses TLS below 1.2, as APNs does.
static inline int pb_ssl_ctx_min_tls12(SSL_CTX *ctx) { return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

/// The SNI callback and its argument (both macros over SSL_CTX_callback_ctrl / SSL_CTX_ctrl).
static inline void pb_ssl_ctx_servername(SSL_CTX *ctx, int (*cb)(SSL *, int *, void *), void *arg) {
    SSL_CTX_set_tlsext_servername_callback(ctx, cb);
    SSL_CTX_set_tlsext_servername_arg(ctx, arg);
}

/// Partial writes and a moving write buffer, for a non-blocking socket driven by poll.
static inline void pb_ssl_nonblocking_modes(SSL *ssl) {
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// Reads as much as the socket holds into OpenSSL's buffer, records ahead of the one asked for
/// (SSL_set_read_ahead is a macro): one read(2) for several records instead of two for each.
static inline void pb_ssl_read_ahead(SSL *ssl) { SSL_set_read_ahead(ssl, 1); }

/// The bytes a memory BIO holds (BIO_get_mem_data is a macro).
static inline long pb_bio_mem(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

/// The SNI host name the client sent, or NULL.
static inline const char *pb_ssl_servername(const SSL *ssl) { return SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name); }

/// RFC 2253 form for X509_NAME_print_ex (XN_FLAG_RFC2253 is a composite macro).
static inline unsigned long pb_xn_flag_rfc2253(void) { return XN_FLAG_RFC2253; }

/// A new RSA key of `bits` bits (EVP_RSA_gen is a variadic macro).
static inline EVP_PKEY *pb_rsa_new(unsigned int bits) { return EVP_RSA_gen(bits); }
