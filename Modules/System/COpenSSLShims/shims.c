#include "COpenSSLShims.h"
