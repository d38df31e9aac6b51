#ifndef COPENSSL_SHIMS_H
#define COPENSSL_SHIMS_H
#include <stddef.h>
#include <stdint.h>
#endif
