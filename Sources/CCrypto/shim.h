#ifndef OFFICER_CCRYPTO_SHIM_H
#define OFFICER_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto, already linked by libcurl: the EVP digest calls and one-shot HMAC, none variadic. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
