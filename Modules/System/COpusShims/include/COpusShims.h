// Plain functions over libopus's variadic ctl calls, which Swift cannot call (opus_encoder_ctl is `...`).
#ifndef COPUS_SHIMS_H
#define COPUS_SHIMS_H
#include <opus/opus.h>

int telegraph_opus_set_bitrate(OpusEncoder *encoder, opus_int32 bitrate);
int telegraph_opus_set_vbr(OpusEncoder *encoder, opus_int32 vbr);
int telegraph_opus_set_vbr_constraint(OpusEncoder *encoder, opus_int32 constrained);
int telegraph_opus_set_complexity(OpusEncoder *encoder, opus_int32 complexity);
int telegraph_opus_get_lookahead(OpusEncoder *encoder, opus_int32 *lookahead);
int telegraph_opus_decoder_set_gain(OpusDecoder *decoder, opus_int32 gain);

#endif
