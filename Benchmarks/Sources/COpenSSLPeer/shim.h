// OpenSSL libcrypto as the peer of the TL/crypto benchmark (AES-256-ECB is the speed ceiling for serial IGE).
#include <openssl/evp.h>
