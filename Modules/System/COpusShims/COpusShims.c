#include "COpusShims.h"

int telegraph_opus_set_bitrate(OpusEncoder *encoder, opus_int32 bitrate) {
    return opus_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate));
}

int telegraph_opus_set_vbr(OpusEncoder *encoder, opus_int32 vbr) {
    return opus_encoder_ctl(encoder, OPUS_SET_VBR(vbr));
}

int telegraph_opus_set_vbr_constraint(OpusEncoder *encoder, opus_int32 constrained) {
    return opus_encoder_ctl(encoder, OPUS_SET_VBR_CONSTRAINT(constrained));
}

int telegraph_opus_set_complexity(OpusEncoder *encoder, opus_int32 complexity) {
    return opus_encoder_ctl(encoder, OPUS_SET_COMPLEXITY(complexity));
}

int telegraph_opus_get_lookahead(OpusEncoder *encoder, opus_int32 *lookahead) {
    return opus_encoder_ctl(encoder, OPUS_GET_LOOKAHEAD(lookahead));
}

int telegraph_opus_decoder_set_gain(OpusDecoder *decoder, opus_int32 gain) {
    return opus_decoder_ctl(decoder, OPUS_SET_GAIN(gain));
}
