#ifndef OFFICER_CCRYPTO_SHIM_H
#define OFFICER_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto, already linked by libcurl: only the EVP digest calls, none variadic. */
#include <openssl/evp.h>
#endif
